// One tile of the scan ladder: each thread holds kItems consecutive values;
// thread-serial scan -> block (or warp) exclusive scan of thread totals ->
// a prefix from earlier tiles -> per-item results. The same code serves
// plain and segmented monoids, forward and reverse. Two phases, so a caller
// can find the tile's prefix between them (look-back); scan_tile chains them
// with a running carry.
#pragma once

#include "scanjit/block_scan.cuh"

namespace scanjit {

template <class M, int kItems> struct TileScanState {
  typename M::Value local[kItems]; // inclusive scan of this thread's items, in scan order
  typename M::Value excl;          // combination of the tile's earlier threads
  typename M::Value total;         // combination of the whole tile
};

// Phase 1: everything that does not need the tile's prefix.
template <class M, bool kReverse, int kThreads, int kItems>
__device__ __forceinline__ void tile_local_scan(const typename M::Value (&v)[kItems],
                                                TileScanState<M, kItems> &s,
                                                BlockScanStorage<M, kThreads> &storage, int &buffer) {
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    s.local[j] = v[j];
  if (kReverse) {
#pragma unroll
    for (int j = kItems - 2; j >= 0; --j)
      s.local[j] = M::combine(s.local[j + 1], s.local[j]);
  } else {
#pragma unroll
    for (int j = 1; j < kItems; ++j)
      s.local[j] = M::combine(s.local[j - 1], s.local[j]);
  }
  s.excl = block_exclusive_scan<M, kReverse, kThreads>(kReverse ? s.local[0] : s.local[kItems - 1],
                                                       storage, buffer, s.total);
}

// Phase 2: per-item results given the combination of all earlier tiles.
template <class M, class Acc, bool kReverse, bool kExclusive, int kItems>
__device__ __forceinline__ void tile_results(const TileScanState<M, kItems> &s,
                                             typename M::Value tile_prefix,
                                             const bool (&starts_segment)[kItems],
                                             Acc (&result)[kItems]) {
  typedef typename M::Value Value;
  const Value prefix = M::combine(tile_prefix, s.excl);
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    if (kExclusive) {
      const bool first = kReverse ? j == kItems - 1 : j == 0;
      Value before = first ? prefix : M::combine(prefix, s.local[kReverse ? j + 1 : j - 1]);
      result[j] = starts_segment[j] ? M::acc(M::identity()) : M::acc(before);
    } else {
      result[j] = M::acc(M::combine(prefix, s.local[j]));
    }
  }
}

// A thread's kItems consecutive elements of back-to-back rows of kLength
// elements, as segmented values: heads[j] where a row starts in scan order
// (its first element; its last in reverse). `pos` is the first item's place
// in its row; item j exists while first + j < end.
template <class M, bool kReverse, long long kLength, int kItems, class Acc, class Index, class Count>
__device__ __forceinline__ void with_row_heads(const Acc (&x)[kItems], Index pos, Count first, Count end,
                                               bool (&heads)[kItems], typename M::Value (&v)[kItems]) {
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    heads[j] = first + j < end && pos == (kReverse ? Index(kLength) - 1 : Index(0));
    v[j] = M::make(x[j], heads[j]);
    pos = pos + 1 == Index(kLength) ? Index(0) : pos + 1;
  }
}

template <class M, class Acc, bool kReverse, bool kExclusive, int kThreads, int kItems>
__device__ __forceinline__ void scan_tile(const typename M::Value (&v)[kItems],
                                          const bool (&starts_segment)[kItems],
                                          Acc (&result)[kItems], typename M::Value &carry,
                                          BlockScanStorage<M, kThreads> &storage, int &buffer) {
  TileScanState<M, kItems> s;
  tile_local_scan<M, kReverse, kThreads, kItems>(v, s, storage, buffer);
  tile_results<M, Acc, kReverse, kExclusive, kItems>(s, carry, starts_segment, result);
  carry = M::combine(carry, s.total);
}

} // namespace scanjit
