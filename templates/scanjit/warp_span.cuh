// A warp's contiguous span of elements brought into shared memory by whole
// 16-byte words, for warp rows whose lanes' own runs lie off any vector's
// grid: each lane then reads its items from the copy. A lane's own scalar
// loads (one instruction an item, each spanning the warp's rows) or loads
// striped across the lanes (32 narrow elements an instruction) move a
// fraction of what one 16-byte load a lane moves.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/monoid.cuh"

namespace scanjit {

// Shared memory for each warp's span of up to 32 x N elements (and of its
// mask bytes, where masked), with a word of room, since a span keeps its
// place in its word.
template <class P, int T, int N, bool kMask = P::kMask> struct WarpSpanScratch {
  alignas(16) typename P::In in[T / 32][32 * N + int(16 / sizeof(typename P::In))];
  __device__ __forceinline__ u8 *mask() { return nullptr; }
};
template <class P, int T, int N> struct WarpSpanScratch<P, T, N, true> {
  alignas(16) typename P::In in[T / 32][32 * N + int(16 / sizeof(typename P::In))];
  alignas(16) u8 masks[T / 32][32 * N + 16];
  __device__ __forceinline__ u8 *mask() { return masks[threadIdx.x / 32]; }
};

// The `count` (at most kMost) elements at `src` copied to `dst` (shared
// memory, 16-byte aligned, room for count + 16 / sizeof(T) - 1 elements) at the same
// distance from a 16-byte word as in global memory: the whole words by one
// 16-byte load and store a lane, the partial words at the span's two ends
// element by element (no load reads past the span, where the tensor may
// end). Returns that distance in elements: element e lies at dst[shift + e].
// The caller syncs the warp before reading.
template <class T, int kMost> __device__ __forceinline__ int copy_span_by_words(const T *src, int count, T *dst) {
  constexpr int kPerWord = int(16 / sizeof(T));
  constexpr int kRounds = (kMost / kPerWord + 31) / 32; // a word a lane a round
  const int shift = int(reinterpret_cast<unsigned long long>(src) & 15) / int(sizeof(T));
  const int head = shift == 0 ? 0 : min(kPerWord - shift, count); // elements before the first whole word
  const int words = (count - head) / kPerWord;
  const int tail = head + words * kPerWord; // the first element after the last whole word
  const int lane = int(threadIdx.x & 31);
  const uint4 *from = reinterpret_cast<const uint4 *>(src + head);
  uint4 *to = reinterpret_cast<uint4 *>(dst + shift + head);
#pragma unroll
  for (int round = 0; round < kRounds; ++round)
    if (lane + 32 * round < words)
      to[lane + 32 * round] = from[lane + 32 * round];
  if (lane < head)
    dst[shift + lane] = src[lane];
  if (lane < count - tail)
    dst[shift + tail + lane] = src[tail + lane];
  return shift;
}

// The items of a warp's rows of L (R = 32 / W rows of W lanes, the warp's
// `elems` elements at `in`, their mask bytes at `mask` where masked),
// brought in by words (copy_span_by_words) and lifted: lane `pos` of row k
// takes slots k L + pos N, ..., `valid` of them (those its mask keeps); the
// rest lift to the identity.
template <class P, int N, long long L, class Index>
__device__ __forceinline__ void load_lifted_warp_span(const typename P::In *in, const u8 *mask, int elems, int k,
                                                      int pos, Index valid, typename P::In *span, u8 *mask_span,
                                                      typename P::Acc (&x)[N]) {
  typedef typename P::In In;
  __syncwarp(); // the lanes have read the warp's previous span
  const int slot = k * int(L) + pos * N;
  const int at = copy_span_by_words<In, 32 * N>(in, elems, span) + slot;
  int mask_at = 0;
  if constexpr (P::kMask)
    mask_at = copy_span_by_words<u8, 32 * N>(mask, elems, mask_span) + slot;
  __syncwarp();
  // Every lane reads all N of its slots, whether they hold elements or not:
  // they lie inside the span's room (k L + pos N is at most 31 N), and
  // unpredicated loads take one offset from one address, where loads under
  // `j < valid` each computed their own (7 instructions an item, not 4).
  const In *mine = span + at;
  In raw[N];
  u8 keep[N];
#pragma unroll
  for (int j = 0; j < N; ++j) {
    raw[j] = mine[j];
    if constexpr (P::kMask)
      keep[j] = mask_span[mask_at + j];
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    x[j] = Index(j) < valid && (!P::kMask || keep[j] != 0) ? Convert<In>::template load<typename P::Acc>(raw[j])
                                                           : P::Op::identity();
}

// Whether warp rows of N items a lane load by words (load_lifted_warp_span):
// rows of 1- and 2-byte elements (but log-sum-exp's), padded ones
// always, rows that tile the warp's run (kTiles) where their runs lie off
// the vectors' grid, but not where a lane's run is whole 16-byte words:
// their striped loads hand each lane whole vectors, where its scalar reads
// from the span meet in 4 or 8 banks (H200, x copy, own or striped loads /
// by words, best of two: sum bf16[119837,140] reverse two elements in 1.46
// / 1.04, min f16[360800,93] exclusive 1.62 / 1.42, sum f16[4194304,12]
// one in 1.23 / 1.11, sum f16[100000,230] 1.35 / 1.24, max
// bf16[409200,123] exclusive, padded runs of 32 bytes, 1.56 / 1.43; 21 of
// 49 such rows gained, 7 lost, among them sum bf16[390167,86] two in 1.47 /
// 1.58 and the tiling sum f16[65536,256] one in, runs of 32 bytes, 1.14 /
// 1.52, which keeps its striped loads; sixty-third pass). Byte rows lost
// then, while a read from the span took 7 instructions; at 4 (unpredicated)
// they gain (max u8[335544,100] exclusive two in 1.78 / 1.51, min
// u8[474826,53] reverse 1.76 / 1.59, max u8[107142,224] 1.38 / 1.28;
// eighty-ninth pass). Masked rows copy their mask's span too: their own
// loads of 9-26 scattered items and mask bytes spilled 96-184 bytes in
// 2-byte rows (H200, x copy, own / by words, best of two: sum
// f16[269654,163] mask @2 2.19 / 1.42, prod bf16[195516,99] mask @3 2.33 /
// 1.20, sum f16[128936,178] mask exclusive @2 2.06 / 1.29, max
// i8[180149,183] mask exclusive @1 1.94 / 1.63; 35 of 65 drawn gained, 10
// lost, the most integer sums into i64 whose scratch's stores already meet
// in the banks: sum i16[2175831,17] mask @2 1.15 / 1.38, sum
// i16[209597,188] mask @2 1.08 / 1.26; ninety-first pass). Log-sum-exp's
// lost (f16[200000,129] 2.20 / 2.53; sixty-third pass).
template <class P, int N, bool kTiles> __device__ constexpr bool loads_warp_rows_by_words() {
  return sizeof(typename P::In) <= 2 && (!kTiles || (N * sizeof(typename P::In)) % 16 != 0) &&
         !IsPlainLogSumExp<PlainMonoid<typename P::Op, typename P::Acc>>::value;
}

} // namespace scanjit
