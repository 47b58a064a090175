// Row look-back family: picks the kernel for the plan (lookback_scan.cuh,
// lookback_lanes.cuh).
#pragma once

#include "scanjit/lookback_lanes.cuh"
#include "scanjit/lookback_scan.cuh"

namespace scanjit {

template <class P, class Plan> struct FixedLookbackTiles {
  static constexpr long long value = lookback_tiles<P, Plan>(P::Lines::count(0));
};

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan(const void *in_, const u8 *mask, void *out_, void *workspace,
                                              long long lines) {
  // (A compiled-in count stays a constant: the lean plan's 40 registers
  // spill when NVVM only learns it after inlining.)
  constexpr bool kFixed = !P::Lines::kRuntimeBatch;
  const long long tiles = kFixed ? FixedLookbackTiles<P, Plan>::value : lookback_tiles<P, Plan>(lines);
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  LookbackWorkspace<typename P::Acc> ws(workspace, tiles);
  __shared__ LookbackShared<P, Plan> sh;
  static_assert(Plan::kStages == 0 || (P::Scan::kIn == 1 && P::Scan::kOut == 1 && (!P::kMask || P::Scan::kMask == 1)),
                "stages hold contiguous rows");
  if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY && Plan::kEdges)
    lookback_scan_grid<P, Plan>(in, mask, out, ws, sh, tiles);
  else if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY)
    lookback_scan_pipelined<P, Plan>(in, mask, out, ws, sh, tiles, bulk_inputs_aligned<P>(in, mask));
  else if constexpr (ScanLanes<P>::value && Plan::kSharedBytes > 0)
    lookback_scan_lanes<P, Plan>(in, mask, out, ws, sh, lines);
  else
    lookback_scan_direct<P, Plan>(in, mask, out, ws, sh, tiles);
}

} // namespace scanjit
