// Look-back family for few long rows: every tile of every row is its own
// block, chained in one pass by decoupled look-back (after Merrill & Garland
// 2016). A block takes the next tile in launch order from a global counter
// (so all its predecessors are running or done: no deadlock), scans its
// tile, publishes its aggregate, finds its prefix from its predecessors'
// published values, and publishes its inclusive prefix.
//
// Reproducibility: the classic look-back stops at the first inclusive prefix
// it meets, so the association (and float rounding) depends on timing. Here
// the window is fixed: tile i's prefix is always inclusive[i - W] followed by
// the aggregates of tiles i-W+1 .. i-1 (combined by the reading warps in a
// fixed order), so results are bitwise reproducible. The dependency chain between
// inclusive prefixes has one link per W tiles, so a link must be cheap:
// every published value travels with its launch's tag in the same 8-byte
// word (one relaxed store, one relaxed load, no fences; flagged_value.cuh).
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/flagged_value.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/grid_pipeline.cuh"
#include "scanjit/lane_threads.cuh"
#include "scanjit/round_robin.cuh"
#include "scanjit/span_pipeline.cuh"
#include "scanjit/tile_pipeline.cuh"
#include "scanjit/tile_agent.cuh"
#include "scanjit/window_fold.cuh"

namespace scanjit {

// Bytes of workspace for `tiles` tiles of accumulator size `accBytes` (as
// published: a value in padded parts counts its padding,
// lookback_kernel_workspace_bytes in lookback_kernel.cuh): a
// 16-byte tile counter, then each tile's aggregate, then each tile's
// inclusive prefix, as flagged values (the planner computes the same and the
// emitted source asserts it).
__host__ __device__ constexpr long long lookback_workspace_bytes(long long tiles, int accBytes) {
  return 16 + 2 * tiles * 2 * accBytes;
}

// A tile's items: kItems a thread, or with lane threads (lane_threads.cuh)
// kItems elements of one of the packed items' lanes a thread.
template <class Plan> __host__ __device__ constexpr long long lookback_tile_items() {
  return (long long)Plan::kThreads * Plan::kItems / (Plan::kLaneThreads ? Plan::kPackedLanes / Plan::kLaneWidth : 1);
}

// Tiles of all rows: the workspace holds two values for each. With edges
// (lookback_scan_grid), a row's tiles lie on its 16-byte grid, so a row
// has room for one more when its start may lie inside a word (its last
// tile in scan order is then empty; the planner's gridTilesPerRow). Dense
// spans (edges too) are staged wherever their tiles start.
template <class P, class Plan> __host__ __device__ constexpr long long lookback_tiles_per_row() {
  constexpr bool kOnGrid = Plan::kEdges && !SpanStaged<P>::value && Plan::kPackedLanes <= 1;
  return (P::kLength + (kOnGrid ? 16 / (long long)sizeof(typename P::In) - 1 : 0) + lookback_tile_items<Plan>() - 1) /
         lookback_tile_items<Plan>();
}
template <class P, class Plan> __host__ __device__ constexpr long long lookback_tiles(long long lines) {
  return lookback_tiles_per_row<P, Plan>() * lines;
}

// The workspace is zeroed once, when it is allocated; no launch needs a
// memset. Its header holds the tile counter and the number of launches so
// far, whose successor tags every value a launch publishes (never 0), so a
// value an earlier launch left never reads as published. Every block takes
// tickets until it draws one past the last tile, then no more, so a launch
// takes exactly tiles + gridDim.x tickets: the block that draws the last
// one knows every other block is done with the counter, and readies the
// header for the next launch. Tickets are tiles, as if zeroed each launch.
// (Held shares take one ticket a block and count the blocks that end in
// the counter's high word: end_block.)
template <class Acc> struct LookbackWorkspace {
  unsigned long long *counter;
  unsigned *launches;
  typedef SlotOf<Acc> Slot; // (a value in parts: PublishedParts)
  Slot *aggregate;
  Slot *inclusive;
  unsigned tag = 0; // this launch's (every thread, once shared)

  __device__ __forceinline__ LookbackWorkspace(void *base, long long tiles) {
    char *p = static_cast<char *>(base);
    counter = reinterpret_cast<unsigned long long *>(p);
    launches = reinterpret_cast<unsigned *>(p + 8);
    aggregate = reinterpret_cast<Slot *>(p + 16);
    inclusive = aggregate + tiles;
  }
  // Thread 0, before the block's first ticket: the launch's tag. (Acquire:
  // the block's tickets come after it, so the count it reads is never the
  // one the last ticket's block writes.)
  __device__ __forceinline__ void read_tag() {
    unsigned n;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(n) : "l"(launches) : "memory");
    tag = launch_tag(n);
  }
  // Every thread, at the block's start (a block barrier): thread 0 reads
  // the launch's tag and runs `draw` (the block's first tickets, after the
  // tag: read_tag's acquire); every thread then holds the tag, shared
  // through `shared_tag`.
  template <class Draw> __device__ __forceinline__ void begin_with(unsigned &shared_tag, Draw draw) {
    if (threadIdx.x == 0) {
      read_tag();
      draw();
      shared_tag = tag;
    }
    __syncthreads();
    tag = shared_tag;
  }
  // As begin_with, the draw the block's first ticket, which it returns (0
  // but in thread 0).
  __device__ __forceinline__ long long begin(unsigned &shared_tag) {
    long long first = 0;
    begin_with(shared_tag, [&] { first = next(); });
    return first;
  }
  // As begin(), the first ticket shared through `shared_ticket` (for blocks
  // that read their ticket from shared memory at the top of each tile).
  __device__ __forceinline__ void begin_shared(long long &shared_ticket, unsigned &shared_tag) {
    begin_with(shared_tag, [&] { shared_ticket = next(); });
  }
  // Thread 0: the block's next ticket, a tile (past the last: none).
  __device__ __forceinline__ long long next() { return (long long)atomicAdd(counter, 1ULL); }
  // Thread 0, on drawing a ticket past the last tile: the launch's very last
  // ticket resets the counter and counts the launch (twice is harmless).
  __device__ __forceinline__ void finish(long long ticket, long long tiles) const {
    if (ticket == tiles + gridDim.x - 1)
      reset();
  }
  // Thread 0 of a block that takes one ticket (its low word) and no more:
  // at the block's end, it counts the block as ended in the counter's high
  // word, and the grid's last to end resets the header. (A second ticket
  // from the low word would not do: where the grid outnumbers the resident
  // blocks, or another kernel holds some SMs, a block ends before others
  // start, and its second ticket would be one of their shares.)
  __device__ __forceinline__ void end_block() const {
    const unsigned long long seen = atomicAdd(counter, 1ULL << 32);
    if ((seen >> 32) == gridDim.x - 1ULL)
      reset();
  }
  // The low word of a ticket drawn by a block that takes one (end_block).
  __device__ __forceinline__ static long long block_ticket(long long ticket) { return ticket & 0xffffffffLL; }
  __device__ __forceinline__ void publish(Slot *at, Acc v) const { store_published(at, v, tag); }

private:
  // Every block is done with the counter: zero it for the next launch, then
  // count this one (its tag).
  __device__ __forceinline__ void reset() const {
    *reinterpret_cast<volatile unsigned long long *>(counter) = 0;
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(launches), "r"(tag) : "memory");
  }
};

