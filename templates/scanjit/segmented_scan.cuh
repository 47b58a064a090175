// Segmented family for short contiguous rows: a block takes a chunk of whole
// rows and scans it as one flat array of (value, starts-a-row) pairs, so a
// tile covers many rows and every load is a full vector. Chunks begin on a
// row boundary, so no carry crosses blocks. With stages (sm_90, 16-byte
// aligned rows) the chunks' tiles stream through the row family's pipeline.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/row_scan.cuh"
#include "scanjit/grid_pipeline.cuh"
#include "scanjit/tile_agent.cuh"
#include "scanjit/warp_scan.cuh"
#include "scanjit/warp_span.cuh"

namespace scanjit {

template <class P, class Plan>
__device__ __forceinline__ void segmented_scan_direct(const void *in_, const u8 *mask, void *out_, long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef SegmentedMonoid<typename P::Op, Acc> M;
  constexpr int T = Plan::kThreads, I = Plan::kItems;
  constexpr long long L = P::kLength;
  constexpr long long kChunkRows = Plan::kRowsPerChunk;
  const long long chunks = (lines + kChunkRows - 1) / kChunkRows;
  constexpr long long kTile = (long long)T * I;
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  typedef TileAgent<M, Acc, P::kReverse, P::kExclusive, T, I> Agent;
  __shared__ typename Agent::Storage storage;
  __shared__ alignas(16) typename P::Out scratch[T * I];
  Agent agent(storage);

  // A chunk's tiles lie on its 16-byte grid (RowTiles), whatever the row
  // length: every full run of a thread is one aligned vector.
  for (Index chunk = blockIdx.x; chunk < Index(chunks); chunk += gridDim.x) {
    const Index first = chunk * Index(kChunkRows * L);
    const Index rows = min(Index(kChunkRows), Index(lines) - chunk * Index(kChunkRows));
    const RowTiles<typename P::In, int(kTile)> grid(in + first, (long long)rows * L);
    const Index tiles = Index(grid.count());
    RunningPrefix<M> carry; // (rows start inside tiles: the heads cut it)
    // Every thread's run lies alike on the output's grid: tiles start on the
    // input's (the output element of the chunk's first input word decides).
    const bool by_warp = store_by_warp_run<P, I>(out + first + Index(grid.first(0)));
    for (Index k = 0; k < tiles; ++k) {
      const Index m = P::kReverse ? tiles - 1 - k : k;
      const Index lo = Index(grid.lo(m)), hi = Index(grid.hi(m));
      const Index th = Index(threadIdx.x) * I;
      const Index e = Index(grid.first(m)) + th; // may lie before the chunk (those items are empty)
      const Index start = first + e;
      Acc x[I], r[I];
      load_lifted_in<P, I>(in + start, mask + start, lo - th, hi - th, x);
      typename M::Value v[I];
      bool heads[I];
      with_row_heads<M, P::kReverse, L, I>(x, place_in_row<L, Index>(e), th, hi, heads, v);
      agent.consume(v, heads, r, carry);
      if (by_warp) {
        const Index run = Index(threadIdx.x & ~31) * I; // the warp's first slot
        store_converted_warp_run<P, I>(out + first + Index(grid.first(m)) + run, int(lo - run), int(hi - run),
                                       scratch + run, r);
      } else {
        store_converted_in<P, I>(out + start, lo - th, hi - th, r);
      }
    }
  }
}

// A thread's results in a row held by W lanes (`pos` its lane in the row):
// an inclusive scan of the thread totals over the W lanes, then each lane's
// exclusive prefix (the lane before it in scan order). Log-sum-exp keeps a
// thread's items in linear space and scans the lanes' (max, sum) pairs
// (log_sum_exp_tile.cuh): an exp an item and a log a result, where log
// space cost two of each.
template <class M, bool kReverse, bool kExclusive, int kItems, int W, class Acc>
__device__ __forceinline__ void warp_row_results(const Acc (&x)[kItems], int pos, Acc (&r)[kItems]) {
  if constexpr (IsPlainLogSumExp<M>::value) {
    typedef LsePairMonoid<Acc> Pair;
    Acc local[kItems], ref;
    bool linear;
    const LsePair<Acc> total = lse_thread_scan<M, kReverse, kItems>(x, local, ref, linear);
    const LsePair<Acc> incl = warp_inclusive_scan<Pair, kReverse, W>(total, pos);
    lse_thread_results<M, kReverse, kExclusive, kItems>(
        local, ref, linear, warp_exclusive_from_inclusive<Pair, kReverse, W>(incl, pos), r);
  } else {
    Acc local[kItems];
    const Acc incl = warp_inclusive_scan<M, kReverse, W>(thread_inclusive_scan<M, kReverse, kItems>(x, local), pos);
    const Acc prefix = warp_exclusive_from_inclusive<M, kReverse, W>(incl, pos);
    const bool no_heads[kItems] = {};
    thread_results<M, Acc, kReverse, kExclusive, kItems>(local, prefix, no_heads, r);
  }
}

// The fewest lanes, a power of two, whose kItems each hold a row of L.
template <long long L, int kItems> __device__ constexpr int lanes_holding_a_row() {
  int w = 1;
  while ((long long)w * kItems < L)
    w *= 2;
  return w;
}

// A warp's padded rows of L, several a warp, to `out` (the warp's first
// row's first element) through `scratch`: each lane puts its `valid` items
// at its row's place (row k's elements at slots k x L, ...), so the warp's
// rows are one run of `elems` slots, stored coalesced.
template <class P, int N, long long L>
__device__ __forceinline__ void store_padded_rows(typename P::Out *out, int elems, int k, int pos, long long valid,
                                                  typename P::Out *scratch, const typename P::Acc (&r)[N]) {
  __syncwarp(); // the lanes have read the warp's previous run
  typename P::Out *at = scratch + k * int(L) + pos * N;
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j < valid)
      at[j] = Convert<typename P::Out>::store(r[j]);
  __syncwarp();
  copy_warp_run<P, N>(out, 0, elems, scratch);
}

