// Look-back over narrow columns: the lines are the kLanes columns of
// contiguous rows of at most 16 bytes (f32[1048576,2] dim=0). A block takes
// a ticket for one tile step of a group of kLanes lines, loads the rows the
// step covers in all of them with coalesced loads into shared memory, totals
// every line's tile and publishes the totals, finds each line's prefix by
// the same look-back as any tile, then scans each line's tile from there
// (its items a stride apart) and stores the rows back coalesced. Each
// sector is read and written once, whole. Narrow columns of a cheap combine
// whose rows lie on the 16-byte grid are scanned packed instead
// (packed_lanes.cuh); this kernel takes log-sum-exp, groups of more than 16
// bytes of accumulators, rows off the grid and launches whose pointers are.
#pragma once

#include "scanjit/lookback_scan.cuh"

namespace scanjit {

// Whether P's lines are narrow columns: the innermost line dim is
// contiguous, of 2 to 16 lines, and the scan steps over exactly its rows in
// every tensor (the planner's scanLanes).
template <class P> struct ScanLanes {
  typedef typename LastDim<typename P::Lines>::type D;
  static constexpr long long kLanes = D::kSize;
  static constexpr bool value = kLanes > 1 && kLanes <= 16 && D::kIn == 1 && D::kOut == 1 &&
                                (!P::kMask || D::kMask == 1) && P::Scan::kIn == kLanes &&
                                P::Scan::kOut == kLanes && (!P::kMask || P::Scan::kMask == kLanes);
};

// A tile step's rows of a group of lines, in memory order. Mirrored by
// lanesSharedBytes() in compiler/Planner.cpp.
template <class P, long long kElems> struct LanesStage {
  alignas(16) typename P::In in[kElems];
  alignas(16) typename P::Out out[kElems];
  alignas(16) u8 mask[P::kMask ? kElems : 16];
};

// Up to this many lines, a step of a cheap combine totals all its lines'
// tiles and publishes them before any look-back (below); more lines, and
// log-sum-exp, take them one by one, each tile scanned and then chained:
// the totals read the stage a second time, with bank conflicts that grow
// with the lines, and log-sum-exp's totals pay a log and an exp a combine
// where its tile scan sums in linear space (H100: f32[8388608,2] 2.76 ->
// 2.40 of copy, [1048576,3] 2.9 -> 2.4; [4194304,4] 3.20 -> 3.31,
// [2097152,8] 4.85 -> 5.78, [1048576,16] 5.8 -> 7.1, log-sum-exp
// f32[4194304,3] 0.202 -> 0.269 ms; BENCHMARKS.md).
constexpr int kTotalsFirstLanes = 3;
template <class P> struct TotalsFirst {
  static constexpr bool value = ScanLanes<P>::kLanes <= kTotalsFirstLanes && CheapCombine<typename P::Op>::value;
};

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_lanes(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                                    LookbackWorkspace<typename P::Acc> &ws,
                                                    LookbackShared<P, Plan> &sh, long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::In In;
  typedef LookbackTilePlace<P, Plan> Place;
  constexpr int T = Plan::kThreads, I = Plan::kItems;
  constexpr int C = int(ScanLanes<P>::kLanes);
  const long long groups = lines / C;
  const long long tickets = groups * Place::kTilesPerRow; // a tile step of a group each
  constexpr int kPerThread = I * C;                               // elements a thread moves
  constexpr int kBatch = kPerThread < 8 ? kPerThread : 8;
  typedef LanesStage<P, Place::kTile * C> Stage;
  Stage &st = dynamic_stages<Stage, Plan>();
  LookbackAgent<P, Plan> agent(sh.storage);
  typedef typename LookbackShared<P, Plan>::M M;
  typedef LookbackWindowOf<P, Plan> Window;
  constexpr int kWarps = T / 32;
  // Totals first: each warp's total of each line's tile, and each line's prefix.
  __shared__ Acc totals[TotalsFirst<P>::value ? kWarps : 1][C];
  __shared__ Acc prefixes[C];
  const RoundRobin<P::Lines::kRuntimeBatch> deal(groups);
  ws.begin_shared(sh.id, sh.tag);
  for (;;) {
    // Tickets go round the groups (every group's step s, then s + 1): a
    // tile's predecessors in its line hold earlier tickets.
    const long long ticket = sh.id;
    if (ticket >= tickets) {
      if (threadIdx.x == 0)
        ws.finish(ticket, tickets);
      return;
    }
    long long group, step;
    deal.deal(ticket, group, step);
    const long long first_id = group * C * Place::kTilesPerRow + step; // lane 0's tile
    const Place at0(first_id);
    const int rows = at0.elems();
    const int n = rows * C;
    const Offsets<Index> o = line_offsets<Index, typename P::Lines>(Index(group * C));
    const Index base_in = o.in + at0.start * Index(C), base_mask = o.mask + at0.start * Index(C);
    // kBatch loads a thread in flight before their stores (more spilled).
#pragma unroll
    for (int k0 = 0; k0 < kPerThread; k0 += kBatch) {
      In v[kBatch];
      u8 m[kBatch];
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        const int e = int(threadIdx.x) + (k0 + k) * T;
        if (k0 + k < kPerThread && e < n) {
          v[k] = in[base_in + e];
          if (P::kMask)
            m[k] = mask[base_mask + e];
        }
      }
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        const int e = int(threadIdx.x) + (k0 + k) * T;
        if (k0 + k < kPerThread && e < n) {
          st.in[e] = v[k];
          if (P::kMask)
            st.mask[e] = m[k];
        }
      }
    }
    __syncthreads();
    // Line c's item j of this thread, lifted, from the stage.
    auto lifted = [&](int c, int j) {
      const int row = int(threadIdx.x) * I + j, e = row * C + c;
      return row < rows && (!P::kMask || st.mask[e] != 0) ? Convert<In>::template load<Acc>(st.in[e])
                                                           : P::Op::identity();
    };
    auto lift_line = [&](int c, Acc (&x)[I]) {
#pragma unroll
      for (int j = 0; j < I; ++j)
        x[j] = lifted(c, j);
    };
    auto store_line = [&](int c, const Acc (&r)[I]) {
#pragma unroll
      for (int j = 0; j < I; ++j) {
        const int row = int(threadIdx.x) * I + j;
        if (row < rows)
          st.out[row * C + c] = Convert<typename P::Out>::store(r[j]);
      }
    };
    if constexpr (!TotalsFirst<P>::value) {
      // Line by line: each tile scanned, then chained by its look-back.
#pragma unroll 1
      for (int c = 0; c < C; ++c) {
        Acc x[I], r[I];
        lift_line(c, x);
        const long long id = first_id + c * Place::kTilesPerRow;
        lookback_tile<P, Plan>(agent, id, Place(id).row_first, x, r, ws, sh, [&] {
          if (c == C - 1)
            sh.id = ws.next();
        });
        store_line(c, r);
      }
    } else {
      // Every thread has read the ticket: the next one's atomic overlaps the step.
      if (threadIdx.x == 0)
        sh.id = ws.next();
      // Every line's tile total first (one block reduction for all of them),
      // each published at once by its own thread: a line's look-back then waits
      // only on its predecessors' loads. (Line by line, a line's aggregate left
      // only after the block's earlier lines had waited for theirs, and those
      // waits chained from block to block.) The fold order is fixed (items,
      // lanes, warps), so results stay bitwise reproducible.
#pragma unroll 1
      for (int c = 0; c < C; ++c) {
        Acc part = M::identity(), warp_total;
#pragma unroll
        for (int j = 0; j < I; ++j)
          part = M::combine(part, lifted(c, j));
        (void)warp_exclusive_scan<M, false>(part, int(threadIdx.x & 31), warp_total);
        if ((threadIdx.x & 31) == 0)
          totals[threadIdx.x >> 5][c] = warp_total;
      }
      __syncthreads();
      auto line_total = [&](int c) {
        Acc t = totals[0][c];
#pragma unroll 1
        for (int w = 1; w < kWarps; ++w)
          t = ChainMonoid<M>::type::combine(t, totals[w][c]);
        return t;
      };
      if (threadIdx.x < C)
        ws.publish(ws.aggregate + first_id + threadIdx.x * Place::kTilesPerRow, line_total(int(threadIdx.x)));
      // Each line's prefix by its look-back, in turn (the prefix reaches every
      // thread through `sh`: a barrier before the next line's reuses it).
#pragma unroll 1
      for (int c = 0; c < C; ++c) {
        const long long id = first_id + c * Place::kTilesPerRow;
        Window window(ws, id, Place(id).row_first, int(threadIdx.x));
        if (threadIdx.x < Window::kReaders)
          window.load();
        const Acc total = threadIdx.x == 0 ? line_total(c) : M::identity(); // (only thread 0 publishes)
        const Acc p = lookback_prefix<P, Plan>(id, window, total, ws, sh);
        if (threadIdx.x == 0)
          prefixes[c] = p;
        __syncthreads();
      }
      // Then each line's tile, scanned from its known prefix.
#pragma unroll 1
      for (int c = 0; c < C; ++c) {
        Acc x[I], r[I];
        lift_line(c, x);
        KnownPrefix<Acc> prefix{prefixes[c]};
        const bool no_heads[I] = {};
        agent.consume(x, no_heads, r, prefix);
        store_line(c, r);
      }
    }
    __syncthreads();
    const Index base_out = o.out + at0.start * Index(C);
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const int e = int(threadIdx.x) + k * T;
      if (e < n)
        out[base_out + e] = st.out[e];
    }
  }
}

} // namespace scanjit
