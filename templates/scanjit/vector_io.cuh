// Loads and stores of N consecutive elements per thread through the widest
// aligned vector (up to 16 bytes). Callers check alignment at run time with
// is_aligned(): pointers handed to a kernel may be offset by any element.
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

template <int kBytes> struct VectorWord;
template <> struct VectorWord<16> { typedef uint4 type; };
template <> struct VectorWord<8> { typedef uint2 type; };
template <> struct VectorWord<4> { typedef unsigned type; };
template <> struct VectorWord<2> { typedef unsigned short type; };
template <> struct VectorWord<1> { typedef unsigned char type; };

// The widest power of two, at most 16, that divides `bytes`.
__host__ __device__ constexpr int vector_bytes_for(int bytes) {
  return bytes % 16 == 0 ? 16 : bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : bytes % 2 == 0 ? 2 : 1;
}

// Items of a word's size, or of several 16-byte words, but aligned to less
// (packed lanes' items: Lanes<u8, 16>, Lanes<f32, 4>, Lanes<f32, 8>):
// moved as words where their address is on the words' grid, instead of an
// access a member (Lanes<f32, 8>: 8 ld.global.f32 or st.global.f32 a lane,
// the lanes 32 bytes apart).
template <class T> __device__ constexpr bool moves_as_word() {
  return alignof(T) < sizeof(T) && (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) % 16 == 0);
}
template <class T> struct ItemWord {
  static_assert(moves_as_word<T>(), "an item of a word's size or of whole words");
  enum : int { kBytes = sizeof(T) < 16 ? int(sizeof(T)) : 16, kWords = int(sizeof(T)) / kBytes }; // (no globals)
  typedef typename VectorWord<kBytes>::type Word;
  static __device__ __forceinline__ bool is_aligned(const void *p) { return reinterpret_cast<u64>(p) % kBytes == 0; }
  static __device__ __forceinline__ T load(const T *p) {
    T v;
    if constexpr (kWords == 1) { // (one value, as before: the array form changed packed kernels' code)
      const Word w = *reinterpret_cast<const Word *>(p);
      memcpy(&v, &w, sizeof(T));
    } else {
      Word w[kWords];
#pragma unroll
      for (int i = 0; i < kWords; ++i)
        w[i] = reinterpret_cast<const Word *>(p)[i];
      memcpy(&v, w, sizeof(T));
    }
    return v;
  }
  static __device__ __forceinline__ void store(T *p, const T &v) {
    if constexpr (kWords == 1) {
      Word w;
      memcpy(&w, &v, sizeof(T));
      *reinterpret_cast<Word *>(p) = w;
    } else {
      Word w[kWords];
      memcpy(w, &v, sizeof(T));
#pragma unroll
      for (int i = 0; i < kWords; ++i)
        reinterpret_cast<Word *>(p)[i] = w[i];
    }
  }
};

template <class T, int N> struct VectorAccess {
  static constexpr int kBytes = vector_bytes_for(N * int(sizeof(T)));
  static constexpr int kWords = N * int(sizeof(T)) / kBytes;
  typedef typename VectorWord<kBytes>::type Word;

  static __device__ __forceinline__ bool is_aligned(const void *p) {
    return (reinterpret_cast<u64>(p) % kBytes) == 0;
  }
  // Streaming loads/stores: each byte is touched once, keep it out of L1.
  // But a run of several words loads through L1: each of its loads spans
  // the sectors of the warp's runs, and streamed, each fetched them all from
  // L2 again (13 single-byte loads a lane, max i8[200000,201] dim=1: 13x
  // the run's sectors from L2, the busiest memory unit 83% busy and DRAM 17%;
  // ncu, H200).
  static __device__ __forceinline__ void load(const T *p, T (&v)[N]) {
    Word w[kWords];
    const Word *src = reinterpret_cast<const Word *>(p);
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      w[i] = kWords == 1 ? __ldcs(src + i) : src[i];
    memcpy(v, w, sizeof(w));
  }
  static __device__ __forceinline__ void store(T *p, const T (&v)[N]) {
    Word w[kWords];
    memcpy(w, v, sizeof(w));
    Word *dst = reinterpret_cast<Word *>(p);
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      __stcs(dst + i, w[i]);
  }
  // Plain loads for shared memory (the streaming hints are for global
  // memory only: on a shared address they fault). `p` must be aligned.
  static __device__ __forceinline__ void load_shared(const T *p, T (&v)[N]) {
    Word w[kWords];
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      w[i] = reinterpret_cast<const Word *>(p)[i];
    memcpy(v, w, sizeof(w));
  }
  static __device__ __forceinline__ void store_shared(T *p, const T (&v)[N]) {
    Word w[kWords];
    memcpy(w, v, sizeof(w));
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      reinterpret_cast<Word *>(p)[i] = w[i];
  }
};

