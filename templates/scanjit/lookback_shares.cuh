// Held shares (held_shares=1 in the plan): a middle-sized scan of a few
// contiguous rows whose tiles all fit the SMs' shared memory at once. Each
// row's tiles are cut into shares of kStages consecutive tiles (the last
// may be shorter); block b takes the b-th share (its ticket, row-major) and
// bulk-copies all of its tiles into its stages at its start. It totals the
// share as the copies land, publishes the total, and takes its prefix from
// the totals of every block before it in its row: the window reaches them
// all (the planner sizes it to a row's shares), so no block waits on a
// chain of inclusive prefixes, only on its predecessors' copies. It then
// scans its tiles from the stages, carrying from tile to tile, and stores
// each through its stage.
//
// One look-back a block, instead of one a tile on the path of every tile:
// f32[4194304] is 1024 tiles, and its tile-by-tile look-back ran 1.53x copy
// (H100, BENCHMARKS.md).
//
// Reproducibility: a share's total combines each thread's items (tile
// after tile), then the threads' totals, in a fixed order; the prefix folds
// the window in a fixed order (LookbackWindow). Results do not depend on
// timing.
#pragma once

#include "scanjit/lookback_scan.cuh"

namespace scanjit {

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_held_shares(const typename P::In *in, const u8 *mask,
                                                          typename P::Out *out, LookbackWorkspace<typename P::Acc> &ws,
                                                          LookbackShared<P, Plan> &sh, long long tiles) {
  typedef typename P::Acc Acc;
  typedef typename LookbackShared<P, Plan>::M M;
  typedef LookbackTilePlace<P, Plan> Place;
  constexpr int S = Plan::kStages, I = Plan::kItems, T = Plan::kThreads;
  typedef TilePipeline<P, S, T * I, Plan::kEvictFirst> Pipe;
  typedef LookbackWindowOf<P, Plan> Window;
  static_assert(!IsPlainLogSumExp<M>::value, "log-sum-exp keeps the tile-by-tile look-back");
  constexpr long long kSharesPerRow = (Place::kTilesPerRow + S - 1) / S;
  Pipe &pipe = dynamic_stages<Pipe, Plan>();
  pipe.init();
  ws.begin_shared(sh.id, sh.tag); // (its block barrier follows the stages' init)
  const long long share = LookbackWorkspace<Acc>::block_ticket(sh.id);
  const long long row = share / kSharesPerRow, first_share = row * kSharesPerRow;
  const long long step = (share - first_share) * S; // the share's first tile in its row
  if (threadIdx.x == 0) {
    const typename Pipe::MaskItem *masks = reinterpret_cast<const typename Pipe::MaskItem *>(mask);
    for (int s = 0; s < S; ++s) {
      const long long id = row * Place::kTilesPerRow + step + s;
      if (step + s < Place::kTilesPerRow && id < tiles) { // (the grid is the rows' shares)
        const Place at(id);
        pipe.issue(s, id, in + at.o.in + at.start, masks + at.o.mask + at.start, at.elems());
      } else {
        pipe.issue_end(s);
      }
    }
  }

  // The share's total, tile by tile as the copies land.
  Acc mine = M::identity();
#pragma unroll 1
  for (int s = 0; s < S; ++s) {
    const long long id = pipe.wait(s, 0);
    if (id < 0)
      break;
    Acc x[I];
    pipe.template load_lifted<I>(s, int(threadIdx.x) * I, Place(id).elems(), x);
#pragma unroll
    for (int j = 0; j < I; ++j)
      mine = M::combine(mine, x[j]);
  }
  int buffer = 0;
  Acc total;
  block_exclusive_scan<M, false, T>(mine, sh.storage, buffer, total);
  if (threadIdx.x == 0)
    ws.publish(ws.aggregate + share, total);
  Window window(ws, share, first_share, int(threadIdx.x));
  if (threadIdx.x < Window::kReaders)
    window.load();
  RunningPrefix<M> source;
  source.carry = lookback_prefix<P, Plan>(share, window, total, ws, sh);

  // The scan, tile by tile from the stages; each tile's results leave
  // through its own stage once its block barrier has passed (no stage is
  // refilled).
  LookbackAgent<P, Plan> agent(sh.storage);
  const bool out_on_grid = aligned16(out);
#pragma unroll 1
  for (int s = 0; s < S; ++s) {
    const long long id = pipe.wait(s, 0);
    if (id < 0)
      break;
    const Place at(id);
    Acc x[I], r[I];
    pipe.template load_lifted<I>(s, int(threadIdx.x) * I, at.elems(), x);
    const bool no_heads[I] = {};
    agent.consume(x, no_heads, r, source);
    lookback_store_tile<P, Plan>(pipe, s, out, at, out_on_grid, r);
  }
  pipe.drain_stores();
  // The grid's last block to end resets the counter for the next launch.
  if (threadIdx.x == 0)
    ws.end_block();
}

} // namespace scanjit