// Where tile `id` lies: its row's offsets and its first element.
template <class P, class Plan> struct LookbackTilePlace {
  typedef typename P::Index Index;
  static constexpr long long kTile = lookback_tile_items<Plan>();
  static constexpr long long kTilesPerRow = lookback_tiles_per_row<P, Plan>(); // (an edges plan's spare tile is empty)
  long long row_first; // the row's first tile, in scan order
  Offsets<Index> o;
  Index start;         // the tile's first element in its row
  __device__ __forceinline__ explicit LookbackTilePlace(long long id) {
    const long long row = id / kTilesPerRow;
    const long long step = id % kTilesPerRow; // 0: the row's first tile in scan order
    row_first = id - step;
    o = line_offsets<Index, typename P::Lines>(Index(row));
    start = (P::kReverse ? Index(kTilesPerRow - 1 - step) : Index(step)) * Index(kTile);
  }
  __device__ __forceinline__ int elems() const {
    if constexpr (P::kLength < 0x7fffffffLL) // (32-bit arithmetic: fewer registers)
      return min(int(kTile), int(P::kLength) - int(start));
    else
      return int(min((long long)kTile, P::kLength - (long long)start));
  }
};

template <class P, class Plan> struct LookbackShared {
  typedef PlainMonoid<typename P::Op, typename P::Acc> M;
  typedef PublishedParts<typename P::Acc> Parts;
  BlockScanStorage<M, Plan::kThreads> storage;
  long long id;
  unsigned tag;                                                     // the launch's (LookbackWorkspace)
  typename P::Acc prefix;                                           // the tile's (one reading warp)
  typename Parts::Part window_totals[Plan::kLookbackWarps];         // one per reading warp (several)
  typename Parts::Part base[Parts::kParts];                         // the window's base, when has_base
  int has_base;
};

// The view of tile `id`'s window held by the first N warps: the window is
// tiles first .. first+W-1 (W = 32 N K, first = id - W + 1), and reader `g`
// (thread g, g < 32 N) holds tiles first + k * 32 N + g, k = 0 .. K-1, so
// each of the K loads of a round is one coalesced run of the readers' words.
// Only the tiles of the tile's row before it count (valid[k]); reader 0
// also reads the base, whose inclusive prefix starts the tile's. load()
// issues every load of a round before any is checked, so a round costs one
// memory latency, and a caller may do other work between load() and
// warp_total(). More warps widen the window without more registers a thread.
//
// A value published in parts (PublishedParts: a group of over 32 bytes of
// packed lanes) gives each part N / kParts warps of its own: the window is
// then W = 32 N K / kParts tiles, and every part's readers read only their
// part (the first of them its base), so each holds what a whole value of
// 32 bytes would take.
template <class M, int K, int N> struct LookbackWindow {
  typedef typename M::Value Acc;
  typedef PublishedParts<Acc> Parts;
  static constexpr int kParts = Parts::kParts;
  typedef typename Parts::Part Part;
  typedef typename PartMonoid<M>::type PM; // (M where whole)
  typedef FlaggedValue<Part> Flagged;
  static_assert(N % kParts == 0, "each part its own reading warps");
  static constexpr int kReaders = 32 * N;
  static constexpr int kPartReaders = kReaders / kParts;
  static constexpr long long W = (long long)kPartReaders * K; // the fixed window, in tiles
  const Flagged *window;
  const Flagged *base; // null when the tile's row starts inside the window
  unsigned valid;      // bit k: the reader's k-th tile is before the tile, in its row
  unsigned tag;        // the launch's
  Flagged seen[K], base_value;

  __device__ __forceinline__ LookbackWindow(const LookbackWorkspace<Acc> &ws, long long id, long long row_first,
                                            int reader) {
    const int part = kParts == 1 ? 0 : reader / kPartReaders, g = kParts == 1 ? reader : reader % kPartReaders;
    const long long base_id = id - W;
    const long long first = base_id + 1 + g;
    window = part_of<Acc>(ws.aggregate + first, part);
    tag = ws.tag;
    // Tags are never 0, so none() never reads as ready: the first round's
    // loads are unconditional, and the compiler issues them as early as
    // a constant tag let it.
    __builtin_assume(tag != 0);
    base = g == 0 && base_id >= row_first ? part_of<Acc>(ws.inclusive + base_id, part) : nullptr;
    valid = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const long long t = first + (long long)k * kPartReaders;
      valid |= (t >= row_first && t < id ? 1u : 0u) << k;
      seen[k] = Flagged::none();
    }
    base_value = Flagged::none();
  }

  // Loads what is not yet seen ready: a round of polling re-reads only the
  // late values, so waiting blocks add little L2 traffic.
  __device__ __forceinline__ void load() {
#pragma unroll
    for (int k = 0; k < K; ++k)
      if ((valid >> k & 1) && !seen[k].ready(tag))
        seen[k] = load_flagged(window + (long long)k * kPartReaders * kParts);
    if (base && !base_value.ready(tag))
      base_value = load_flagged(base);
  }

  __device__ __forceinline__ bool ready() const {
    bool ok = !base || base_value.ready(tag);
#pragma unroll
    for (int k = 0; k < K; ++k)
      ok = ok && (!(valid >> k & 1) || seen[k].ready(tag));
    return ok;
  }

  // Every reader, after load(): polls until its part of the window is
  // complete and returns its warp's total (on every lane). The fold order is
  // fixed (WindowFold; the caller then folds the warps' totals and the
  // base), so results do not depend on timing; the ops commute, so it need
  // not be the tiles' order.
  __device__ __forceinline__ Part warp_total() {
    while (!ready()) {
      __nanosleep(32);
      load();
    }
    Part values[K];
#pragma unroll
    for (int k = 0; k < K; ++k)
      values[k] = seen[k].value();
    return WindowFold<PM>::warp_total(values, valid);
  }

  // The tile's prefix from the reading warps' totals (in warp order: each
  // part's warps in turn) and each part's base; every thread of the block
  // calls it.
  static __device__ __forceinline__ Acc prefix(const Part (&totals)[N], bool has_base, const Part (&bases)[kParts]) {
    if constexpr (kParts == 1) {
      return WindowFold<M>::prefix_across_lanes(totals, has_base, bases[0]);
    } else {
      constexpr int kWarps = N / kParts;
      Acc r;
#pragma unroll
      for (int q = 0; q < kParts; ++q) {
        if constexpr (FoldsLanesInSegments<PM>::value) { // (the part's totals where they lie: shared memory)
          const Part(&t)[kWarps] = *reinterpret_cast<const Part(*)[kWarps]>(&totals[q * kWarps]);
          Parts::put(r, q, WindowFold<PM>::prefix_across_lanes(t, has_base, bases[q]));
        } else {
          Part t[kWarps];
#pragma unroll
          for (int w = 0; w < kWarps; ++w)
            t[w] = totals[q * kWarps + w];
          Parts::put(r, q, WindowFold<PM>::prefix(t, has_base, bases[q]));
        }
      }
      return r;
    }
  }
};