// Whether a warp's padded rows load lane by lane through its scratch
// (load_lifted_padded_rows) rather than each lane its own items: unmasked
// rows of 4- and 8-byte elements (H200, x copy, own items / by lanes: sum
// f64[65536,300] dim=1 1.07 / 1.00, sum i64[65536,300] 1.08 / 1.02, sum
// f32[77777,333] 0.95 / 0.89). Narrower rows lost (sum bf16[293952,210]
// reverse one element in 1.38 / 1.51, sum f16[86975,295] 1.29 / 1.30), and
// masked ones too (prod f32[23246,500] mask exclusive 1.05 / 1.50, max
// f32[18471,214] mask 1.11 / 1.31).
template <class P> __device__ constexpr bool loads_padded_rows_by_lanes() {
  return sizeof(typename P::In) >= 4 && !P::kMask;
}

// A warp's padded rows (R of L: one run of `elems` slots at `in`, its mask
// at `mask`) loaded lane by lane, striped (each load instruction 32
// consecutive elements), through the warp's scratch: the lane `pos` of
// row k takes slots k L + pos N, ..., `valid` of them, lifted to the
// accumulator (the rest lift to the identity). Each lane's own N items lie
// N elements apart across the lanes, off any vector's grid: N scalar loads
// a lane, each instruction spanning 32 N elements.
template <class P, int N, long long L, class Index>
__device__ __forceinline__ void load_lifted_padded_rows(const typename P::In *in, const u8 *mask, int elems, int k,
                                                        int pos, Index valid, typename P::In *scratch,
                                                        typename MaskItemOf<P>::type *mask_scratch,
                                                        typename P::Acc (&x)[N]) {
  typedef typename P::In In;
  typedef typename MaskItemOf<P>::type MaskItem;
  In raw[N];
  MaskItem keep[N];
  load_striped_warp_run<P, N>(in, mask, Index(elems), raw, keep);
  put_striped_run(scratch, raw);
  if (P::kMask)
    put_striped_run(mask_scratch, keep);
  const int at = k * int(L) + pos * N;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const bool use = Index(j) < valid && (!P::kMask || mask_scratch[at + j] != 0);
    x[j] = use ? Convert<In>::template load<typename P::Acc>(scratch[at + j]) : P::Op::identity();
  }
}

