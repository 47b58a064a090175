// Row family: the scanned dimension is contiguous in the input, output and
// mask. One block walks one row at a time, tile by tile, carrying the running
// value; reverse rows walk their tiles from the end. Tiles stay aligned to
// the row start so vector accesses line up in both directions.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/grid_pipeline.cuh"
#include "scanjit/tile_agent.cuh"
#include "scanjit/tile_pipeline.cuh"

namespace scanjit {

// Any alignment: each thread loads its items, the next tile's while it
// scans this one. Rows whose input or mask lie off their runs' vector grid
// (odd lengths, pointers an element in) load each warp's run lane by lane
// and hand each thread its items through the warp's shared scratch; outputs
// off the grid (or runs wider than two vectors) leave the same way
// (store_by_warp_run). The case is the row's: every thread's run lies the
// same distance off the grid.
template <class P, class Plan>
__device__ __forceinline__ void row_scan_direct(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                                long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::In In;
  typedef typename P::Out Out;
  typedef PlainMonoid<typename P::Op, Acc> M;
  constexpr int T = Plan::kThreads, I = Plan::kItems;
  constexpr long long L = P::kLength;
  constexpr long long kTile = (long long)T * I;
  constexpr long long kTiles = (L + kTile - 1) / kTile;
  typedef TileAgent<M, Acc, P::kReverse, P::kExclusive, T, I> Agent;
  __shared__ typename Agent::Storage storage;
  __shared__ WarpRunScratch<P, T, I> runs;
  In *in_scratch = runs.in();
  Out *out_scratch = runs.out();
  u8 *warp_mask_scratch = runs.mask();
  Agent agent(storage);
  const bool no_heads[I] = {};

  for (Index line = blockIdx.x; line < Index(lines); line += gridDim.x) {
    const Offsets<Index> o = line_offsets<Index, typename P::Lines>(line);
    bool by_lanes = loads_by_lanes<P, I>(in + o.in, mask + o.mask);
    bool by_warp = store_by_warp_run<P, I>(out + o.out);
    if constexpr (Plan::kLanesOnGrid) // (runs on the grid too: PlannerPolicy's RowPolicy)
      by_lanes = by_warp = true;
    RunningPrefix<M> carry;
    auto tile_first = [&](Index k) { return (P::kReverse ? Index(kTiles) - 1 - k : k) * Index(kTile); };
    // The next tile's loads are issued before this tile's scan and barrier,
    // so memory latency overlaps the scan (register double buffering); a
    // striped run is unstriped only when its tile is scanned.
    auto load_tile = [&](Index k, In (&raw)[I], u8 (&keep)[I]) {
      if (by_lanes) {
        const Index at = tile_first(k) + Index(threadIdx.x & ~31) * I;
        load_striped_warp_run<P, I>(in + o.in + at, mask + o.mask + at, Index(L) - at, raw, keep);
      } else {
        const Index start = tile_first(k) + Index(threadIdx.x) * I;
        load_run<In, I, 1>(in + o.in + start, Index(L) - start, raw);
        if (P::kMask)
          load_run<u8, I, 1>(mask + o.mask + start, Index(L) - start, keep);
      }
    };
    In raw[I];
    u8 keep[I];
    load_tile(0, raw, keep);
    for (Index k = 0; k < Index(kTiles); ++k) {
      In next_raw[I];
      u8 next_keep[I];
      if (k + 1 < Index(kTiles))
        load_tile(k + 1, next_raw, next_keep);
      if (by_lanes) {
        unstripe_warp_run(in_scratch, raw);
        if (P::kMask)
          unstripe_warp_run(warp_mask_scratch, keep);
      }
      Acc x[I];
      lift_run<P, I>(raw, keep, tile_first(k) + Index(threadIdx.x) * I, Index(L), x);
      Acc r[I];
      agent.consume(x, no_heads, r, carry);
      store_converted_tile_run<P, I>(out + o.out, tile_first(k), Index(L), by_warp, out_scratch, r);
#pragma unroll
      for (int j = 0; j < I; ++j) {
        raw[j] = next_raw[j];
        keep[j] = next_keep[j];
      }
    }
  }
}

// 16-byte aligned rows: the block's tiles (all its rows, in order) stream
// through kStages shared-memory stages filled by the bulk copy engine.
// Results go back out through the tile's stage when the output allows it
// (`staged`): the stage is then refilled one tile later, once every thread
// has read it again.
//
// The unit a block walks is a chunk of kChunkRows rows. The row family
// passes 1 (its rows may lie anywhere). The segmented family passes its
// chunks of whole contiguous rows: a chunk is then one flat array of tiles
// scanned with row heads, as in segmented_scan_direct. Its rows need not
// be whole 16-byte words where its chunks are (the planner rounds them):
// then only the tensor's last tile ends inside a word.
template <class Op, class Acc, bool kSegmented> struct ChunkMonoid {
  typedef PlainMonoid<Op, Acc> M;
};
template <class Op, class Acc> struct ChunkMonoid<Op, Acc, true> {
  typedef SegmentedMonoid<Op, Acc> M;
};

template <class P, class Plan, long long kChunkRows>
__device__ __forceinline__ void row_scan_pipelined(const typename P::In *in, const u8 *mask,
                                                   typename P::Out *out, long long rows) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  constexpr bool kSegmented = kChunkRows > 1;
  typedef typename ChunkMonoid<typename P::Op, Acc, kSegmented>::M M;
  constexpr int T = Plan::kThreads, I = Plan::kItems, S = Plan::kStages;
  constexpr long long L = P::kLength;
  constexpr int kTile = T * I;
  const long long chunks = (rows + kChunkRows - 1) / kChunkRows;
  constexpr long long kChunkElems = kChunkRows * L;
  constexpr long long kTiles = (kChunkElems + kTile - 1) / kTile; // per chunk (the last may have fewer)
  // Every tile whole: rows of whole tiles, or a fixed count of whole chunks.
  constexpr bool kFullTiles =
      kChunkElems % kTile == 0 &&
      (kChunkRows == 1 || (!P::Lines::kRuntimeBatch && P::Lines::count(0) % kChunkRows == 0));
  typedef TilePipeline<P, S, kTile, Plan::kEvictFirst, kChunkRows> Pipe;
  Pipe &pipe = dynamic_stages<Pipe, Plan>();
  typedef TileAgent<M, Acc, P::kReverse, P::kExclusive, T, I> Agent;
  __shared__ typename Agent::Storage storage;
  Agent agent(storage);
  // Work item q: tile q % kTiles (in scan order) of the block's chunk q / kTiles.
  const long long chunks_here = blockIdx.x < chunks ? (chunks - 1 - blockIdx.x) / gridDim.x + 1 : 0;
  const long long last_chunk = blockIdx.x + (chunks_here - 1) * gridDim.x;
  const long long last_elems = min(kChunkElems, rows * L - last_chunk * kChunkElems);
  const long long items = chunks_here > 0 ? (chunks_here - 1) * kTiles + (last_elems + kTile - 1) / kTile : 0;
  struct Place {
    Offsets<Index> o;
    Index start; // the tile's first element in its chunk
    int elems;   // the tile's elements (fewer for a chunk's last tile)
  };
  auto place = [&](long long q) {
    const long long chunk = blockIdx.x + (q / kTiles) * gridDim.x;
    const long long n = min(kChunkElems, rows * L - chunk * kChunkElems);
    const long long tiles = (n + kTile - 1) / kTile;
    const long long k = q % kTiles;
    Place p;
    p.o = line_offsets<Index, typename P::Lines>(Index(chunk * kChunkRows));
    p.start = (P::kReverse ? Index(tiles - 1 - k) : Index(k)) * Index(kTile);
    p.elems = int(min((long long)kTile, n - (long long)p.start));
    return p;
  };
  auto issue = [&](long long q) {
    const Place p = place(q);
    pipe.issue(int(q % S), q, in + p.o.in + p.start, mask + p.o.mask + p.start, p.elems);
  };
  constexpr bool staged = Pipe::kCanStageOutput;
  const bool out_on_grid = aligned16(out);
  pipe.init();
  __syncthreads();
  if (threadIdx.x == 0)
    for (long long q = 0; q < S && q < items; ++q)
      issue(q);
  RunningPrefix<M> carry;
  for (long long q = 0; q < items; ++q) {
    const int stage = int(q % S);
    (void)pipe.wait(stage, q / S);
    if (q % kTiles == 0)
      carry.reset();
    const Place p = place(q);
    Acc x[I], r[I];
    pipe.template load_lifted<I, kFullTiles>(stage, int(threadIdx.x) * I, p.elems, x);
    bool heads[I] = {};
    typename M::Value v[I];
    chunk_values<M, kSegmented, P::kReverse, L, I>(x, (p.start + Index(threadIdx.x) * I) % Index(L),
                                                   int(threadIdx.x) * I, p.elems, heads, v);
    pipe.retire_stores();
    // Past the tile's block barrier every thread has read this stage (and,
    // when staged, the previous tile's bulk stores have read its stage).
    agent.consume(v, heads, r, carry, [&] {
      const long long refill = staged ? q - 1 + S : q + S;
      if (threadIdx.x == 0 && refill < items && (!staged || q >= 1))
        issue(refill);
    });
    if constexpr (staged) {
      pipe.store_through_stage(stage, out + p.o.out + p.start, p.elems, out_on_grid, r);
    } else {
      const Index start = p.start + Index(threadIdx.x) * I;
      store_converted<P, I, 1>(out + p.o.out + start, Index(p.elems) - Index(threadIdx.x) * I, r);
    }
  }
  pipe.drain_stores();
}

