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
// each through its stage. Rows off the 16-byte grid (edges plans) hold
// tiles on the input's grid (HeldStages).
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

// A held kernel's stages and where its tiles lie: on the row's own start
// (TilePipeline), or, for rows off the 16-byte grid (edges plans), on the
// input's grid, each tile copied as the whole words holding it
// (GridPipeline). Tile `id` < 0 is none.
template <class P, class Plan, bool kEdges = Plan::kEdges> struct HeldStages {
  typedef LookbackTilePlace<P, Plan> Place;
  typedef TilePipeline<P, Plan::kStages, Plan::kThreads * Plan::kItems, Plan::kEvictFirst> Pipe;
  Pipe &pipe;
  const typename P::In *in;
  const u8 *mask;
  typename P::Out *out;
  bool out_on_grid;
  __device__ __forceinline__ HeldStages(const typename P::In *in_, const u8 *mask_, typename P::Out *out_)
      : pipe(dynamic_stages<Pipe, Plan>()), in(in_), mask(mask_), out(out_), out_on_grid(aligned16(out_)) {}
  // Every thread; a block barrier must follow.
  __device__ __forceinline__ void init(long long) { pipe.init(); }
  // Every lane of warp 0 (thread 0 issues).
  __device__ __forceinline__ void issue(int s, long long id) {
    if (threadIdx.x != 0)
      return;
    if (id < 0) {
      pipe.issue_end(s);
      return;
    }
    const Place at(id);
    pipe.issue(s, id, in + at.o.in + at.start,
               reinterpret_cast<const typename Pipe::MaskItem *>(mask) + at.o.mask + at.start, at.elems());
  }
  __device__ __forceinline__ void load(int s, long long id, typename P::Acc (&x)[Plan::kItems]) const {
    pipe.template load_lifted<Plan::kItems>(s, int(threadIdx.x) * Plan::kItems, Place(id).elems(), x);
  }
  __device__ __forceinline__ void store(int s, long long id, const typename P::Acc (&r)[Plan::kItems]) {
    lookback_store_tile<P, Plan, Pipe, Pipe::kOutputFitsStages>(pipe, s, out, Place(id), out_on_grid, r);
  }
};

template <class P, class Plan> struct HeldStages<P, Plan, true> {
  typedef LookbackGridPlace<P, Plan> Place;
  typedef GridPipeline<P, Plan::kStages, Plan::kThreads * Plan::kItems, Plan::kEvictFirst> Pipe;
  static constexpr int I = Plan::kItems;
  Pipe &pipe;
  const typename P::In *in;
  const u8 *mask;
  typename P::Out *out;
  __device__ __forceinline__ HeldStages(const typename P::In *in_, const u8 *mask_, typename P::Out *out_)
      : pipe(dynamic_stages<Pipe, Plan>()), in(in_), mask(mask_), out(out_) {}
  // Every thread; a block barrier must follow.
  __device__ __forceinline__ void init(long long tiles) { pipe.init(in, mask, tiles / Place::kTilesPerRow); }
  // Every lane of warp 0 (lane 0 issues).
  __device__ __forceinline__ void issue(int s, long long id) {
    if (id < 0) {
      pipe.issue_end(s);
      return;
    }
    const Place at(id, in);
    pipe.issue(s, id, in + at.o.in + at.t.first, mask + at.o.mask + at.t.first, at.t);
  }
  __device__ __forceinline__ void load(int s, long long id, typename P::Acc (&x)[I]) const {
    const Place at(id, in);
    pipe.template load_lifted<I>(s, int(threadIdx.x) * I, at.t, Pipe::mask_shift(mask + at.o.mask + at.t.first), x);
  }
  __device__ __forceinline__ void store(int s, long long id, const typename P::Acc (&r)[I]) {
    const Place at(id, in);
    pipe.store_through_stage(s, out + at.o.out + at.t.first, at.t, r);
  }
};