// Rows that a warp scans alone (warp_rows=1 in the plan): rows that tile a
// warp's run (32 x kItems elements) exactly, kItems dividing the row, are
// kItems x W elements held by W consecutive lanes (W a power of two, 32 / W
// rows a warp); other rows of at most 32 x kItems elements (padded rows)
// are held by the fewest lanes W, a power of two, whose items hold them,
// lane p of a row holding its elements [p x kItems, ...), the items past
// the row's end lifting to the identity, so that costly combines
// (log-sum-exp's) need no row heads. A thread scans its items, the W lanes
// of a row scan their totals by shuffles, and no block barrier is needed.
// Shared memory holds a warp's results where they leave through it
// (store_by_warp_run; padded rows always: their ends lie anywhere), padded
// rows of several a warp at their rows' places, so that the warp's rows
// leave as one run; and its inputs where they load by words (the warp's
// rows' span, warp_span.cuh: 1- and 2-byte rows (and their masks), padded or tiling off
// their vectors' grid) or lane by lane (unmasked rows of 4- and 8-byte
// elements, padded or tiling off the grid).
template <class P, class Plan>
__device__ __forceinline__ void segmented_scan_warp_rows(const void *in_, const u8 *mask, void *out_, long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::Op Op;
  typedef PlainMonoid<Op, Acc> M;
  constexpr int T = Plan::kThreads, I = Plan::kItems;
  constexpr long long L = P::kLength;
  constexpr bool kTiles = L % I == 0 && (32LL * I) % L == 0;
  constexpr int W = lanes_holding_a_row<L, I>(); // lanes per row (L / I where rows tile the run)
  constexpr int R = 32 / W; // rows per warp
  static_assert(W >= 1 && W <= 32 && (32 % W) == 0 && L <= 32LL * I, "rows must fit a warp's run");
  const long long runs = (lines + R - 1) / R;
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  const int lane = int(threadIdx.x & 31);
  const int pos = lane % W; // lane within its row, in memory order
  const long long warps = (long long)gridDim.x * (T / 32);
  // Unmasked tiling rows whose runs lie off their vectors' grid load lane by
  // lane (every run alike: sum f16[65536,256] dim=1 one element in 1.35 ->
  // 1.14); masked ones keep their own loads (max f32[65536,256] dim=1 mask
  // reverse one element in 0.94 own / 1.08 by lanes), as masked padded rows
  // do, so no mask run needs the scratch.
  // 1- and 2-byte rows load by words instead, with their masks (loads_warp_rows_by_words):
  // padded ones always, tiling ones where their runs lie off the grid.
  constexpr bool kByWords = loads_warp_rows_by_words<P, I, kTiles>();
  constexpr bool kMayLoadByLanes = !kByWords && (kTiles ? !P::kMask : loads_padded_rows_by_lanes<P>());
  __shared__ WarpRunScratch<P, T, I, false> scratch;
  __shared__ WarpSpanScratch<P, T, kByWords ? I : 0, P::kMask && kByWords> spans;
  const bool by_warp = !kTiles || store_by_warp_run<P, I>(out); // (tiling rows: every run alike)
  const bool off_grid = !kTiles || loads_by_lanes<P, I>(in, mask);
  const bool by_lanes = kMayLoadByLanes && off_grid;
  // Padded rows of a whole warp whose lanes' runs are whole 16-byte words
  // on their grid (each row's start too) load their own vectors: from the
  // span, a lane's scalar reads 32 bytes apart met in 8 banks (H200, x
  // copy, by words / own: sum f16[100000,480] dim=1 1.54 / 0.96, sum
  // bf16[100000,504] reverse 1.55 / 0.95). Two rows a warp kept the words
  // (f16[100000,248]: 1.43 / 1.34 on the grid, but 1.39 / 1.59 two elements
  // in, the two loads taking 70 registers, not 48).
  constexpr bool kLaneRunsOfWords =
      !kTiles && R == 1 && (I * sizeof(typename P::In)) % 16 == 0 && (L * sizeof(typename P::In)) % 16 == 0;
  const bool lane_runs_on_grid = kLaneRunsOfWords && aligned16(in);
  const bool by_words = kByWords && off_grid && !lane_runs_on_grid;
  // Runs, rows and their offsets in the plan's index type, which holds twice
  // the tensor's extent (a run past the last stays in range): in 64 bits,
  // each warp's run took a dozen more instructions of address arithmetic
  // beside a lane's 7-26 items (BENCHMARKS.md, eighty-ninth pass).
  const Index all_rows = Index(lines);
  for (Index run = Index(blockIdx.x) * Index(T / 32) + Index(threadIdx.x >> 5); run < Index(runs);
       run += Index(warps)) {
    const Index row = run * Index(R) + Index(lane / W);
    const Index start = row * Index(L) + Index(pos) * Index(I);
    const Index valid = row < all_rows ? Index(L) - Index(pos) * I : Index(0); // (<= 0 past the row's end)
    const Index warp_first = run * Index(R * L);
    const int warp_elems = int(min(Index(R * L), (all_rows - run * Index(R)) * Index(L)));
    Acc x[I], r[I];
    if (!by_words && !by_lanes)
      load_lifted<P, I, 1, 1>(in + start, mask + start, valid, x);
    else if constexpr (kByWords)
      load_lifted_warp_span<P, I, L>(in + warp_first, mask + warp_first, warp_elems, lane / W, pos, valid,
                                     spans.in[threadIdx.x / 32], spans.mask(), x);
    else if constexpr (!kMayLoadByLanes)
      __builtin_unreachable(); // (neither by words nor by lanes)
    else if constexpr (kTiles)
      load_lifted_warp_run<P, I>(in + warp_first, mask + warp_first, Index(warp_elems), scratch.in(), scratch.mask(),
                                 x);
    else
      load_lifted_padded_rows<P, I, L>(in + warp_first, mask + warp_first, warp_elems, lane / W, pos, valid,
                                       scratch.in(), scratch.mask(), x);
    warp_row_results<M, P::kReverse, P::kExclusive, I, W>(x, pos, r);
    typename P::Out *warp_scratch = scratch.out();
    if constexpr (!kTiles && R > 1) {
      store_padded_rows<P, I, L>(out + warp_first, warp_elems, lane / W, pos, valid, warp_scratch, r);
    } else {
      if (by_warp)
        store_converted_warp_run<P, I>(out + warp_first, 0, warp_elems, warp_scratch, r);
      else
        store_converted<P, I, 1>(out + start, valid, r);
    }
  }
}

template <class P, class Plan>
__device__ __forceinline__ void segmented_scan(const void *in_, const u8 *mask, void *out_, long long lines) {
  if constexpr (Plan::kWarpRows) {
    segmented_scan_warp_rows<P, Plan>(in_, mask, out_, lines);
  } else if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY && Plan::kEdges) {
    row_scan_grid<P, Plan, Plan::kRowsPerChunk>(static_cast<const typename P::In *>(in_), mask,
                                                static_cast<typename P::Out *>(out_), lines);
  } else if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY) {
    const typename P::In *in = static_cast<const typename P::In *>(in_);
    row_scan_pipelined<P, Plan, Plan::kRowsPerChunk>(in, mask, static_cast<typename P::Out *>(out_), lines);
  } else {
    segmented_scan_direct<P, Plan>(in_, mask, out_, lines);
  }
}

} // namespace scanjit