template <class P, class Plan>
using LookbackWindowOf = LookbackWindow<typename LookbackShared<P, Plan>::M, Plan::kLookbackPerLane,
                                        Plan::kLookbackWarps>;

// The look-back's agent: the block's tile rung over LookbackShared's storage.
template <class P, class Plan>
using LookbackAgent = TileAgent<typename LookbackShared<P, Plan>::M, typename P::Acc, P::kReverse, P::kExclusive,
                                Plan::kThreads, Plan::kItems>;

// The prefix of tile `id`, whose window the reading warps have loaded: they
// wait for it, thread 0 publishes the tile's inclusive prefix (the prefix
// and `total`, the tile's combination, which only thread 0 needs), and after
// the block barrier every thread has the prefix. The caller makes sure no
// thread still reads `sh` for an earlier tile's prefix.
template <class P, class Plan>
__device__ __forceinline__ typename P::Acc lookback_prefix(long long id, LookbackWindowOf<P, Plan> &window,
                                                           typename P::Acc total_of_tile,
                                                           LookbackWorkspace<typename P::Acc> &ws,
                                                           LookbackShared<P, Plan> &sh) {
  typedef typename LookbackShared<P, Plan>::M M;
  typedef typename P::Acc Acc;
  typedef LookbackWindowOf<P, Plan> Window;
  constexpr int N = Plan::kLookbackWarps;
  Acc prefix;
  if constexpr (N == 1) {
    // One reading warp: thread 0 publishes before the barrier.
    static_assert(Window::kParts == 1, "a value in parts has a warp a part");
    if (threadIdx.x < 32) {
      const Acc totals[1] = {window.warp_total()};
      if (threadIdx.x == 0) {
        prefix = WindowFold<M>::prefix(totals, window.base != nullptr, window.base_value.value());
        ws.publish(ws.inclusive + id, ChainMonoid<M>::type::combine(prefix, total_of_tile));
        sh.prefix = prefix;
      }
    }
    __syncthreads();
    prefix = sh.prefix;
  } else {
    // Several: their totals meet in shared memory across the block barrier,
    // and every thread combines them in the same order. (A named barrier
    // among the readers would let thread 0 publish before the block barrier,
    // but compute-sanitizer's racecheck reports hazards across it.)
    if (threadIdx.x < Window::kReaders) {
      const typename Window::Part total = window.warp_total();
      if ((threadIdx.x & 31) == 0)
        sh.window_totals[threadIdx.x >> 5] = total;
      if (threadIdx.x == 0)
        sh.has_base = window.base != nullptr;
      // Each part's first reader: its base.
      const int part = Window::kParts == 1 ? 0 : int(threadIdx.x) / Window::kPartReaders;
      if (int(threadIdx.x) == part * Window::kPartReaders)
        sh.base[part] = window.base ? window.base_value.value() : Window::PM::identity();
    }
    __syncthreads();
    prefix = Window::prefix(sh.window_totals, sh.has_base != 0, sh.base);
    if (threadIdx.x == 0)
      ws.publish(ws.inclusive + id, ChainMonoid<M>::type::combine(prefix, total_of_tile));
  }
  return prefix;
}

// The agent's prefix source for a tile found at once (not one tile late):
// thread 0 runs `tile_read` (every thread has passed the tile's block
// barrier: its input has been read) and publishes the tile's aggregate,
// then the window is loaded and waited for.
template <class P, class Plan, class TileRead> struct LookbackPrefix {
  long long id, row_first;
  LookbackWorkspace<typename P::Acc> &ws;
  LookbackShared<P, Plan> &sh;
  TileRead tile_read;

  __device__ __forceinline__ typename P::Acc prefix(const typename LookbackAgent<P, Plan>::State &s) {
    if (threadIdx.x == 0) {
      tile_read();
      ws.publish(ws.aggregate + id, s.total);
    }
    LookbackWindowOf<P, Plan> window(ws, id, row_first, int(threadIdx.x));
    if (threadIdx.x < LookbackWindowOf<P, Plan>::kReaders)
      window.load();
    return lookback_prefix<P, Plan>(id, window, s.total, ws, sh);
  }
};

// Scans tile `id` (its row's first tile `row_first`) whose lifted items are
// in `x` and chains it to the earlier tiles: `r` receives this thread's
// results.
template <class P, class Plan, class TileRead>
__device__ __forceinline__ void lookback_tile(LookbackAgent<P, Plan> &agent, long long id, long long row_first,
                                              typename P::Acc (&x)[Plan::kItems], typename P::Acc (&r)[Plan::kItems],
                                              LookbackWorkspace<typename P::Acc> &ws, LookbackShared<P, Plan> &sh,
                                              TileRead tile_read) {
  LookbackPrefix<P, Plan, TileRead> source{id, row_first, ws, sh, tile_read};
  const bool no_heads[Plan::kItems] = {};
  agent.consume(x, no_heads, r, source);
}