// A share's prefix (held and re-read shares): the block's total of `mine`,
// each thread's, published as share `share`'s aggregate, and the look-back
// over the totals of the shares from `first_share` (its row's first) on.
template <class P, class Plan>
__device__ __forceinline__ typename P::Acc share_prefix(typename P::Acc mine, long long share, long long first_share,
                                                        LookbackWorkspace<typename P::Acc> &ws,
                                                        LookbackShared<P, Plan> &sh) {
  typedef typename LookbackShared<P, Plan>::M M;
  typedef LookbackWindowOf<P, Plan> Window;
  int buffer = 0;
  typename P::Acc total;
  block_exclusive_scan<M, false, Plan::kThreads>(mine, sh.storage, buffer, total);
  if (threadIdx.x == 0)
    ws.publish(ws.aggregate + share, total);
  Window window(ws, share, first_share, int(threadIdx.x));
  if (threadIdx.x < Window::kReaders)
    window.load();
  return lookback_prefix<P, Plan>(share, window, total, ws, sh);
}

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_held_shares(const typename P::In *in, const u8 *mask,
                                                          typename P::Out *out, LookbackWorkspace<typename P::Acc> &ws,
                                                          LookbackShared<P, Plan> &sh, long long tiles) {
  typedef typename P::Acc Acc;
  typedef typename LookbackShared<P, Plan>::M M;
  typedef HeldStages<P, Plan> Stages;
  constexpr int S = Plan::kStages, I = Plan::kItems;
  constexpr long long kTilesPerRow = Stages::Place::kTilesPerRow;
  static_assert(!IsPlainLogSumExp<M>::value, "log-sum-exp keeps the tile-by-tile look-back");
  constexpr long long kSharesPerRow = (kTilesPerRow + S - 1) / S;
  Stages stages(in, mask, out);
  stages.init(tiles);
  ws.begin_shared(sh.id, sh.tag); // (its block barrier follows the stages' init)
  const long long share = LookbackWorkspace<Acc>::block_ticket(sh.id);
  const long long row = share / kSharesPerRow, first_share = row * kSharesPerRow;
  const long long step = (share - first_share) * S; // the share's first tile in its row
  if (threadIdx.x < 32)
    for (int s = 0; s < S; ++s) {
      const long long id = row * kTilesPerRow + step + s;
      stages.issue(s, step + s < kTilesPerRow && id < tiles ? id : -1); // (the grid is the rows' shares)
    }

  // The share's total, tile by tile as the copies land.
  Acc mine = M::identity();
#pragma unroll 1
  for (int s = 0; s < S; ++s) {
    const long long id = stages.pipe.wait(s, 0);
    if (id < 0)
      break;
    Acc x[I];
    stages.load(s, id, x);
#pragma unroll
    for (int j = 0; j < I; ++j)
      mine = M::combine(mine, x[j]);
  }
  RunningPrefix<M> source;
  source.carry = share_prefix<P, Plan>(mine, share, first_share, ws, sh);

  // The scan, tile by tile from the stages; each tile's results leave
  // through its own stage once its block barrier has passed (no stage is
  // refilled).
  LookbackAgent<P, Plan> agent(sh.storage);
#pragma unroll 1
  for (int s = 0; s < S; ++s) {
    const long long id = stages.pipe.wait(s, 0);
    if (id < 0)
      break;
    Acc x[I], r[I];
    stages.load(s, id, x);
    const bool no_heads[I] = {};
    agent.consume(x, no_heads, r, source);
    stages.store(s, id, r);
  }
  stages.pipe.drain_stores();
  // The grid's last block to end resets the counter for the next launch.
  if (threadIdx.x == 0)
    ws.end_block();
}

// Re-read shares (reread_share=S in the plan): held shares for archs
// without stages (look-back tiles by lane runs, LaneRunTiles). Block b
// takes the b-th share of S consecutive tiles of a row, reads them for
// their total, publishes it, takes its prefix from the totals of every
// share before it in its row (the window reaches them all), then reads its
// tiles again and scans them, carrying from tile to tile. The second read
// finds the share in L2 where the input fits it: one look-back a block,
// instead of one a tile on every tile's path.
template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_reread_shares(const typename P::In *in, const u8 *mask,
                                                            typename P::Out *out,
                                                            LookbackWorkspace<typename P::Acc> &ws,
                                                            LookbackShared<P, Plan> &sh, long long tiles) {
  typedef typename P::Acc Acc;
  typedef typename LookbackShared<P, Plan>::M M;
  typedef LaneRunTiles<P, Plan> Tiles;
  typedef typename Tiles::Place Place;
  constexpr int S = Plan::kRereadShare, I = Plan::kItems, T = Plan::kThreads;
  constexpr long long kTilesPerRow = Place::kTilesPerRow;
  constexpr long long kSharesPerRow = (kTilesPerRow + S - 1) / S;
  static_assert(!IsPlainLogSumExp<M>::value, "log-sum-exp keeps the tile-by-tile look-back");
  __shared__ WarpRunScratch<P, T, I> runs;
  Tiles lane_tiles{runs, in, mask, out};
  ws.begin_shared(sh.id, sh.tag);
  const long long share = LookbackWorkspace<Acc>::block_ticket(sh.id);
  const long long row = share / kSharesPerRow, first_share = row * kSharesPerRow;
  const long long step = (share - first_share) * S; // the share's first tile in its row
  const int count = int(min((long long)S, kTilesPerRow - step)); // (the grid is the rows' shares)
  const long long first_id = row * kTilesPerRow + step;

  // The share's total: each thread's items tile after tile, then the block's.
  Acc mine = M::identity();
  lane_tiles.each(first_id, count, [&](const Place &, bool, Acc(&x)[I]) {
#pragma unroll
    for (int j = 0; j < I; ++j)
      mine = M::combine(mine, x[j]);
  });
  RunningPrefix<M> source;
  source.carry = share_prefix<P, Plan>(mine, share, first_share, ws, sh);

  // The scan, read again tile by tile.
  LookbackAgent<P, Plan> agent(sh.storage);
  lane_tiles.each(first_id, count, [&](const Place &at, bool by_warp, Acc(&x)[I]) {
    Acc r[I];
    const bool no_heads[I] = {};
    agent.consume(x, no_heads, r, source);
    lane_tiles.store(at, by_warp, r);
  });
  // The grid's last block to end resets the counter for the next launch.
  if (threadIdx.x == 0)
    ws.end_block();
}

} // namespace scanjit
