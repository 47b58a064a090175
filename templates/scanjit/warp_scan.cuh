// Warp-level scans. kReverse scans from lane 31 down to lane 0, so reverse
// scans need no data reversal: the direction is part of the ladder. With
// kWidth < 32 (a power of two) each run of kWidth lanes scans on its own,
// and `lane` is the position within the run.
#pragma once

#include "scanjit/monoid.cuh"

namespace scanjit {

// The fewest lanes, a power of two (at least 2), that hold n values, one a
// lane: the width of a scan or butterfly over them.
__device__ constexpr int lanes_holding(int n) {
  int w = 2;
  while (w < n)
    w *= 2;
  return w;
}

template <bool kReverse, int kWidth = 32> __device__ __forceinline__ int first_lane_in_order() {
  return kReverse ? kWidth - 1 : 0;
}
template <bool kReverse> __device__ __forceinline__ int last_lane_in_order() {
  return kReverse ? 0 : 31;
}

template <class M, bool kReverse, int kWidth = 32>
__device__ __forceinline__ typename M::Value warp_inclusive_scan(typename M::Value v, int lane) {
#pragma unroll
  for (int d = 1; d < kWidth; d <<= 1) {
    typename M::Value other = kReverse ? shfl_down(v, d) : shfl_up(v, d);
    bool has_earlier = kReverse ? (lane + d < kWidth) : (lane >= d);
    if (has_earlier)
      v = M::combine(other, v);
  }
  return v;
}

// Exclusive value of each lane given the lanes' inclusive values.
template <class M, bool kReverse, int kWidth = 32>
__device__ __forceinline__ typename M::Value warp_exclusive_from_inclusive(typename M::Value incl,
                                                                           int lane) {
  typename M::Value prev = kReverse ? shfl_down(incl, 1) : shfl_up(incl, 1);
  return lane == first_lane_in_order<kReverse, kWidth>() ? M::identity() : prev;
}

// Warp exclusive scan; `total` receives the whole warp's combination.
template <class M, bool kReverse>
__device__ __forceinline__ typename M::Value warp_exclusive_scan(typename M::Value v, int lane,
                                                                 typename M::Value &total) {
  typename M::Value incl = warp_inclusive_scan<M, kReverse>(v, lane);
  total = shfl_idx(incl, last_lane_in_order<kReverse>());
  return warp_exclusive_from_inclusive<M, kReverse>(incl, lane);
}

} // namespace scanjit