// Look-back tiles of contiguous rows by lanes (Plan::kLaneRuns): where a
// tile's input or mask lies off its runs' vector grid, or always
// (Plan::kLanesOnGrid), each warp's run loads lane by lane and is unstriped
// through the warp's shared scratch (as row_scan_direct's rows); results
// off the grid, or wider than two vectors a thread, leave through it too.
// (Every thread's run lies as far off the grid as the tile's first
// element.) Packed lanes' items (packed_direct) are Lanes, their mask items
// a packed item's bytes: masked ones always go by lanes.
template <class P, class Plan> struct LaneRunTiles {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename MaskItemOf<P>::type MaskItem; // (packed lanes: a packed item's mask bytes)
  typedef LookbackTilePlace<P, Plan> Place;
  static constexpr int I = Plan::kItems;
  static_assert(P::Scan::kIn == 1 && P::Scan::kOut == 1 && (!P::kMask || P::Scan::kMask == 1),
                "lane runs: contiguous rows");
  WarpRunScratch<P, Plan::kThreads, I> &runs;
  const typename P::In *in;
  const u8 *mask;
  typename P::Out *out;

  // Tile `at`'s items, lifted; whether its results leave through the
  // warps' scratch (store's `by_warp`).
  __device__ __forceinline__ bool load(const Place &at, Acc (&x)[I]) const {
    const Index L = Index(P::kLength);
    const MaskItem *masks = reinterpret_cast<const MaskItem *>(mask);
    bool by_lanes = loads_by_lanes<P, I>(in + at.o.in + at.start, reinterpret_cast<const u8 *>(masks + at.o.mask + at.start));
    bool by_warp = store_by_warp_run<P, I>(out + at.o.out + at.start);
    if constexpr (Plan::kLanesOnGrid) // (tiles on the grid too: LookbackPolicy::kLanesOnGrid)
      by_lanes = by_warp = true;
    if (by_lanes) {
      const Index warp_first = at.start + Index(threadIdx.x & ~31) * I;
      load_lifted_warp_run<P, I>(in + at.o.in + warp_first, reinterpret_cast<const u8 *>(masks + at.o.mask + warp_first),
                                 L - warp_first, runs.in(), runs.mask(), x);
    } else if constexpr (sizeof(MaskItem) == 1 || !P::kMask) { // (masked packed items: by lanes, lanes_on_grid)
      const Index start = at.start + Index(threadIdx.x) * I;
      load_lifted<P, I, 1, 1>(in + at.o.in + start, mask + at.o.mask + start, L - start, x);
    }
    return by_warp;
  }
  __device__ __forceinline__ void store(const Place &at, bool by_warp, const Acc (&r)[I]) {
    store_converted_tile_run<P, I>(out + at.o.out, Index(at.start), Index(P::kLength), by_warp, runs.out(), r);
  }

  // f(at, by_warp, x) for tiles first_id .. first_id + count - 1 in turn
  // (x: the tile's items, lifted). Where every run goes by lanes, each
  // tile's loads are issued before the previous tile's items are used (its
  // warp run striped in registers, unstriped when due), so their latency
  // overlaps that tile's work; else each tile loads as it comes.
  template <class F> __device__ __forceinline__ void each(long long first_id, int count, F f) {
    typedef typename P::In In;
    if constexpr (Plan::kLanesOnGrid) {
      const Index L = Index(P::kLength), warp_offset = Index(threadIdx.x & ~31) * I;
      auto issue = [&](long long id, In (&raw)[I], MaskItem (&keep)[I]) {
        const Place at(id);
        const Index warp_first = at.start + warp_offset;
        load_striped_warp_run<P, I>(in + at.o.in + warp_first,
                                    reinterpret_cast<const u8 *>(reinterpret_cast<const MaskItem *>(mask) + at.o.mask +
                                                                 warp_first),
                                    L - warp_first, raw, keep);
      };
      In raw[I];
      MaskItem keep[I];
      if (count > 0)
        issue(first_id, raw, keep);
#pragma unroll 1
      for (int s = 0; s < count; ++s) {
        In next_raw[I];
        MaskItem next_keep[I];
        if (s + 1 < count)
          issue(first_id + s + 1, next_raw, next_keep);
        const Place at(first_id + s);
        Acc x[I];
        lift_striped_warp_run<P, I>(raw, keep, L - (at.start + warp_offset), runs.in(), runs.mask(), x);
        f(at, true, x);
#pragma unroll
        for (int j = 0; j < I; ++j) {
          raw[j] = next_raw[j];
          keep[j] = next_keep[j];
        }
      }
    } else {
#pragma unroll 1
      for (int s = 0; s < count; ++s) {
        const Place at(first_id + s);
        Acc x[I];
        const bool by_warp = load(at, x);
        f(at, by_warp, x);
      }
    }
  }
};

// lookback_scan_direct's tile `at` (number `id`) by lane runs.
template <class P, class Plan>
__device__ __forceinline__ void lookback_tile_by_lanes(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                                       const LookbackTilePlace<P, Plan> &at, long long id,
                                                       LookbackAgent<P, Plan> &agent,
                                                       LookbackWorkspace<typename P::Acc> &ws,
                                                       LookbackShared<P, Plan> &sh) {
  __shared__ WarpRunScratch<P, Plan::kThreads, Plan::kItems> runs;
  LaneRunTiles<P, Plan> tiles{runs, in, mask, out};
  typename P::Acc x[Plan::kItems], r[Plan::kItems];
  const bool by_warp = tiles.load(at, x);
  lookback_tile<P, Plan>(agent, id, at.row_first, x, r, ws, sh, [&] { sh.id = ws.next(); });
  tiles.store(at, by_warp, r);
}

// Tiles in ticket order, loaded by each thread from global memory: any
// alignment, and any stride along the scan (narrow columns: each column a
// line). Thread 0 takes the next ticket once the tile has been read.
template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_direct(const typename P::In *in, const u8 *mask,
                                                     typename P::Out *out, LookbackWorkspace<typename P::Acc> &ws,
                                                     LookbackShared<P, Plan> &sh, long long tiles) {
  typedef typename P::Index Index;
  constexpr int I = Plan::kItems;
  LookbackAgent<P, Plan> agent(sh.storage);
  ws.begin_shared(sh.id, sh.tag);
  typedef typename P::Scan S;
  const RoundRobin<P::Lines::kRuntimeBatch> lines(tiles / LookbackTilePlace<P, Plan>::kTilesPerRow);
  for (;;) {
    const long long ticket = sh.id;
    if (ticket >= tiles) {
      if (threadIdx.x == 0)
        ws.finish(ticket, tiles);
      return;
    }
    // Lines at a stride share their sectors with their neighbours: tickets
    // go round the lines (every line's tile s, then s + 1), so each sector
    // is read and written whole while in L2 (a line at a time, a column's
    // partial writes of f32[4194304,4] were evicted before its neighbours'
    // came: 15x copy). A tile's predecessors in its line still hold earlier
    // tickets.
    constexpr long long kTilesPerRow = LookbackTilePlace<P, Plan>::kTilesPerRow;
    long long id = ticket;
    if (S::kIn != 1) {
      long long line, round;
      lines.deal(ticket, line, round);
      id = line * kTilesPerRow + round;
    }
    const LookbackTilePlace<P, Plan> at(id);
    if constexpr (Plan::kLaneRuns) {
      lookback_tile_by_lanes<P, Plan>(in, mask, out, at, id, agent, ws, sh);
      continue;
    }
    const Index start = at.start + Index(threadIdx.x) * I;
    typename P::Acc x[I], r[I];
    load_lifted<P, I, S::kIn, S::kMask>(in + at.o.in + start * Index(S::kIn), mask + at.o.mask + start * Index(S::kMask),
                                        Index(P::kLength) - start, x);
    lookback_tile<P, Plan>(agent, id, at.row_first, x, r, ws, sh, [&] { sh.id = ws.next(); });
    store_converted<P, I, S::kOut>(out + at.o.out + start * Index(S::kOut), Index(P::kLength) - start, r);
  }
}

