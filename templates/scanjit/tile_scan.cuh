// One tile of the scan ladder: each thread holds kItems consecutive values;
// thread-serial scan -> block (or warp) exclusive scan of thread totals ->
// a prefix from earlier tiles -> per-item results. The same code serves
// plain and segmented monoids, forward and reverse. Two phases, so a caller
// can find the tile's prefix between them; the tile agent (tile_agent.cuh)
// is how kernels call them. Plain log-sum-exp keeps a thread's items in
// linear space (log_sum_exp_tile.cuh).
#pragma once

#include "scanjit/block_scan.cuh"
#include "scanjit/log_sum_exp_tile.cuh"
#include "scanjit/thread_scan.cuh"

namespace scanjit {

template <class M, int kItems, bool kLinear = IsPlainLogSumExp<M>::value> struct TileScanState {
  typename M::Value local[kItems]; // inclusive scan of this thread's items, in scan order
  typename M::Value excl;          // combination of the tile's earlier threads
  typename M::Value total;         // combination of the whole tile
};
// Log-sum-exp: `local` holds linear sums relative to `ref` when `linear`,
// and the earlier threads' combination is a (max, sum) pair.
template <class M, int kItems> struct TileScanState<M, kItems, true> {
  typename M::Value local[kItems];
  LsePair<typename M::Value> excl;
  LsePair<typename M::Value> total_pair;
  typename M::Value total; // in log space
  typename M::Value ref;
  bool linear;
};

// Phase 1: everything that does not need the tile's prefix.
template <class M, bool kReverse, int kThreads, int kItems>
__device__ __forceinline__ void tile_local_scan(const typename M::Value (&v)[kItems],
                                                TileScanState<M, kItems> &s,
                                                BlockScanStorage<M, kThreads> &storage, int &buffer) {
  if constexpr (IsPlainLogSumExp<M>::value) {
    typedef LsePairMonoid<typename M::Value> Pair;
    s.excl = block_exclusive_scan<Pair, kReverse, kThreads>(
        lse_thread_scan<M, kReverse, kItems>(v, s.local, s.ref, s.linear), storage, buffer, s.total_pair);
    s.total = Pair::log_value(s.total_pair);
  } else {
    const typename M::Value thread_total = thread_inclusive_scan<M, kReverse, kItems>(v, s.local);
    s.excl = block_exclusive_scan<M, kReverse, kThreads>(thread_total, storage, buffer, s.total);
  }
}

// What a scan of tiles carries from one tile to the next: M's value, or
// for log-sum-exp the (max, sum) pair, which needs no log between tiles.
template <class M> using CarryMonoid = typename BlockMonoid<M>::type;

// Phase 2: per-item results given the combination of all earlier tiles
// (M's value, or for log-sum-exp also its carry pair).
template <class M, class Acc, bool kReverse, bool kExclusive, int kItems, class Prefix>
__device__ __forceinline__ void tile_results(const TileScanState<M, kItems> &s, Prefix tile_prefix,
                                             const bool (&starts_segment)[kItems],
                                             Acc (&result)[kItems]) {
  if constexpr (IsPlainLogSumExp<M>::value) { // plain monoid: no item starts a segment
    typedef LsePairMonoid<typename M::Value> Pair;
    lse_thread_results<M, kReverse, kExclusive, kItems>(s.local, s.ref, s.linear,
                                                        Pair::combine(Pair::as_pair(tile_prefix), s.excl), result);
  } else {
    thread_results<M, Acc, kReverse, kExclusive, kItems>(s.local, M::combine(tile_prefix, s.excl), starts_segment,
                                                         result);
  }
}

// A thread's kItems consecutive elements of back-to-back rows of kLength
// elements, as segmented values: heads[j] where a row starts in scan order
// (its first element; its last in reverse). `pos` is the first item's place
// in its row; item j exists while first + j < end.
template <class M, bool kReverse, long long kLength, int kItems, class Acc, class Index, class Count>
__device__ __forceinline__ void with_row_heads(const Acc (&x)[kItems], Index pos, Count first, Count end,
                                               bool (&heads)[kItems], typename M::Value (&v)[kItems]) {
  if constexpr (kLength >= kItems) {
    // At most one head in the run: find its item once. (A counter wrapped
    // at kLength cost three instructions an item: bf16[293952,210] issued
    // 43 instructions an element, BENCHMARKS.md.)
    const Index head = kReverse ? Index(kLength) - 1 - pos : (pos == Index(0) ? Index(0) : Index(kLength) - pos);
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      heads[j] = first + j < end && head == Index(j);
      v[j] = M::make(x[j], heads[j]);
    }
  } else {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      heads[j] = first + j < end && pos == (kReverse ? Index(kLength) - 1 : Index(0));
      v[j] = M::make(x[j], heads[j]);
      pos = pos + 1 == Index(kLength) ? Index(0) : pos + 1;
    }
  }
}

// Where element `e` of a run of back-to-back rows of kLength lies in its
// row; `e` may be negative (the slots of a tile before its chunk).
template <long long kLength, class Index> __device__ __forceinline__ Index place_in_row(long long e) {
  return Index(((e % kLength) + kLength) % kLength);
}

// A thread's lifted items of a chunk as M's values: with row heads
// (with_row_heads, `pos` the first item's place in its row) when the chunk
// holds several rows, else as they are.
template <class M, bool kSegmented, bool kReverse, long long kLength, int kItems, class Acc, class Index, class Count>
__device__ __forceinline__ void chunk_values(const Acc (&x)[kItems], Index pos, Count first, Count end,
                                             bool (&heads)[kItems], typename M::Value (&v)[kItems]) {
  if constexpr (kSegmented) {
    with_row_heads<M, kReverse, kLength, kItems>(x, pos, first, end, heads, v);
  } else {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      v[j] = x[j];
  }
}

// A running carry (the combination of earlier tiles) followed by tile `s`.
template <class M, int kItems>
__device__ __forceinline__ typename CarryMonoid<M>::Value tile_carry(typename CarryMonoid<M>::Value carry,
                                                                     const TileScanState<M, kItems> &s) {
  if constexpr (IsPlainLogSumExp<M>::value)
    return CarryMonoid<M>::combine(carry, s.total_pair);
  else
    return M::combine(carry, s.total);
}

} // namespace scanjit
