// The thread level of the scan ladder: a thread's own items, scanned in
// registers, and its results once the prefix before its first item is known.
#pragma once

#include "scanjit/monoid.cuh"

namespace scanjit {

// A thread's items scanned in scan order: local[j] combines the items up
// to j (from the last item down to j in reverse). Returns the thread's total.
template <class M, bool kReverse, int kItems>
__device__ __forceinline__ typename M::Value thread_inclusive_scan(const typename M::Value (&v)[kItems],
                                                                   typename M::Value (&local)[kItems]) {
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
  return kReverse ? local[0] : local[kItems - 1];
}

// A thread's results from its inclusive scan `local` and `prefix`, the
// combination of everything before its first item in scan order; an item
// that starts a segment gets the identity when exclusive.
template <class M, class Acc, bool kReverse, bool kExclusive, int kItems>
__device__ __forceinline__ void thread_results(const typename M::Value (&local)[kItems],
                                               typename M::Value prefix, const bool (&starts_segment)[kItems],
                                               Acc (&result)[kItems]) {
  typedef typename M::Value Value;
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