// This thread's results of tile `at`, whose input stage `stage` held:
// through the stage where the pipeline can stage its output (kStaged), else
// from registers at the output's stride.
template <class P, class Plan, class Pipe, bool kStaged = Pipe::kCanStageOutput>
__device__ __forceinline__ void lookback_store_tile(Pipe &pipe, int stage, typename P::Out *out,
                                                    const LookbackTilePlace<P, Plan> &at, bool out_on_grid,
                                                    const typename P::Acc (&r)[Plan::kItems]) {
  typedef typename P::Index Index;
  if constexpr (kStaged) {
    pipe.store_through_stage(stage, out + at.o.out + at.start, at.elems(), out_on_grid, r);
  } else {
    const Index start = at.start + Index(threadIdx.x) * Plan::kItems;
    store_converted<P, Plan::kItems, P::Scan::kOut>(out + at.o.out + start * Index(P::Scan::kOut),
                                                    Index(P::kLength) - start, r);
  }
}

// Tiles in ticket order through a ring of shared-memory stages filled by
// the bulk copy engine: thread 0 takes a ticket for a stage one issue
// before it issues its copy, so each block has several tiles in flight.
// Tickets are taken in increasing order and a block scans its tiles in that
// order, so the oldest unfinished tile always belongs to a running block
// that can finish it (a ticket held for the next issue is issued once the
// block's current tile is scanned, which waits only on earlier tiles).
//
// A tile's look-back is finished one tile late: the block scans tile b and
// publishes its aggregate, and only then completes tile a, the one before
// it, whose window loads were issued before b's scan. The loads' latency
// overlaps b's scan, and a's predecessors (taken by other blocks at about
// the time a was) have had a whole tile's time to publish their aggregates,
// so the first round of loads nearly always finds them.
//
// With three stages or more, results leave through the tile's stage as
// whole-sector stores; the stage is refilled once every thread has stored
// from it (the next tile's block barrier).
//
// Lines at a small stride of their own stage their tiles' dense spans
// (span_pipeline.cuh) and store from registers at the output's stride.
template <class P, class Plan>
using LookbackStages =
    typename Select<SpanStaged<P>::value, SpanPipeline<P, Plan::kStages, Plan::kThreads * Plan::kItems, Plan::kEvictFirst>,
                    TilePipeline<P, Plan::kStages, int(lookback_tile_items<Plan>()), Plan::kEvictFirst, 1,
                                 (Plan::kEdges && Plan::kPackedLanes > 1)>>::type;

