// One tile of the scan ladder: each thread holds kItems consecutive values;
// thread-serial scan -> block (or warp) exclusive scan of thread totals ->
// the running carry from earlier tiles -> per-item results. The same code
// serves plain and segmented monoids, forward and reverse.
#pragma once

#include "scanjit/block_scan.cuh"

namespace scanjit {

template <class M, class Acc, bool kReverse, bool kExclusive, int kThreads, int kItems>
__device__ __forceinline__ void scan_tile(const typename M::Value (&v)[kItems],
                                          const bool (&starts_segment)[kItems],
                                          Acc (&result)[kItems], typename M::Value &carry,
                                          BlockScanStorage<M, kThreads> &storage, int &buffer) {
  typedef typename M::Value Value;
  Value local[kItems]; // inclusive scan of this thread's items, in scan order
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    local[j] = v[j];
  if (kReverse) {
#pragma unroll
    for (int j = kItems - 2; j >= 0; --j)
      local[j] = M::combine(local[j + 1], local[j]);
  } else {
#pragma unroll
    for (int j = 1; j < kItems; ++j)
      local[j] = M::combine(local[j - 1], local[j]);
  }
  Value block_total;
  Value excl = block_exclusive_scan<M, kReverse, kThreads>(kReverse ? local[0] : local[kItems - 1],
                                                           storage, buffer, block_total);
  Value prefix = M::combine(carry, excl);
  carry = M::combine(carry, block_total);
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    if (kExclusive) {
      const bool first = kReverse ? j == kItems - 1 : j == 0;
      Value before = first ? prefix : M::combine(prefix, local[kReverse ? j + 1 : j - 1]);
      result[j] = starts_segment[j] ? M::acc(M::identity()) : M::acc(before);
    } else {
      result[j] = M::acc(M::combine(prefix, local[j]));
    }
  }
}

} // namespace scanjit
