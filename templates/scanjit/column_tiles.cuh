// Column family, tall panels of few columns (sm_90): rows of the input (and
// mask) are contiguous, so kRowsPerChunk whole rows of every column are one
// contiguous run, and a tile is that run, brought by one bulk copy at any
// alignment (copy_run_as_words). The column pipeline instead copied each
// row of its panel apart (an 80-byte copy a row of f32[4194304,20]) and
// chained pieces by a window of 8: 2.3-4.6x copy (BENCHMARKS.md).
//
// A block takes tiles in ticket order (a stage ring prefetches the next),
// and threads split each tile as (column c, slice g of kRowsPerChunk /
// kGroups rows): each totals its slice from the stage, a warp scans each
// of its columns' slice totals into the tile's aggregate of the column,
// which is published a tile ahead, and each slice's total of the slices
// before it; every column's prefix is found by a look-back over a fixed
// window of W tiles, a warp reading its columns' windows (the workspace and
// fold of lookback_scan.cuh; bitwise reproducible); each slice then scans
// from the prefix and the slices before it, and stores its results
// straight from registers (a warp's stores cover whole rows of the tile).
//
// With span totals (`piece_spans=1`, Plan::kPieceSpans) a column's window
// reads 24 values, not 32 x kLookbackPerLane: the inclusive prefix of tile
// id - 129, the span totals of tiles id - 121, id - 113, ..., id - 9 (each
// the aggregates of the 8 tiles up to its own, within its line), then the
// aggregates of tiles id - 8 .. id - 1, folded in that order (bitwise
// reproducible). A tile publishes its span total once the 7 aggregates
// before it are in (they were published a tile ahead), before it waits on
// other tiles' spans, so no window waits on a tile's own prefix but the
// base's, 129 tiles back. Tuned only: as is, it ran 1.2-2.0x the window of
// 128 tiles (H200, BENCHMARKS.md, seventy-first pass). With one block an
// SM, the tiles a window's spans end at are in flight with it, so each
// tile waits on spans published in its own round (a round trip and more a
// tile of 3-4 us). Aggregates published two tiles ahead (a fourth stage)
// would let a tile publish its next one's span a round before it is read.
#pragma once

#include "scanjit/bulk_copy.cuh"
#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/lookback_scan.cuh"
#include "scanjit/monoid.cuh"
#include "scanjit/tile_pipeline.cuh"
#include "scanjit/warp_scan.cuh"