// The pipelined look-back's tile rung: the look-back's agent over each
// thread's items, loaded from and stored through the stages ...
template <class P, class Plan, bool kLaneThreads = Plan::kLaneThreads> struct PipelinedTiles {
  static constexpr int I = Plan::kItems;
  typedef LookbackAgent<P, Plan> Agent;
  typedef typename P::Acc Item; // what a thread holds of an item
  typedef typename Agent::State State;
  // Tiles finished two tiles late (Plan::kLookbackSlack), or one late where
  // the plan says so (Plan::kRereadTiles), scan their items again from the
  // stage for their results instead of holding them: the registers hold one
  // tile's (the stage keeps its input until the results overwrite it, each
  // thread's on its own items).
  // (Not log-sum-exp: TileAgent::scan_again says so.)
  static constexpr bool kReload = Plan::kLookbackSlack > 1 || Plan::kRereadTiles;
  static_assert(!kReload || (LookbackStages<P, Plan>::kCanStageOutput && sizeof(typename P::In) == sizeof(typename P::Out)),
                "results leave through the stages, each thread's on its own items");
  Agent agent;
  __device__ __forceinline__ explicit PipelinedTiles(LookbackShared<P, Plan> &sh) : agent(sh.storage) {}
  template <class Pipe> __device__ __forceinline__ void load(Pipe &pipe, int s, int valid, Item (&x)[I]) {
    // (Every tile but a line's last is whole: no item checked. The branch
    // is the tile's, so a pipeline's warp-wide loads stay together.)
    if (valid >= int(lookback_tile_items<Plan>()))
      pipe.template load_lifted<I, true>(s, int(threadIdx.x) * I, valid, x);
    else
      pipe.template load_lifted<I>(s, int(threadIdx.x) * I, valid, x);
  }
  __device__ __forceinline__ void scan(const Item (&x)[I], State &st) { agent.scan(x, st); }
  // A tile read again (kReload): its thread scan again from its stage,
  // before its results. The one-late loop runs it before the tile's prefix
  // is looked back for, so that the warps that do not read the window run
  // it while the readers wait (H200, x copy: sum bf16[28053728] 1.28 ->
  // 1.19; BENCHMARKS.md, sixty-second pass).
  template <class Pipe> __device__ __forceinline__ void scan_again(Pipe &pipe, int s, int valid, State &st) {
    if constexpr (kReload) {
      Item x[I];
      load(pipe, s, valid, x);
      agent.scan_again(x, st);
    }
  }
  template <class Pipe>
  __device__ __forceinline__ void results(Pipe &, int, int, const State &st, typename P::Acc prefix, Item (&r)[I]) {
    const bool no_heads[I] = {};
    agent.results(st, prefix, no_heads, r);
  }
  template <class Pipe>
  __device__ __forceinline__ void store(Pipe &pipe, int s, typename P::Out *out, const LookbackTilePlace<P, Plan> &at,
                                        bool out_on_grid, const Item (&r)[I]) {
    lookback_store_tile<P, Plan>(pipe, s, out, at, out_on_grid, r);
  }
};
// ... or a thread a lane of packed items.
template <class P, class Plan> struct PipelinedTiles<P, Plan, true> {
  static constexpr int I = Plan::kItems;
  // Items of over 8 bytes of accumulators a thread are scanned again from
  // the stage (held, 4 lanes of 2-byte elements spilled 56-232 stores; 8
  // bytes held ran 3-4% faster than reloaded: BENCHMARKS.md), which needs
  // their stage unshifted, and each thread's results to land on its own
  // items in the stage, or, for narrower inputs into 8-byte accumulators
  // (widened integer sums: prod i32 x 8 of 31 items spilled 24 stores
  // held), the scan again before the look-back's block barrier, as a wider
  // output lands on other threads' items (kRescanEarly: one tile late;
  // other outputs wider or narrower than the input ran 3-5% faster held,
  // f16 x 16 out=f32, f32 x 16 out=f16: BENCHMARKS.md, eighty-fourth pass).
  typedef LookbackStages<P, Plan> Stages;
  static constexpr bool kSameWidth = sizeof(typename P::In) == sizeof(typename P::Out);
  static constexpr bool kWidened = sizeof(typename P::In) < sizeof(typename P::Out) &&
                                   sizeof(typename P::Unpacked::Acc) == 8;
  static constexpr bool kReload = Stages::kCanStageOutput && !Stages::kShiftedStages &&
                                  (kSameWidth || (kWidened && Plan::kLookbackSlack <= 1)) &&
                                  (Plan::kLaneWidth * sizeof(typename P::Unpacked::Acc) > 8 ||
                                   PublishedParts<typename P::Acc>::kParts > 1);
  static constexpr bool kRescanEarly = kReload && !kSameWidth;
  typedef LaneThreadAgent<P, Plan::kThreads, I, Plan::kLaneWidth, kReload> Agent;
  static_assert(Agent::kTileItems == lookback_tile_items<Plan>(), "the tile the look-back counts");
  typedef typename Agent::Acc Item;
  typedef typename Agent::State State;
  Agent agent;
  Item local[I]; // (kRescanEarly: from scan_again to results)
  Item ref;
  bool linear;
  __device__ __forceinline__ explicit PipelinedTiles(LookbackShared<P, Plan> &sh) : agent(sh.storage) {}
  template <class Pipe> __device__ __forceinline__ void load(Pipe &pipe, int s, int valid, Item (&x)[I]) {
    agent.load(pipe, s, valid, x);
  }
  __device__ __forceinline__ void scan(const Item (&x)[I], State &st) { agent.scan(x, st); }
  // (Before the look-back's block barrier where kRescanEarly, else in results.)
  template <class Pipe> __device__ __forceinline__ void scan_again(Pipe &pipe, int s, int valid, State &st) {
    if constexpr (kRescanEarly)
      agent.rescan(pipe, s, valid, st, local, ref, linear);
  }
  template <class Pipe>
  __device__ __forceinline__ void results(Pipe &pipe, int s, int valid, const State &st, typename P::Acc prefix,
                                          Item (&r)[I]) {
    if constexpr (kRescanEarly) {
      agent.results(st, local, ref, linear, prefix, r);
    } else { // (in locals: members of the tiles lived across tiles, prod i64 x 2 spilled 8 stores)
      Item scanned[I], scanned_ref;
      bool scanned_linear;
      agent.rescan(pipe, s, valid, st, scanned, scanned_ref, scanned_linear);
      agent.results(st, scanned, scanned_ref, scanned_linear, prefix, r);
    }
  }
  template <class Pipe>
  __device__ __forceinline__ void store(Pipe &pipe, int s, typename P::Out *out, const LookbackTilePlace<P, Plan> &at,
                                        bool out_on_grid, const Item (&r)[I]) {
    if constexpr (Pipe::kCanStageOutput)
      agent.store_staged(pipe, s, out + at.o.out + at.start, at.elems(), out_on_grid, r);
    else
      agent.store_direct(out + at.o.out + at.start, at.elems(), r);
  }
};

// lookback_scan_pipelined's tiles with a slack of two (Plan::kLookbackSlack):
// a block holds two scanned tiles, a and a1 after it, and finishes a after
// the next tile's scan. A tile's window loads go out the iteration after
// its scan, and again (those not yet published) the iteration after that,
// before it is finished: its newest predecessors have had two tiles' time
// to publish their aggregates. The tiles' items are scanned again from
// their stages for the results (PipelinedTiles::kReload), which hold their
// input until then: four stages or more, output through them.
template <class P, class Plan, class Pipe, class Tiles, class Issue>
__device__ __forceinline__ void lookback_pipelined_tiles_two_late(Pipe &pipe, Tiles &tiles_, Issue &issue,
                                                                  typename P::Out *out, bool out_on_grid,
                                                                  LookbackWorkspace<typename P::Acc> &ws,
                                                                  LookbackShared<P, Plan> &sh) {
  constexpr int S = Plan::kStages, I = Plan::kItems;
  typedef LookbackWindowOf<P, Plan> Window;
  static_assert(Plan::kLookbackSlack == 2, "a slack of two tiles");
  static_assert(Plan::kLazyStart, "its loop issues the stages past the first (a lazy start)");
  static_assert(Pipe::kCanStageOutput && S >= 4, "two tiles held keep their stages, and one more is in flight");
  long long a = -1, a1 = -1;                  // oldest first (< 0: none)
  typename Tiles::State sa, sa1;
  Window held(ws, -1, 0, int(threadIdx.x));   // a's, its loads out since the last iteration
  bool ended = false;                         // a stage held the end: no more tiles
  for (long long q = 0;; ++q) {
    const int stage = int(q % S);
    if (threadIdx.x == 0 && q + 1 < S) // (a lazy start's stages not issued before the loop)
      issue(int(q + 1));
    const long long b = ended ? -1 : pipe.wait(stage, q / S);
    ended = b < 0;
    if (a >= 0 && threadIdx.x < Window::kReaders)
      held.load();
    Window window(ws, a1, LookbackTilePlace<P, Plan>(a1 < 0 ? 0 : a1).row_first, int(threadIdx.x));
    if (a1 >= 0 && threadIdx.x < Window::kReaders)
      window.load();
    typename Tiles::State sb;
    if (b >= 0) {
      typename Tiles::Item x[I];
      tiles_.load(pipe, stage, LookbackTilePlace<P, Plan>(b).elems(), x);
      pipe.retire_stores();
      tiles_.scan(x, sb);
      // Past the barrier: every thread has read stage b, and the bulk stores
      // of the tile finished last have read its stage, which is refilled.
      // (As lookback_scan_pipelined's one tile late, written again there so
      // that its code stays as it was.)
      if (threadIdx.x == 0) {
        ws.publish(ws.aggregate + b, sb.total);
        if (q >= 3)
          issue(int((q - 3) % S));
      }
    }
    if (a >= 0) {
      // Without a tile b there was no barrier since the last tile's
      // results read sh.prefix: wait for them before overwriting it.
      if (b < 0)
        __syncthreads();
      const LookbackTilePlace<P, Plan> at_a(a);
      typename Tiles::Item r[I];
      const int stage_a = int((q + S - 2) % S);
      // (Tile a's thread scan again after its prefix: before it, the lean
      // f32 plan's 40 registers spilled 16 stores.)
      const typename P::Acc prefix = lookback_prefix<P, Plan>(a, held, sa.total, ws, sh);
      tiles_.scan_again(pipe, stage_a, at_a.elems(), sa);
      tiles_.results(pipe, stage_a, at_a.elems(), sa, prefix, r);
      tiles_.store(pipe, stage_a, out, at_a, out_on_grid, r);
    }
    if (b < 0 && a1 < 0) {
      pipe.drain_stores();
      return;
    }
    a = a1;
    sa = sa1;
    held = window;
    a1 = b;
    sa1 = sb;
  }
}

