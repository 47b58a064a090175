// Block-level exclusive scan of one value per thread, with one barrier per
// call: each warp publishes its total, then every warp scans the (at most 32)
// totals itself instead of waiting for warp 0 to do it and barrier again.
// The storage is double-buffered so consecutive calls need no extra barrier.
#pragma once

#include "scanjit/warp_scan.cuh"

namespace scanjit {

// Storage for a block scan of M's thread totals, whose values are those of
// BlockMonoid<M> (log-sum-exp scans (max, sum) pairs).
template <class M, int kThreads> struct BlockScanStorage {
  typename BlockMonoid<M>::type::Value warp_totals[2][kThreads / 32];
};

template <class M, bool kReverse, int kThreads, class Storage>
__device__ __forceinline__ typename M::Value block_exclusive_scan(typename M::Value v, Storage &storage, int &buffer,
                                                                  typename M::Value &block_total) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "block size must be a multiple of 32");
  constexpr int kWarps = kThreads / 32;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  typename M::Value warp_total;
  typename M::Value excl = warp_exclusive_scan<M, kReverse>(v, lane, warp_total);
  if constexpr (kWarps == 1) {
    block_total = warp_total;
    return excl;
  } else {
    if (lane == 0)
      storage.warp_totals[buffer][warp] = warp_total;
    __syncthreads();
    // Every warp scans the warp totals over the fewest lanes, a power of two,
    // that hold them (8 warps: 3 rounds, not 5; a log-sum-exp round costs an
    // exp); lanes past the last warp hold the identity, which combines
    // exactly, so the reverse order needs no bounds.
    constexpr int kWidth = lanes_holding(kWarps);
    typename M::Value t = lane < kWarps ? storage.warp_totals[buffer][lane] : M::identity();
    buffer ^= 1;
    const typename M::Value totals_incl = warp_inclusive_scan<M, kReverse, kWidth>(t, lane);
    block_total = shfl_idx(totals_incl, kReverse ? 0 : kWidth - 1);
    const typename M::Value totals_excl = warp_exclusive_from_inclusive<M, kReverse, kWidth>(totals_incl, lane);
    return M::combine(shfl_idx(totals_excl, warp), excl);
  }
}

} // namespace scanjit