// N elements of T from shared `p`, aligned to T only (a stage whose tiles
// start anywhere in a word: mask bytes of the grid and span pipelines,
// packed items of a shifted TilePipeline): where T is narrower than a word
// and N of them fill whole words, as words, each funneled from the two
// aligned words that hold it (half the loads of 2-byte elements, a quarter
// of bytes'; the caller's stage has room for the word after the last);
// else element by element.
template <class T, int N> __device__ __forceinline__ void load_shared_unaligned(const unsigned char *p, T (&v)[N]) {
  constexpr int kBytes = N * int(sizeof(T));
  if constexpr (alignof(T) < 4 && kBytes % 4 == 0) {
    const unsigned *w = reinterpret_cast<const unsigned *>(reinterpret_cast<u64>(p) & ~u64(3));
    const unsigned bits = unsigned(reinterpret_cast<u64>(p) & 3u) * 8u; // (the same in every thread)
    unsigned words[kBytes / 4];
    unsigned low = w[0];
#pragma unroll
    for (int k = 0; k < kBytes / 4; ++k) {
      const unsigned high = w[k + 1];
      words[k] = __funnelshift_r(low, high, bits);
      low = high;
    }
    memcpy(v, words, kBytes);
  } else {
#pragma unroll
    for (int j = 0; j < N; ++j)
      v[j] = reinterpret_cast<const T *>(p)[j];
  }
}

// As load_shared_unaligned, from a stage with room for 16 bytes past the
// last element (a shifted TilePipeline's): 16-byte loads of the aligned
// words that cover the elements, then each word funneled from two of them.
// Which two depends on the elements' word in their 16 bytes, the same in
// every thread of a tile where a thread's items are whole 16-byte vectors
// (else the warp takes its threads' cases in turn): each of the four cases
// has its own copy of the code, with no selects. (2-byte items a thread: a
// quarter of the loads of word by word.)
template <int kWord, class T, int N>
__device__ __forceinline__ void load_shared_funneled(const uint4 *base, unsigned bits, T (&v)[N]) {
  constexpr int kWords = N * int(sizeof(T)) / 4;
  constexpr int kVectors = (kWord + kWords + 1 + 3) / 4;
  unsigned w[4 * kVectors];
#pragma unroll
  for (int i = 0; i < kVectors; ++i) {
    const uint4 x = base[i];
    w[4 * i] = x.x;
    w[4 * i + 1] = x.y;
    w[4 * i + 2] = x.z;
    w[4 * i + 3] = x.w;
  }
  unsigned words[kWords];
#pragma unroll
  for (int k = 0; k < kWords; ++k)
    words[k] = __funnelshift_r(w[kWord + k], w[kWord + k + 1], bits);
  memcpy(v, words, sizeof(words));
}
template <class T, int N> __device__ __forceinline__ void load_shared_shifted(const unsigned char *p, T (&v)[N]) {
  if constexpr (alignof(T) < 4 && (N * sizeof(T)) % 4 == 0) {
    const u64 a = reinterpret_cast<u64>(p);
    const uint4 *base = reinterpret_cast<const uint4 *>(a & ~u64(15));
    const unsigned bits = unsigned(a & 3) * 8u;
    switch (unsigned(a >> 2) & 3u) {
    case 0:
      load_shared_funneled<0>(base, bits, v);
      break;
    case 1:
      load_shared_funneled<1>(base, bits, v);
      break;
    case 2:
      load_shared_funneled<2>(base, bits, v);
      break;
    default:
      load_shared_funneled<3>(base, bits, v);
    }
  } else {
    load_shared_unaligned(p, v);
  }
}

} // namespace scanjit