// A lazy start (Plan::kLazyStart, the planner's lazyStart: where a block
// has more tiles than stages) issues a pipelined block's first stage before
// its tile loop and stage q + 1 at the loop's top past stage q's wait,
// instead of all S at its start: each issue waits for the ticket drawn by
// the one before it, a round trip to the contended counter, and the block's
// first tile waited for S of them (H200, sum f32[16777216]: 1.22 -> 1.09 of
// copy). Only where the stages hold the output (three or more): with two,
// the second is the whole pipeline (sum f32[4194304] strides=[2] measured
// 10% slower issued late, though that spec's kernel moved 6% between two
// builds that did not change it).
// At most four stages (five with a slack of two): tile q refills stage
// q - 2 (q - 3) and fills stage q + 1 for the first time, and with more a
// refill would draw its ticket first, so the block's tiles would leave
// ticket order (LookbackPolicy::kLazyStartMaxStages).
template <class Plan, bool kStagesHoldOutput> struct LazyStart {
  static constexpr bool value = Plan::kLazyStart && kStagesHoldOutput;
  static_assert(!value || Plan::kStages <= (Plan::kLookbackSlack > 1 ? 5 : 4),
                "a lazy start keeps its tiles in ticket order with at most four stages (five two late)");
  static constexpr int kIssuedFirst = value ? 1 : Plan::kStages; // (stages issued before the tile loop)
};

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_pipelined(const typename P::In *in, const u8 *mask,
                                                        typename P::Out *out, LookbackWorkspace<typename P::Acc> &ws,
                                                        LookbackShared<P, Plan> &sh, long long tiles) {
  constexpr int S = Plan::kStages, I = Plan::kItems;
  typedef LookbackStages<P, Plan> Pipe;
  typedef LookbackWindowOf<P, Plan> Window;
  Pipe &pipe = dynamic_stages<Pipe, Plan>();
  constexpr bool staged = Pipe::kCanStageOutput;
  const bool out_on_grid = aligned16(out);
  typedef PipelinedTiles<P, Plan> Tiles;
  Tiles tiles_(sh);
  // Thread 0 takes each ticket one issue ahead: the atomic's round trip
  // overlaps a tile instead of stalling the reading warp before its window.
  // Once it draws a ticket past the last tile it takes no more.
  long long next_ticket = 0;
  auto issue = [&](int stage) {
    const long long id = next_ticket;
    if (id >= tiles) {
      ws.finish(id, tiles); // (seen again at later issues: finish() may repeat)
      pipe.issue_end(stage);
      return;
    }
    next_ticket = ws.next();
    const LookbackTilePlace<P, Plan> at(id);
    const typename Pipe::MaskItem *masks = reinterpret_cast<const typename Pipe::MaskItem *>(mask);
    if constexpr (SpanStaged<P>::value)
      pipe.issue_span(stage, id, in + at.o.in, mask + at.o.mask, at.start, at.elems());
    else
      pipe.issue(stage, id, in + at.o.in + at.start, masks + at.o.mask + at.start, at.elems());
  };
  pipe.init();
  if constexpr (Pipe::kShiftedStages)
    if (threadIdx.x == 0)
      pipe.init_shifted(in, mask, tiles / lookback_tiles_per_row<P, Plan>());
  next_ticket = ws.begin(sh.tag);
  typedef LazyStart<Plan, staged> Lazy;
  if (threadIdx.x == 0) {
    for (int stage = 0; stage < Lazy::kIssuedFirst; ++stage)
      issue(stage);
  }
  if constexpr (Plan::kLookbackSlack > 1) {
    lookback_pipelined_tiles_two_late<P, Plan>(pipe, tiles_, issue, out, out_on_grid, ws, sh);
    return;
  }
  // Tile a: scanned, its look-back not finished (a < 0: none).
  long long a = -1;
  typename Tiles::State sa;
  for (long long q = 0;; ++q) {
    const int stage = int(q % S);
    const long long b = pipe.wait(stage, q / S);
    if constexpr (Lazy::value) // (the stages not issued before the loop)
      if (threadIdx.x == 0 && q + 1 < S)
        issue(int(q + 1));
    const LookbackTilePlace<P, Plan> at_a(a < 0 ? 0 : a);
    Window window(ws, a, at_a.row_first, int(threadIdx.x));
    if (a >= 0 && threadIdx.x < Window::kReaders)
      window.load();
    typename Tiles::State sb;
    if (b >= 0) {
      typename Tiles::Item x[I];
      tiles_.load(pipe, stage, LookbackTilePlace<P, Plan>(b).elems(), x);
      pipe.retire_stores();
      tiles_.scan(x, sb);
      // Past the barrier: every thread has read stage b, and the bulk stores
      // of tile a's predecessor have read its stage.
      if (threadIdx.x == 0) {
        ws.publish(ws.aggregate + b, sb.total);
        if (!staged)
          issue(stage);
        else if (q >= 2)
          issue(int((q - 2) % S));
      }
    }
    if (a >= 0) {
      // Without a tile b there was no barrier since the last tile's
      // results read sh.prefix: wait for them before overwriting it.
      if (b < 0)
        __syncthreads();
      typename Tiles::Item r[I];
      tiles_.scan_again(pipe, int((q + S - 1) % S), at_a.elems(), sa);
      tiles_.results(pipe, int((q + S - 1) % S), at_a.elems(), sa, lookback_prefix<P, Plan>(a, window, sa.total, ws, sh), r);
      tiles_.store(pipe, int((q + S - 1) % S), out, at_a, out_on_grid, r);
    }
    if (b < 0) {
      pipe.drain_stores();
      return;
    }
    a = b;
    sa = sb;
  }
}

