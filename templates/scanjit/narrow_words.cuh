// Runs of 1- and 2-byte elements that lie anywhere in their words, moved as
// the aligned 4-byte words that cover them: a lane's load or store
// instruction spans the warp's runs either way, so moving a word, not an
// element, an instruction takes a quarter (bytes) or half (2-byte elements)
// of the instructions. Warp rows of odd byte lengths are bound by the L1
// pipe's instructions, not by bytes (max i8[200000,201] dim=1: 13 one-byte
// loads and 13 one-byte scratch stores a lane, the L1 pipe 88% busy, DRAM
// 20%; ncu, H200).
#pragma once

#include "scanjit/element_io.cuh"

namespace scanjit {

// Whether runs of N elements of T move by words here: narrow elements
// whose run is not a whole number of aligned words already.
template <class T, int N> __device__ constexpr bool moves_run_by_words() {
  return sizeof(T) <= 2 && vector_bytes_for(N * int(sizeof(T))) < 4;
}

// A thread's run at `p` (`valid` of N elements, at least one) loaded as
// one vector where it is whole words on their grid, else as the aligned
// words that cover it, each 4 bytes of the run funneled from
// two of them. Words reaching outside [lo, hi), the tensor's bytes, are
// not read (a run at the tensor's two ends loads element by element).
template <class T, int N, class Index>
__device__ __forceinline__ void load_run_by_words(const T *p, Index valid, const T *lo, const T *hi, T (&v)[N]) {
  constexpr int kBytes = N * int(sizeof(T));
  constexpr int kWords = (kBytes + 3) / 4; // the run's words, counted from its first byte
  if constexpr (vector_bytes_for(kBytes) >= 4) { // (a run of whole words on their grid: as such)
    if (valid >= N && VectorAccess<T, N>::is_aligned(p)) {
      VectorAccess<T, N>::load(p, v);
      return;
    }
  }
  const u64 at = reinterpret_cast<u64>(p);
  const int n = int(min(valid, Index(N))) * int(sizeof(T));
  constexpr int kCovering = (3 + kBytes + 3) / 4; // the most words a run covers
  const int covering = (int(at & 3) + n + 3) / 4;
  // (stepped back from `p`, not cast from an integer: the load stays a global one)
  const unsigned *w = reinterpret_cast<const unsigned *>(reinterpret_cast<const unsigned char *>(p) - (at & 3));
  if (reinterpret_cast<u64>(w) >= reinterpret_cast<u64>(lo) &&
      reinterpret_cast<u64>(w + covering) <= reinterpret_cast<u64>(hi)) {
    unsigned got[kWords + 1];
#pragma unroll
    for (int j = 0; j <= kWords; ++j)
      got[j] = j < kCovering && j < covering ? __ldg(w + j) : 0u;
    const unsigned bits = unsigned(at & 3) * 8u;
    unsigned words[kWords];
#pragma unroll
    for (int k = 0; k < kWords; ++k)
      words[k] = __funnelshift_r(got[k], got[k + 1], bits);
    memcpy(v, words, kBytes);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j < valid)
      v[j] = p[j];
}

// load_lifted (element_io.cuh) with the input and mask runs by words, in
// tensors of `elems` elements at `in0` and `mask0`.
template <class P, int N, class Index>
__device__ __forceinline__ void load_lifted_by_words(const typename P::In *in, const u8 *mask, Index valid,
                                                     const typename P::In *in0, const u8 *mask0, Index elems,
                                                     typename P::Acc (&x)[N]) {
  typedef typename P::In In;
  In raw[N];
  u8 keep[N];
  if (valid > 0) {
    load_run_by_words<In, N>(in, valid, in0, in0 + elems, raw);
    if (P::kMask)
      load_run_by_words<u8, N>(mask, valid, mask0, mask0 + elems, keep);
  }
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const bool use = j < valid && (!P::kMask || keep[j] != 0);
    x[j] = use ? Convert<In>::template load<typename P::Acc>(raw[j]) : P::Op::identity();
  }
}

// Whether padded warp rows of L (N items a lane, 1- or 2-byte results)
// go into the warp's scratch by words (put_rows_by_words), not item by
// item: where every lane that holds items holds 3 bytes or more, so that
// the bytes that complete a lane's last word are all its successor's.
template <class Out, int N, long long L> __device__ constexpr bool stores_rows_by_words() {
  constexpr long long kLastLaneItems = L - (L - 1) / N * N; // a row's last lane's
#ifdef SCANJIT_EXP_BYTE_STORES
  return false;
#endif
  return sizeof(Out) <= 2 && N * sizeof(Out) >= 3 && kLastLaneItems * sizeof(Out) >= 3;
}

// A warp's padded rows of L (W lanes a row; lane `pos` of row k holds
// `valid` of its N results, at slot k L + pos N) put in the warp's
// `scratch` (16-byte aligned) by words: each lane writes the aligned words
// whose first byte is its own, its last one completed with the first bytes
// of its successor in memory (the next lane, or the next row's first),
// got by a shuffle. Bytes past the warp's rows are left undefined.
template <class P, int N, long long L, int W>
__device__ __forceinline__ void put_rows_by_words(typename P::Out *scratch, int k, int pos, long long valid,
                                                  const typename P::Acc (&r)[N]) {
  typedef typename P::Out Out;
  constexpr int S = int(sizeof(Out));
  constexpr int kWords = (N * S + 3) / 4; // the results' words, from the first byte
  static_assert(stores_rows_by_words<Out, N, L>(), "every lane with results holds 3 bytes or more");
  Out v[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    v[j] = Convert<Out>::store(r[j]);
  unsigned u[kWords] = {};
  memcpy(u, v, N * S);
  const int first = (k * int(L) + pos * N) * S; // the first byte's place in the scratch
  const int n = valid > 0 ? int(min(valid, (long long)N)) * S : 0;
  const int end = first + n;
  const unsigned bits = unsigned(first & 3) * 8u;
  // shifted[j]: the scratch word (first / 4 + j) as far as its bytes are ours
  unsigned shifted[kWords + 1];
  shifted[0] = u[0] << bits;
#pragma unroll
  for (int j = 1; j < kWords; ++j)
    shifted[j] = __funnelshift_l(u[j - 1], u[j], bits);
  shifted[kWords] = __funnelshift_l(u[kWords - 1], 0u, bits);
  const int lane = int(threadIdx.x & 31);
  const int successor = (pos + 1) * N < int(L) ? lane + 1 : (k + 1) * W; // (past the warp: bytes no one copies)
  const unsigned theirs = __shfl_sync(0xffffffffu, shifted[0], successor & 31);
  const int last = (end - 1) / 4 - first / 4; // our last word, among shifted[]
  const unsigned ours = (1u << ((end & 3) * 8)) - 1u; // its bytes that are ours (where it is partial)
  unsigned *words = reinterpret_cast<unsigned *>(reinterpret_cast<unsigned char *>(scratch) + (first & ~3));
#pragma unroll
  for (int j = 0; j <= kWords; ++j) {
    const unsigned word = j == last && (end & 3) != 0 ? (shifted[j] & ours) | (theirs & ~ours) : shifted[j];
    if (n > 0 && (j > 0 || bits == 0) && j <= last)
      words[j] = word;
  }
}

} // namespace scanjit