// A block's walk over its chunks (blockIdx.x, then every gridDim.x-th),
// each tile by tile in scan order. Chunks may have one tile more or less
// than their neighbours (their place on the 16-byte grid differs). Kept
// small (a block holds two: the issuing warp's and the scan's); offsets
// are found again from the chunk when needed.
template <class P, int kTile, long long kChunkRows> struct ChunkWalk {
  typedef typename P::Index Index;
  typedef RowTiles<typename P::In, kTile> Tiles;
  static constexpr long long kChunkElems = kChunkRows * P::kLength;
  long long elems; // of all rows
  Index chunks;
  Index chunk; // `chunks` or past: the walk is over
  int k;       // the tile, in scan order
  int tiles;
  int lead;

  __device__ __forceinline__ ChunkWalk(const typename P::In *in, long long rows)
      : elems(rows * P::kLength), chunks(Index((rows + kChunkRows - 1) / kChunkRows)) {
    open(Index(blockIdx.x), in);
  }
  __device__ __forceinline__ bool done() const { return chunk >= chunks; }
  __device__ __forceinline__ Offsets<Index> offsets() const {
    return line_offsets<Index, typename P::Lines>(chunk * Index(kChunkRows));
  }
  __device__ __forceinline__ Tiles row(const typename P::In *in) const {
    return Tiles(in + offsets().in, min(kChunkElems, elems - (long long)chunk * kChunkElems));
  }
  __device__ __forceinline__ void open(Index c, const typename P::In *in) {
    chunk = c;
    k = 0;
    if (done())
      return;
    const Tiles t = row(in);
    lead = t.lead;
    tiles = int(t.count());
  }
  __device__ __forceinline__ void next(const typename P::In *in) {
    if (++k == tiles)
      open(chunk + Index(gridDim.x), in);
  }
  __device__ __forceinline__ TileSlots slots(const typename P::In *in) const {
    Tiles t = row(in);
    const int m = P::kReverse ? tiles - 1 - k : k;
    return TileSlots{t.first(m), t.lo(m), t.hi(m)};
  }
};

