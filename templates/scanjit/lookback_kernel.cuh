// Row look-back family: picks the kernel for the plan (lookback_scan.cuh,
// lookback_shares.cuh, lookback_lanes.cuh, packed_lanes.cuh).
#pragma once

#include "scanjit/lookback_lanes.cuh"
#include "scanjit/lookback_scan.cuh"
#include "scanjit/lookback_shares.cuh"
#include "scanjit/packed_lanes.cuh"

namespace scanjit {

template <class P, class Plan> struct FixedLookbackTiles {
  static constexpr long long value = lookback_tiles<P, Plan>(P::Lines::count(0));
};

// Narrow columns the planner packed (packed_lanes=C in the plan): one row
// of their rows (packed_lanes.cuh), through the pipelined kernel (edges=1:
// its stages shifted, for pointers off the 16-byte grid), or without
// stages through the register tiles by lane runs (packed_direct).
template <class P, class Plan> struct ScanPacked {
  static constexpr bool value = Plan::kPackedLanes > 1;
  static_assert(!value || (ScanLanes<P>::value && ScanLanes<P>::kLanes == Plan::kPackedLanes &&
                            (Plan::kStages > 0 || (Plan::kLaneRuns && (!P::kMask || Plan::kLanesOnGrid)))),
                "packed lanes are the narrow columns' own, with stages or by lane runs (masked: every run)");
  static_assert(!Plan::kLaneThreads || (value && !Plan::kHeldShares),
                "a thread a lane: packed lanes through the pipelined kernel");
};

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_unpacked(const void *in_, const u8 *mask, void *out_, void *workspace,
                                                       long long lines) {
  // (A compiled-in count stays a constant: the lean plan's 40 registers
  // spill when NVVM only learns it after inlining.)
  constexpr bool kFixed = !P::Lines::kRuntimeBatch;
  const long long tiles = kFixed ? FixedLookbackTiles<P, Plan>::value : lookback_tiles<P, Plan>(lines);
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  LookbackWorkspace<typename P::Acc> ws(workspace, tiles);
  __shared__ LookbackShared<P, Plan> sh;
  static_assert(Plan::kStages == 0 || SpanStaged<P>::value ||
                    (P::Scan::kIn == 1 && P::Scan::kOut == 1 && (!P::kMask || P::Scan::kMask == 1)),
                "stages hold contiguous rows, or the dense spans of lines at a small stride");
  if constexpr (Plan::kHeldShares && Plan::kStages > 0 && SCANJIT_BULK_COPY)
    lookback_scan_held_shares<P, Plan>(in, mask, out, ws, sh, tiles);
  else if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY && SpanStaged<P>::value)
    lookback_scan_pipelined<P, Plan>(in, mask, out, ws, sh, tiles);
  else if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY && Plan::kEdges && Plan::kPackedLanes <= 1)
    lookback_scan_grid<P, Plan>(in, mask, out, ws, sh, tiles);
  else if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY)
    lookback_scan_pipelined<P, Plan>(in, mask, out, ws, sh, tiles);
  else if constexpr (ScanLanes<P>::value && Plan::kSharedBytes > 0)
    lookback_scan_lanes<P, Plan>(in, mask, out, ws, sh, lines);
  else if constexpr (Plan::kRereadShare > 0)
    lookback_scan_reread_shares<P, Plan>(in, mask, out, ws, sh, tiles);
  else
    lookback_scan_direct<P, Plan>(in, mask, out, ws, sh, tiles);
}

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan(const void *in_, const u8 *mask, void *out_, void *workspace,
                                              long long lines) {
  if constexpr (ScanPacked<P, Plan>::value) {
    constexpr int C = int(ScanLanes<P>::kLanes);
    lookback_scan_unpacked<PackedLanes<P, C>, Plan>(in_, mask, out_, workspace, lines / C);
  } else {
    lookback_scan_unpacked<P, Plan>(in_, mask, out_, workspace, lines);
  }
}

// The workspace lookback_scan() uses for `lines` lines: its packed
// problem's tiles where the plan packs lanes, each value as published (in
// padded parts: SlotOf).
template <class P, class Plan> __host__ __device__ constexpr long long lookback_kernel_workspace_bytes(long long lines) {
  if constexpr (ScanPacked<P, Plan>::value) {
    constexpr int C = int(ScanLanes<P>::kLanes);
    typedef PackedLanes<P, C> Q;
    return lookback_workspace_bytes(lookback_tiles<Q, Plan>(lines / C), int(sizeof(SlotOf<typename Q::Acc>)) / 2);
  } else {
    return lookback_workspace_bytes(lookback_tiles<P, Plan>(lines), int(sizeof(typename P::Acc)));
  }
}

} // namespace scanjit