namespace scanjit {

template <class P, class Plan> struct ColumnTiles {
  static constexpr long long kColumns = P::Inner::kSize;
  static constexpr long long kRows = Plan::kRowsPerChunk;
  static constexpr long long kTilesPerLine = (P::kLength + kRows - 1) / kRows;
  static constexpr long long kSlice = (kRows + Plan::kGroups - 1) / Plan::kGroups; // rows a thread scans
  static constexpr int kWarps = Plan::kThreads / 32;
  static constexpr int kColumnsPerWarp = int((kColumns + kWarps - 1) / kWarps); // look-back windows a warp reads
  // Span totals (Plan::kPieceSpans): a span's tiles, the spans a window
  // reads, and the window, in tiles (the base's distance).
  static constexpr int kSpan = 8, kSpanCount = 15, kSpanWindow = kSpan * (kSpanCount + 1) + 1;
  static constexpr int W = Plan::kPieceSpans ? kSpanWindow : 32 * Plan::kLookbackPerLane; // a column's window, in tiles
  static_assert(!Plan::kPieceSpans || (Plan::kLookbackPerLane == 1 && kSpanCount + kSpan <= 32),
                "a value a lane of the window");
};

// Mirrors columnTilesSharedBytes() in compiler/ColumnPlanner.cpp: a tile's run,
// up to 15 bytes into its first word and its last word whole (32 bytes of
// room), per stage.
template <class P, class Plan> struct ColumnTilesShared {
  typedef ColumnTiles<P, Plan> Tiles;
  static constexpr long long kElems = Tiles::kRows * Tiles::kColumns;
  static constexpr int kInBytes = int((kElems * sizeof(typename P::In) + 32 + 15) / 16 * 16);
  static constexpr int kMaskBytes = P::kMask ? int((kElems + 32 + 15) / 16 * 16) : 16;
  alignas(128) unsigned char in[Plan::kStages][kInBytes];
  alignas(16) unsigned char mask[Plan::kStages][kMaskBytes];
  StageRing<Plan::kStages> ring;
  unsigned char lead[Plan::kStages][2]; // where the tile's first input element and mask byte lie
  // Each slice's total for three tiles in a row (the next tile's are
  // written while a slower thread may still scan from the current's, and
  // the one after's follow before the next block barrier), then, once its
  // column's warp has scanned them, the total of the slices before it; in
  // the serial run's monoid (log-sum-exp's (max, sum) pairs); each
  // column's prefix for two.
  typename SerialRun<typename P::Op, typename P::Acc>::Value totals[3][Plan::kGroups][Tiles::kColumns];
  typename P::Acc prefix[2][Tiles::kColumns];
  // Each column's aggregate for two tiles (held in registers across the
  // tile, they spilled masked byte max of 128 columns).
  typename P::Acc aggregates[2][Tiles::kColumns];
  unsigned tag;
};

// Bytes of workspace: the look-back's header, then every column's tile
// aggregates, then their inclusive prefixes (then, with span totals, their
// span totals), column-major so that a warp's window loads are one run (the
// planner's columnTilesWorkspaceBytes).
template <class P, class Plan> __host__ __device__ constexpr long long column_tiles_workspace_bytes(long long lines) {
  const long long values = lines * ColumnTiles<P, Plan>::kTilesPerLine * P::Inner::kSize;
  const int acc = int(sizeof(typename P::Acc));
  return lookback_workspace_bytes(values, acc) + (Plan::kPieceSpans ? values * 2 * acc : 0);
}

template <class P, class Plan>
__device__ __forceinline__ void column_scan_tiles(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                                  void *workspace, long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::In In;
  typedef typename P::Op Op;
  typedef typename P::Scan Scan;
  typedef ColumnTiles<P, Plan> Tiles;
  typedef ColumnTilesShared<P, Plan> Shared;
  typedef SerialRun<Op, Acc> Run;
  typedef typename Run::Item Item;
  typedef PlainMonoid<Op, Acc> M;
  typedef FlaggedValue<Acc> Flagged;
  constexpr int T = Plan::kThreads, G = Plan::kGroups, S = Plan::kStages, K = Plan::kLookbackPerLane;
  constexpr int C = int(Tiles::kColumns), J = Tiles::kColumnsPerWarp;
  constexpr long long L = P::kLength, R = Tiles::kRows;
  static_assert(C * G <= T, "a thread a column slice");
  static_assert(S >= 3, "a stage scanned, one totaled, one loading");
  static_assert(Scan::kIn == C && P::Inner::kIn == 1 && (!P::kMask || (Scan::kMask == C && P::Inner::kMask == 1)),
                "a tile's rows are one contiguous run of input (and mask)");
  Shared &st = dynamic_stages<Shared, Plan>();
  const long long tiles = lines * Tiles::kTilesPerLine;
  LookbackWorkspace<Acc> ws(workspace, tiles * C);
  typename LookbackWorkspace<Acc>::Slot *const span = ws.inclusive + tiles * C; // (span totals only)

  const TensorLastWords<P> last_words(in, mask, lines);

  // Tile `id`: its line's offsets, its first row in memory order and its rows.
  struct Place {
    Offsets<Index> o;
    Index first;
    int rows;
    long long line_first; // the line's first tile
  };
  auto place = [&](long long id) {
    Place p;
    const long long line = id / Tiles::kTilesPerLine, step = id % Tiles::kTilesPerLine;
    p.line_first = id - step;
    p.o = line_offsets<Index, typename P::Lines>(Index(line));
    p.rows = int(min(R, L - step * R));
    p.first = Index(P::kReverse ? L - step * R - p.rows : step * R);
    return p;
  };
  // Thread 0: ticket `id` into stage `s` (or the end, once the tickets
  // have run out: a block draws one past the last, no more; drawn_out says
  // so, and draw() then draws nothing).
  bool drawn_out = false;
  auto draw = [&]() { return drawn_out ? 0 : ws.next(); };
  auto refill = [&](int s, long long id) {
    if (drawn_out) {
      st.ring.issue_end(s);
      return;
    }
    if (id >= tiles) {
      ws.finish(id, tiles);
      drawn_out = true;
      st.ring.issue_end(s);
      return;
    }
    const Place p = place(id);
    st.ring.item[s] = id;
    const In *src = in + p.o.in + p.first * Index(C);
    st.lead[s][0] = (unsigned char)(reinterpret_cast<u64>(src) & 15);
    copy_run_as_words<Plan::kEvictFirst>(st.in[s], src, unsigned(p.rows * C), last_words.in, &st.ring.full[s]);
    if constexpr (P::kMask) {
      const u8 *keep = mask + p.o.mask + p.first * Index(C);
      st.lead[s][1] = (unsigned char)(reinterpret_cast<u64>(keep) & 15);
      copy_run_as_words<Plan::kEvictFirst>(st.mask[s], keep, unsigned(p.rows * C), last_words.mask, &st.ring.full[s]);
    }
    mbarrier_arrive(&st.ring.full[s]);
  };

  st.ring.init();
  if (threadIdx.x == 0) {
    ws.read_tag();
    st.tag = ws.tag;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s)
      refill(s, draw());
  ws.tag = st.tag;

  const int c = int(threadIdx.x) % C, g = int(threadIdx.x) / C; // this thread's column and slice
  const bool active = int(threadIdx.x) < C * G;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  // The tile of use `u` (its stage, its place), and its rows for this
  // thread's slice in scan order: element (i, c) of the stage, lifted.
  // (The stage by its index, not a pointer: through a pointer held across
  // tiles, the stage's reads were generic loads, not shared ones.)
  struct Held {
    long long id;
    Place p;
    int s, lead_in, lead_mask;
    int lo, hi;
  };
  auto hold = [&](long long u) {
    Held h;
    const int s = int(u % S);
    h.id = st.ring.wait(s, u / S);
    if (h.id < 0)
      return h;
    h.p = place(h.id);
    h.s = s;
    h.lead_in = st.lead[s][0];
    h.lead_mask = P::kMask ? st.lead[s][1] : 0;
    h.lo = min(h.p.rows, g * int(Tiles::kSlice));
    h.hi = min(h.p.rows, h.lo + int(Tiles::kSlice));
    return h;
  };
  auto lifted = [&](const Held &h, int i) {
    const int r = P::kReverse ? h.p.rows - 1 - i : i; // row within the tile, in memory order
    const int at = r * C + c;
    const In *stage = reinterpret_cast<const In *>(st.in[h.s] + h.lead_in);
    return lift_masked<Op, Acc>(true, stage[at], P::kMask ? st.mask[h.s][h.lead_mask + at] : u8(1));
  };
  // This thread's slice total of tile `h`, into totals[u % 3].
  auto total_slice = [&](const Held &h, long long u) {
    if (!active)
      return;
    typename Run::Value total = Run::of(Op::identity());
#pragma unroll 4
    for (int i = h.lo; i < h.hi; ++i)
      total = Run::step(total, lifted(h, i));
    st.totals[u % 3][g][c] = total;
  };
  // Each warp's columns of tile `h`: a warp scan of their slices' totals
  // (a lane a slice) leaves in totals[u % 3] each slice's total of the
  // slices before it, and their aggregates are published at once and kept
  // in aggregates[u & 1]. (Folded serially, a column's slices chained G
  // combines, log-sum-exp's each an exp and a log1p out of line.)
  constexpr int kSliceLanes = lanes_holding(G);
  static_assert(G <= 32, "a lane a slice");
  auto publish_aggregates = [&](const Held &h, long long u) {
#pragma unroll 1
    for (int j = 0; j < J; ++j) {
      const int col = warp + j * Tiles::kWarps;
      if (col < C) {
        const typename Run::Value slice = lane < G ? st.totals[u % 3][lane][col] : Item::identity();
        const typename Run::Value upto = warp_inclusive_scan<Item, false, kSliceLanes>(slice, lane);
        const typename Run::Value before = warp_exclusive_from_inclusive<Item, false, kSliceLanes>(upto, lane);
        if (lane < G)
          st.totals[u % 3][lane][col] = before;
        if (lane == G - 1) {
          const Acc aggregate = Run::value(upto);
          ws.publish(ws.aggregate + col * tiles + h.id, aggregate);
          st.aggregates[u & 1][col] = aggregate;
        }
      }
    }
  };

  // A tile's aggregates are published one tile ahead of its look-back: a
  // block's next tile never waits on its current one's window, so the only
  // chain between tiles is the windows' (one link per W tiles).
  Held now = hold(0);
  if (now.id < 0)
    return;
  total_slice(now, 0);
  __syncthreads();
  publish_aggregates(now, 0);
  for (long long use = 0;; ++use) {
    // Thread 0 draws the ticket of this tile's refill (after its barrier)
    // now, so that the atomic's round trip overlaps the window's loads and
    // the next tile's totals instead of holding warp 0, and with it the
    // block's barrier (H200, x copy: sum f32[2851285,46] 1.62 -> 1.55, prod
    // f32[2000000,17] reverse 1.70 -> 1.62). It waits on nothing of other
    // blocks before it issues it.
    const long long drawn = threadIdx.x == 0 && use > 0 ? draw() : 0;
    // The window of each of the warp's columns: every load of a round in
    // flight together, the first round before the next tile's totals (which
    // then hide its latency), polled until all are in (tags are never 0,
    // so none() never reads as ready).
    const long long id = now.id;
    Flagged seen[J][K], base[J];
#pragma unroll
    for (int j = 0; j < J; ++j) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        seen[j][k] = Flagged::none();
      base[j] = Flagged::none();
    }
    // The tile whose value this lane reads in round k (id: none): a run of
    // aggregates; with span totals, lane m < kSpanCount a span total, the
    // next kSpan lanes the last tiles' aggregates.
    constexpr bool kSpans = Plan::kPieceSpans;
    const long long window_first = id - Tiles::W + 1 + lane; // (without span totals) this lane's first tile
    auto window_tile = [&](int k) -> long long {
      if constexpr (kSpans)
        return lane < Tiles::kSpanCount ? id - Tiles::kSpanWindow + Tiles::kSpan * (lane + 1)
               : lane < Tiles::kSpanCount + Tiles::kSpan ? id - Tiles::kSpan + (lane - Tiles::kSpanCount)
                                                          : id;
      else
        return window_first + (long long)k * 32;
    };
    const bool reads_span = kSpans && lane < Tiles::kSpanCount;
    const bool has_base = lane == 0 && id - Tiles::W >= now.p.line_first;
    auto counts = [&](int k) {
      const long long t = window_tile(k);
      return t >= now.p.line_first && t < id;
    };
    auto load_window = [&]() {
#pragma unroll
      for (int j = 0; j < J; ++j) {
        const int col = warp + j * Tiles::kWarps;
        if (col >= C)
          continue;
#pragma unroll
        for (int k = 0; k < K; ++k)
          if (counts(k) && !seen[j][k].ready(ws.tag))
            seen[j][k] = load_flagged(kSpans ? (reads_span ? span : ws.aggregate) + col * tiles + window_tile(k)
                                             : ws.aggregate + col * tiles + window_first + (long long)k * 32);
        if (has_base && !base[j].ready(ws.tag))
          base[j] = load_flagged(ws.inclusive + col * tiles + id - Tiles::W);
      }
    };
    load_window();

    const Held next = hold(use + 1);
    if (next.id >= 0)
      total_slice(next, use + 1);
    __syncthreads();
    // Every thread has scanned the last tile: refill its stage (the tile
    // S - 1 after the next).
    if (threadIdx.x == 0 && use > 0)
      refill(int((use - 1) % S), drawn);
    if (next.id >= 0)
      publish_aggregates(next, use + 1);

    if constexpr (kSpans) {
      // This tile's span total: the aggregates of the 7 tiles before it in
      // its line (the window's last 7 lanes; published a tile ahead, so in
      // by now), then its own; published before the wait on the others.
      const bool recent = lane > Tiles::kSpanCount && lane < Tiles::kSpanCount + Tiles::kSpan && counts(0);
      for (;;) {
        bool in = true;
#pragma unroll
        for (int j = 0; j < J; ++j)
          in = in && (warp + j * Tiles::kWarps >= C || !recent || seen[j][0].ready(ws.tag));
        if (__all_sync(0xffffffffu, in))
          break;
        __nanosleep(32);
        load_window();
      }
#pragma unroll
      for (int j = 0; j < J; ++j) {
        const int col = warp + j * Tiles::kWarps;
        if (col >= C)
          continue;
        const Acc values[1] = {seen[j][0].value()};
        const Acc before = WindowFold<M>::warp_total(values, recent ? 1u : 0u);
        if (lane == 0)
          ws.publish(span + col * tiles + id, ChainMonoid<M>::type::combine(before, st.aggregates[use & 1][col]));
      }
    }
    for (;;) {
      bool ready = true;
#pragma unroll
      for (int j = 0; j < J; ++j) {
        if (warp + j * Tiles::kWarps >= C)
          continue;
#pragma unroll
        for (int k = 0; k < K; ++k)
          ready = ready && (!counts(k) || seen[j][k].ready(ws.tag));
        ready = ready && (!has_base || base[j].ready(ws.tag));
      }
      if (__all_sync(0xffffffffu, ready))
        break;
      __nanosleep(32);
      load_window();
    }
    unsigned valid = 0;
#pragma unroll
    for (int k = 0; k < K; ++k)
      valid |= (counts(k) ? 1u : 0u) << k;
#pragma unroll
    for (int j = 0; j < J; ++j) {
      const int col = warp + j * Tiles::kWarps;
      if (col >= C)
        continue;
      Acc values[K];
#pragma unroll
      for (int k = 0; k < K; ++k)
        values[k] = seen[j][k].value();
      const Acc totals[1] = {WindowFold<M>::warp_total(values, valid)};
      if (lane == 0) {
        const Acc prefix = WindowFold<M>::prefix(totals, has_base, base[j].value());
        ws.publish(ws.inclusive + col * tiles + id, ChainMonoid<M>::type::combine(prefix, st.aggregates[use & 1][col]));
        st.prefix[use & 1][col] = prefix;
      }
    }
    __syncthreads();

    // Each slice scans from its column's prefix and the slices before it.
    if (active) {
      typename Run::Value line = Item::combine(Run::of(st.prefix[use & 1][c]), st.totals[use % 3][g][c]);
      // This slice's first result in scan order, then a row a step: a
      // pointer walked, so that unrolled stores take immediate offsets
      // (indexed, each computed its 64-bit address in 5 instructions).
      const int first_row = P::kReverse ? now.p.rows - 1 - now.lo : now.lo;
      typename P::Out *at = out + now.p.o.out + (now.p.first + Index(first_row)) * Index(Scan::kOut) +
                            Index(c) * Index(P::Inner::kOut);
      constexpr long long kStep = P::kReverse ? -(long long)Scan::kOut : (long long)Scan::kOut;
#pragma unroll 4
      for (int i = now.lo; i < now.hi; ++i) {
        const typename Run::Value before = line;
        line = Run::step(line, lifted(now, i));
        // One element, streamed (evict-first, as store_converted stores):
        // no alignment to check, as store_converted would a vector's on
        // every store. (Plain stores filled L2 over the look-back's flags:
        // f32[2851285,46] 1.18 -> 1.46 of copy.)
        const typename P::Out result[1] = {Convert<typename P::Out>::store(Run::value(P::kExclusive ? before : line))};
        VectorAccess<typename P::Out, 1>::store(at, result);
        at += kStep;
      }
    }
    if (next.id < 0)
      break;
    now = next;
  }
}

} // namespace scanjit