// Rows off the 16-byte grid (edges=1: odd lengths, or strides that move
// rows off it): the same walk through stages, with each chunk's tiles on
// its own 16-byte grid (grid_pipeline.cuh), so every tile is still
// bulk-copied, as the whole words holding it, whatever the chunk's length
// and alignment.
template <class P, class Plan, long long kChunkRows>
__device__ __forceinline__ void row_scan_grid(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                              long long rows) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  constexpr bool kSegmented = kChunkRows > 1;
  typedef typename ChunkMonoid<typename P::Op, Acc, kSegmented>::M M;
  constexpr int T = Plan::kThreads, I = Plan::kItems, S = Plan::kStages;
  constexpr long long L = P::kLength;
  constexpr int kTile = T * I;
  typedef GridPipeline<P, S, kTile, Plan::kEvictFirst> Pipe;
  typedef ChunkWalk<P, kTile, kChunkRows> Walk;
  Pipe &pipe = dynamic_stages<Pipe, Plan>();
  typedef TileAgent<M, Acc, P::kReverse, P::kExclusive, T, I> Agent;
  __shared__ typename Agent::Storage storage;
  Agent agent(storage);
  constexpr bool staged = Pipe::kCanStageOutput;
  const bool issuer = threadIdx.x < 32;
  // Warp 0 issues the walk's tiles ahead of the block's scan.
  Walk ahead(in, rows);
  auto issue = [&](int stage, long long q) {
    const TileSlots t = ahead.slots(in);
    const Offsets<Index> o = ahead.offsets();
    pipe.issue(stage, q, in + o.in + t.first, mask + o.mask + t.first, t);
    ahead.next(in);
  };
  pipe.init(in, mask, rows);
  __syncthreads();
  long long issued = 0;
  if (issuer)
    for (; issued < S && !ahead.done(); ++issued)
      issue(int(issued), issued);
  RunningPrefix<M> carry;
  Walk at(in, rows);
  for (long long q = 0; !at.done(); ++q) {
    const int stage = int(q % S);
    (void)pipe.wait(stage, q / S);
    if (at.k == 0)
      carry.reset();
    const TileSlots t = at.slots(in);
    const int first = int(threadIdx.x) * I;
    Acc x[I], r[I];
    pipe.template load_lifted<I>(stage, first, t, Pipe::mask_shift(mask + at.offsets().mask + t.first), x);
    bool heads[I] = {};
    typename M::Value v[I];
    chunk_values<M, kSegmented, P::kReverse, L, I>(x, place_in_row<L, Index>(t.first + first), first - t.lo,
                                                   t.hi - t.lo, heads, v);
    pipe.retire_stores();
    // Past the tile's block barrier every thread has read this stage (and,
    // when staged, the previous tile's bulk stores have read its stage).
    const int refill = staged ? int((q + S - 1) % S) : stage;
    agent.consume(v, heads, r, carry);
    if (issuer && !ahead.done() && (!staged || q >= 1))
      issue(refill, issued++);
    typename P::Out *out0 = out + at.offsets().out + t.first;
    if constexpr (staged)
      pipe.store_through_stage(stage, out0, t, r);
    else
      store_converted_in<P, I>(out0 + first, t.lo - first, t.hi - first, r);
    at.next(in);
  }
  pipe.drain_stores();
}

template <class P, class Plan>
__device__ __forceinline__ void row_scan(const void *in_, const u8 *mask, void *out_, long long lines) {
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY && Plan::kEdges)
    row_scan_grid<P, Plan, 1>(in, mask, out, lines);
  else if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY)
    row_scan_pipelined<P, Plan, 1>(in, mask, out, lines);
  else
    row_scan_direct<P, Plan>(in, mask, out, lines);
}

} // namespace scanjit
