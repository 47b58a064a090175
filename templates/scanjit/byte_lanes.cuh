// Byte lanes of max and min held four to a 32-bit word. A lane thread of
// byte lanes (lane_threads.cuh, lane_width=4 or more of u8/i8 max or min)
// held each lane in a register of its own and combined them one by one:
// max u8[1048576,16] dim=0 took 179 registers (one block an SM) and 19
// instructions a byte. Held as words, a combine of four lanes is one
// byte-wise SIMD max or min (__vmaxu4 and kin), a word is read from and
// written to the stage as it lies there, and a warp shuffle moves four lanes.
// Only the tile's total and prefix (the look-back's values) stay a byte a
// lane: they are packed and unpacked once a tile.
#pragma once

#include "scanjit/ops.cuh"
#include "scanjit/packed_lanes.cuh"
#include "scanjit/vector_io.cuh"

namespace scanjit {

// kWords words of byte lanes: lane 4 w + b is byte b of word w (the order
// the lanes lie in memory). Lanes of words, so packed_lanes.cuh's lane-wise
// shuffles move them.
template <int kWords> using ByteWords = Lanes<unsigned, kWords>;

// Which ops of which bytes combine as words: max and min of u8 or i8
// (whose accumulators hold a byte's value whatever their type), four lanes
// a word (a signed byte's order is its signed SIMD op's).
template <class Op> struct ByteWordOp {
  static constexpr bool value = false;
};
template <class Acc> struct ByteWordOp<MaxOp<u8, Acc>> {
  static constexpr bool value = true;
  static __device__ __forceinline__ unsigned combine(unsigned a, unsigned b) { return __vmaxu4(a, b); }
};
template <class Acc> struct ByteWordOp<MinOp<u8, Acc>> {
  static constexpr bool value = true;
  static __device__ __forceinline__ unsigned combine(unsigned a, unsigned b) { return __vminu4(a, b); }
};
template <class Acc> struct ByteWordOp<MaxOp<signed char, Acc>> {
  static constexpr bool value = true;
  static __device__ __forceinline__ unsigned combine(unsigned a, unsigned b) { return __vmaxs4(a, b); }
};
template <class Acc> struct ByteWordOp<MinOp<signed char, Acc>> {
  static constexpr bool value = true;
  static __device__ __forceinline__ unsigned combine(unsigned a, unsigned b) { return __vmins4(a, b); }
};

// Whether a lane thread of P holding kWidth lanes holds them as words.
template <class P, int kWidth> struct HeldAsByteWords {
  static constexpr bool value = ByteWordOp<typename P::Op>::value && kWidth % 4 == 0 &&
                                sizeof(typename P::In) == 1 && sizeof(typename P::Out) == 1;
};

// Op word by word.
template <class Op, int kWords> struct ByteWordsOp {
  typedef ByteWords<kWords> Value;
  static __device__ __forceinline__ unsigned identity_word() {
    return unsigned(u8(Op::identity())) * 0x01010101u;
  }
  static __device__ __forceinline__ Value identity() {
    Value r;
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      r.v[i] = identity_word();
    return r;
  }
  static __device__ __forceinline__ Value combine(Value a, Value b) {
    Value r;
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      r.v[i] = ByteWordOp<Op>::combine(a.v[i], b.v[i]);
    return r;
  }
};

// The words of kWords * 4 bytes at `p`: loaded whole where `kWord` (p a
// multiple of their size), else byte by byte (a shifted stage's or an
// output's place may be any byte).
template <int kWords, bool kWord, class T> __device__ __forceinline__ ByteWords<kWords> read_byte_words(const T *p) {
  static_assert(sizeof(T) == 4 * kWords, "the bytes of kWords words");
  ByteWords<kWords> r;
  if constexpr (kWord) {
    ByteWords<kWords> v[1];
    VectorAccess<ByteWords<kWords>, 1>::load_shared(reinterpret_cast<const ByteWords<kWords> *>(p), v);
    r = v[0];
  } else {
    const u8 *b = reinterpret_cast<const u8 *>(p);
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      r.v[i] = unsigned(b[4 * i]) | unsigned(b[4 * i + 1]) << 8 | unsigned(b[4 * i + 2]) << 16 |
               unsigned(b[4 * i + 3]) << 24;
  }
  return r;
}
template <int kWords, bool kWord, class T> __device__ __forceinline__ void write_byte_words(T *p, ByteWords<kWords> v) {
  static_assert(sizeof(T) == 4 * kWords, "the bytes of kWords words");
  if constexpr (kWord) {
    const ByteWords<kWords> one[1] = {v};
    VectorAccess<ByteWords<kWords>, 1>::store_shared(reinterpret_cast<ByteWords<kWords> *>(p), one);
  } else {
    u8 *b = reinterpret_cast<u8 *>(p);
#pragma unroll
    for (int i = 0; i < 4 * kWords; ++i)
      b[i] = u8(v.v[i / 4] >> (8 * (i % 4)));
  }
}

// What a lane thread holds of an item: kWidth byte lanes as words (the
// LaneGroup of lane_threads.cuh for HeldAsByteWords).
template <class P, int kWidth> struct ByteLaneGroup {
  static constexpr int kWords = kWidth / 4;
  typedef Lanes<typename P::In, kWidth> In;
  typedef Lanes<typename P::Out, kWidth> Out;
  typedef ByteWords<kWords> Acc;
  typedef Lanes<u8, kWidth> Keep;
  typedef ByteWordsOp<typename P::Op, kWords> Op;
  // The lanes from a tile's lanes (a byte a lane), from lane `first` on.
  template <class Tile> static __device__ __forceinline__ Acc of(const Tile &t, int first) {
    Acc r;
#pragma unroll
    for (int i = 0; i < kWords; ++i) {
      r.v[i] = 0;
#pragma unroll
      for (int b = 0; b < 4; ++b)
        r.v[i] |= unsigned(u8(t.v[first + 4 * i + b])) << (8 * b);
    }
    return r;
  }
  template <class Tile> static __device__ __forceinline__ void put(Tile &t, int first, Acc a) {
#pragma unroll
    for (int i = 0; i < 4 * kWords; ++i)
      t.v[first + i] = typename P::Acc(typename P::In(u8(a.v[i / 4] >> (8 * (i % 4))))); // (i8: sign-extended)
  }
  // An item's lanes at `in` (its mask's at `keep`), the identity where it
  // is past the tile's end or its mask byte is 0.
  template <bool kWord>
  static __device__ __forceinline__ Acc lift(const In *in, const Keep *keep, bool in_tile) {
    Acc x = read_byte_words<kWords, kWord>(in);
    const unsigned id = Op::identity_word();
#pragma unroll
    for (int i = 0; i < kWords; ++i) {
      unsigned w = x.v[i];
      if constexpr (P::kMask) {
        const unsigned kept = __vcmpne4(read_byte_words<kWords, kWord>(keep).v[i], 0u); // 0xff a kept byte
        w = (w & kept) | (id & ~kept);
      }
      x.v[i] = in_tile ? w : id;
    }
    return x;
  }
  template <bool kWord> static __device__ __forceinline__ void store(Out *out, Acc a) {
    write_byte_words<kWords, kWord>(out, a);
  }
};

} // namespace scanjit