// Where tile `id` of an edges plan lies: its row's offsets and its slots
// on the row's 16-byte grid (none for a row's spare last tile).
template <class P, class Plan> struct LookbackGridPlace {
  typedef typename P::Index Index;
  typedef RowTiles<typename P::In, Plan::kThreads * Plan::kItems> Tiles;
  static constexpr long long kTilesPerRow = lookback_tiles_per_row<P, Plan>();
  long long row_first; // the row's first tile, in scan order
  Offsets<Index> o;
  TileSlots t;
  __device__ __forceinline__ LookbackGridPlace(long long id, const typename P::In *in) {
    const long long row = id / kTilesPerRow;
    const long long step = id % kTilesPerRow; // 0: the row's first tile in scan order
    row_first = id - step;
    o = line_offsets<Index, typename P::Lines>(Index(row));
    const Tiles tiles(in + o.in, P::kLength);
    const long long count = tiles.count();
    if (step >= count) {
      t = TileSlots{0, 0, 0};
      return;
    }
    const long long m = P::kReverse ? count - 1 - step : step;
    t = TileSlots{tiles.first(m), tiles.lo(m), tiles.hi(m)};
  }
};

// lookback_scan_pipelined for rows off the 16-byte grid (edges=1): each
// row's tiles lie on its grid (grid_pipeline.cuh) and lane 0 of warp 0
// issues them, as the whole words holding them.
template <class P, class Plan>
__device__ __forceinline__ void lookback_scan_grid(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                                   LookbackWorkspace<typename P::Acc> &ws,
                                                   LookbackShared<P, Plan> &sh, long long tiles) {
  typedef typename P::Acc Acc;
  typedef LookbackGridPlace<P, Plan> Place;
  constexpr int S = Plan::kStages, I = Plan::kItems;
  constexpr int kTile = Plan::kThreads * I;
  typedef GridPipeline<P, S, kTile, Plan::kEvictFirst> Pipe;
  typedef LookbackWindowOf<P, Plan> Window;
  Pipe &pipe = dynamic_stages<Pipe, Plan>();
  constexpr bool staged = Pipe::kCanStageOutput;
  static_assert(!Plan::kRereadTiles || (staged && sizeof(typename P::In) == sizeof(typename P::Out)),
                "tiles read again from their stages: results through them, on each thread's own items");
  const bool issuer = threadIdx.x < 32;
  const int lane = int(threadIdx.x & 31);
  LookbackAgent<P, Plan> agent(sh.storage);
  // Lane 0 takes each ticket one issue ahead (the atomic's round trip
  // overlaps a tile) and hands it to its warp at the next issue.
  long long pending = 0;
  auto issue = [&](int stage) {
    const long long id = __shfl_sync(0xffffffffu, pending, 0);
    if (id >= tiles) {
      if (lane == 0)
        ws.finish(id, tiles); // (seen again at later issues: finish() may repeat)
      pipe.issue_end(stage);
      return;
    }
    if (lane == 0)
      pending = ws.next();
    const Place at(id, in);
    pipe.issue(stage, id, in + at.o.in + at.t.first, mask + at.o.mask + at.t.first, at.t);
  };
  pipe.init(in, mask, tiles / Place::kTilesPerRow);
  pending = ws.begin(sh.tag);
  typedef LazyStart<Plan, staged> Lazy;
  if (issuer)
    for (int stage = 0; stage < Lazy::kIssuedFirst; ++stage)
      issue(stage);
  // Tile a: scanned, its look-back not finished (a < 0: none).
  long long a = -1;
  typename LookbackAgent<P, Plan>::State sa;
  // Where tile a lies: found when it was tile b and kept, but found again
  // by log-sum-exp, whose (max, sum) pairs need the registers (f64 spilled
  // 146 bytes keeping it, 66 not).
  constexpr bool kKeepPlace = !IsPlainLogSumExp<typename LookbackShared<P, Plan>::M>::value;
  Place at_a(0, in);
  for (long long q = 0;; ++q) {
    const int stage = int(q % S);
    const long long b = pipe.wait(stage, q / S);
    if constexpr (Lazy::value) // (the stages not issued before the loop)
      if (issuer && q + 1 < S)
        issue(int(q + 1));
    if constexpr (!kKeepPlace)
      at_a = Place(a < 0 ? 0 : a, in);
    Window window(ws, a, at_a.row_first, int(threadIdx.x));
    if (a >= 0 && threadIdx.x < Window::kReaders)
      window.load();
    typename LookbackAgent<P, Plan>::State sb;
    const Place at_b(b < 0 ? 0 : b, in);
    if (b >= 0) {
      Acc x[I];
      pipe.template load_lifted<I>(stage, int(threadIdx.x) * I, at_b.t,
                                   Pipe::mask_shift(mask + at_b.o.mask + at_b.t.first), x);
      pipe.retire_stores();
      agent.scan(x, sb);
      // Past the barrier: every thread has read stage b, and the bulk stores
      // of tile a's predecessor have read its stage.
      if (threadIdx.x == 0)
        ws.publish(ws.aggregate + b, sb.total);
      if (issuer && (!staged || q >= 2))
        issue(staged ? int((q - 2) % S) : stage);
    }
    if (a >= 0) {
      // Without a tile b there was no barrier since the last tile's
      // results read sh.prefix: wait for them before overwriting it.
      if (b < 0)
        __syncthreads();
      Acc r[I];
      const bool no_heads[I] = {};
      const typename P::Acc prefix = lookback_prefix<P, Plan>(a, window, sa.total, ws, sh);
      if constexpr (Plan::kRereadTiles) {
        // Tile a's items again from its stage, after its prefix (before it,
        // as PipelinedTiles::scan_again, the items spilled: 108 stores in
        // sum bf16[101238612] at 512 x 24).
        Acc x[I];
        pipe.template load_lifted<I>(int((q + S - 1) % S), int(threadIdx.x) * I, at_a.t,
                                     Pipe::mask_shift(mask + at_a.o.mask + at_a.t.first), x);
        agent.scan_again(x, sa);
      }
      agent.results(sa, prefix, no_heads, r);
      typename P::Out *out0 = out + at_a.o.out + at_a.t.first;
      if constexpr (staged) {
        pipe.store_through_stage(int((q + S - 1) % S), out0, at_a.t, r);
      } else {
        const int first = int(threadIdx.x) * I;
        store_converted_in<P, I>(out0 + first, at_a.t.lo - first, at_a.t.hi - first, r);
      }
    }
    if (b < 0) {
      pipe.drain_stores();
      return;
    }
    a = b;
    sa = sb;
    if constexpr (kKeepPlace)
      at_a = at_b;
  }
}

} // namespace scanjit
