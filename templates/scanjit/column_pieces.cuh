// Column pieces: each panel's scan cut into pieces along the scan, a block
// each (column_pipeline.cuh streams them), chained through totals published
// in the workspace, as the look-back family chains tiles.
//
// Reproducibility: piece p's prefix in a column is always the same fixed
// expression of published values, in that order, whatever was published
// first, so results are bitwise reproducible:
//  - by default the inclusive prefix of piece p - 8 followed by the
//    aggregates of pieces p - 7 .. p - 1: the chain of inclusive prefixes
//    has one link per 8 pieces;
//  - with span totals (`piece_spans=1` in the plan; kSpanWindow) the
//    inclusive prefix of piece p - 65, the span totals of pieces p - 57,
//    p - 49, ..., p - 9, the aggregate of piece p - 8, then the aggregates
//    of pieces p - 7 .. p - 1 folded into one value first. A span total is
//    the aggregates of the 8 pieces up to its own: a piece publishes its own
//    as soon as the 7 before it are in, before it waits for its prefix, and
//    keeps their fold for that prefix, so spans are off the chain, which
//    has one link per 65 pieces. For panels whose pieces in flight outrun
//    a chain of 8 (H200, f32[1048576,100] dim=0: 2.24x copy by 8, 1.86x by
//    spans as long as the stages; a few panels of shorter chains ran slower
//    with them; BENCHMARKS.md).
// A column's loads of a wait are in flight together.
#pragma once

#include "scanjit/flagged_value.cuh"
#include "scanjit/monoid.cuh"

namespace scanjit {

constexpr int kColumnPieceWindow = 8; // pieces from the inclusive prefix, without span totals
constexpr int kColumnPieceSpan = 8;   // pieces a span total covers
constexpr int kColumnPieceSpans = 8;  // runs of 8 pieces in a window: 7 span totals, then 8 pieces' own
constexpr int kColumnPieceSpanWindow = kColumnPieceSpan * kColumnPieceSpans + 1;

// Bytes of workspace: a 16-byte ticket counter, then the aggregate of every
// column of every piece but each panel's last, their span totals (with
// them), then their inclusive prefixes, as flagged values (the planner
// computes the same and the emitted source asserts it).
__host__ __device__ constexpr long long column_pieces_workspace_bytes(long long panels, int pieces,
                                                                      long long panel_columns, int acc_bytes,
                                                                      bool span_window) {
  return pieces > 1 ? 16 + (span_window ? 3 : 2) * panels * (pieces - 1) * panel_columns * 2 * acc_bytes : 0;
}

template <class Op, class Acc, int kPieces, int kPanel, bool kSpanWindow> struct ColumnPieces {
  typedef FlaggedValue<Acc> Flagged;
  static constexpr int kSpan = kColumnPieceSpan, kSpans = kColumnPieceSpans;
  static constexpr int W = kSpanWindow ? kColumnPieceSpanWindow : kColumnPieceWindow;
  unsigned long long *tickets;
  Flagged *aggregate, *span, *inclusive; // (span: with span totals only)
  unsigned tag = 0; // this launch's, once take_ticket() has run

  __device__ __forceinline__ ColumnPieces(void *workspace, long long panels) {
    char *p = static_cast<char *>(workspace);
    tickets = reinterpret_cast<unsigned long long *>(p);
    aggregate = reinterpret_cast<Flagged *>(p + 16);
    span = aggregate + panels * (kPieces - 1) * kPanel;
    inclusive = kSpanWindow ? span + panels * (kPieces - 1) * kPanel : span;
  }

  // Every thread: this block's place in launch order (thread 0 takes it;
  // a block barrier). The workspace is zeroed once, and every launch takes
  // exactly one ticket a block, so tickets keep counting across launches:
  // the launch's number gives the tag its flags carry (never 0), and a value
  // an earlier launch left never reads as published.
  __device__ __forceinline__ long long take_ticket() {
    __shared__ unsigned long long ticket;
    if (threadIdx.x == 0)
      ticket = atomicAdd(tickets, 1ULL);
    __syncthreads();
    const unsigned long long t = ticket;
    tag = launch_tag(t / gridDim.x);
    return (long long)(t % gridDim.x);
  }

  // Column c of piece p of `panel` (pieces but the last have one).
  static __device__ __forceinline__ long long slot(long long panel, int p, int c) {
    return (panel * (kPieces - 1) + p) * kPanel + c;
  }
  // Whether a thread's columns move two at a time, as one 16-byte access
  // (load_flagged_pair): one-word values and an even V, so kPanel = threads
  // x V and a thread's first column are even and each pair's slots start on
  // 16 bytes. One column at a time, a warp's accesses span twice the bytes
  // they use (H200, ncu: a quarter of an f16 panel's L2 sectors were flags).
  template <int V> __host__ __device__ static constexpr bool paired() { return Flagged::kWords == 1 && V % 2 == 0; }

  __device__ __forceinline__ void publish_inclusive(long long panel, int p, int c, Acc v) const {
    if (p < kPieces - 1)
      store_flagged(inclusive + slot(panel, p, c), Flagged::of(v, tag));
  }
  // Totals and inclusive prefixes of columns c .. c + V - 1 below `valid`,
  // two at a time where paired<V>().
  template <int V>
  __device__ __forceinline__ void publish_aggregates(long long panel, int p, int c, int valid,
                                                     const Acc (&v)[V]) const {
    if (p < kPieces - 1)
      store_columns<V>(aggregate + slot(panel, p, c), valid, v);
  }
  template <int V>
  __device__ __forceinline__ void publish_inclusives(long long panel, int p, int c, int valid,
                                                     const Acc (&v)[V]) const {
    if (p < kPieces - 1)
      store_columns<V>(inclusive + slot(panel, p, c), valid, v);
  }

  // Piece p's span total for columns c .. c + V - 1 below `valid`, from its
  // own totals `own`: the totals of pieces p - 7 .. p - 1 (those that
  // exist), once published, left in `recent`, then its own. Before the
  // piece waits for its prefix: later pieces' windows then never wait on a
  // piece's own prefix, only on its inclusive one, 65 pieces on. (Span
  // totals only; a panel's last piece publishes none.)
  template <int V>
  __device__ __forceinline__ void publish_span(long long panel, int p, int c, int valid, const Acc (&own)[V],
                                               Acc (&recent)[V]) const {
    if constexpr (kSpanWindow) {
      const Flagged *first = aggregate + slot(panel, p - (kSpan - 1), c);
      gather<V, kSpan - 1>([&](int i, int v) { return first + i * kPanel + v; }, p - (kSpan - 1), valid, recent);
      if (p < kPieces - 1) {
        Acc total[V];
#pragma unroll
        for (int v = 0; v < V; ++v)
          total[v] = combine_cold<Op>(recent[v], own[v]);
        store_columns<V>(span + slot(panel, p, c), valid, total);
      }
    }
  }

  // Everything before piece p (p > 0) in columns c .. c + V - 1 below
  // `valid`, once published (its window: the file's comment); with span
  // totals, `recent` is what publish_span() left. (V windows of 8-byte
  // values spilled: callers take those a column at a time.)
  template <int V>
  __device__ __forceinline__ void prefixes(long long panel, int p, int c, int valid, const Acc (&recent)[V],
                                           Acc (&r)[V]) const {
    if constexpr (kSpanWindow) {
      span_prefixes<V>(panel, p, c, valid, r);
#pragma unroll
      for (int v = 0; v < V; ++v)
        r[v] = combine_cold<Op>(r[v], recent[v]);
    } else {
      window_prefixes<V>(panel, p, c, valid, r);
    }
  }

  // Piece p's whole chain step for columns c .. c + V - 1 below `valid`,
  // whose totals are `own`: publishes them, finds everything before the
  // piece (`before`; the identity for piece 0) and publishes the inclusive
  // prefix. (Windows of 8-byte values go a column at a time: V of them
  // spilled.) The column pipeline runs these steps itself, among its groups.
  template <int V>
  __device__ __forceinline__ void chain(long long panel, int p, int c, int valid, const Acc (&own)[V],
                                        Acc (&before)[V]) const {
    publish_aggregates<V>(panel, p, c, valid, own);
    if constexpr (sizeof(Acc) <= 4) {
      Acc recent[V];
#pragma unroll
      for (int v = 0; v < V; ++v)
        recent[v] = Op::identity();
      publish_span<V>(panel, p, c, valid, own, recent);
      if (p > 0) {
        prefixes<V>(panel, p, c, valid, recent, before);
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v)
          before[v] = Op::identity();
      }
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v) {
        const Acc one[1] = {own[v]};
        Acc recent[1] = {Op::identity()}, r[1] = {Op::identity()};
        if (v < valid) {
          publish_span<1>(panel, p, c + v, 1, one, recent);
          if (p > 0)
            prefixes<1>(panel, p, c + v, 1, recent, r);
        }
        before[v] = r[0];
      }
    }
    Acc inclusive_values[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      inclusive_values[v] = combine_cold<Op>(before[v], own[v]);
    publish_inclusives<V>(panel, p, c, valid, inclusive_values);
  }

private:
  // Column c + v's value v below `valid` published at at[v], pairwise where
  // paired<V>().
  template <int V> __device__ __forceinline__ void store_columns(Flagged *at, int valid, const Acc (&v)[V]) const {
    if constexpr (paired<V>()) {
#pragma unroll
      for (int j = 0; j < V; j += 2) {
        if (j + 1 < valid)
          store_flagged_pair(at + j, Flagged::of(v[j], tag), Flagged::of(v[j + 1], tag));
        else if (j < valid)
          store_flagged(at + j, Flagged::of(v[j], tag));
      }
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (j < valid)
          store_flagged(at + j, Flagged::of(v[j], tag));
    }
  }

  // With span totals, all but the last 7 pieces' totals: the inclusive
  // prefix of piece p - 65, the span totals of pieces p - 57, p - 49, ...,
  // p - 9, then the total of piece p - 8 (those that exist; the first
  // pieces' spans start at piece 0).
  template <int V>
  __device__ __forceinline__ void span_prefixes(long long panel, int p, int c, int valid, Acc (&r)[V]) const {
    constexpr int N = kSpans + 1; // entries, in the order they combine
    const long long far = slot(panel, p - W, c);
    // Entry i of column c + v: piece p - 65 + 8i, the last p - 8.
    auto at = [&](int i, int v) {
      return i == 0 ? inclusive + far + v
                    : i < kSpans ? span + far + i * kSpan * kPanel + v : aggregate + far + (W - kSpan) * kPanel + v;
    };
    // Entries before piece 0 (spans from piece 9 on).
    const int skip = p > kSpan ? max(0, (W - p + kSpan - 1) / kSpan) : p == kSpan ? kSpans : N;
    gather<V, N>(at, -skip, valid, r);
  }

  // Without span totals: entry 0 is the inclusive prefix of piece p - W,
  // entry i the aggregate of piece p - W + i.
  template <int V>
  __device__ __forceinline__ void window_prefixes(long long panel, int p, int c, int valid, Acc (&r)[V]) const {
    auto at = [&](int i, int v) { return (i == 0 ? inclusive : aggregate) + slot(panel, p - W + i, c + v); };
    gather<V, W>(at, p - W, valid, r);
  }

  // Entries i with first + i >= 0 of the columns below `valid` (entry i of
  // column c + v at at(i, v), which is at(i, 0) + v), combined in the order
  // of i once all are published. Each round issues every missing load
  // before checking any.
  template <int V, int N, class At>
  __device__ __forceinline__ void gather(At at, int first, int valid, Acc (&r)[V]) const {
    Flagged seen[V][N];
#pragma unroll
    for (int v = 0; v < V; ++v)
#pragma unroll
      for (int i = 0; i < N; ++i)
        seen[v][i] = Flagged::none();
    for (;;) {
      if constexpr (paired<V>()) {
        // Both columns of a pair again while either is missing (a column
        // past `valid` is read, never waited on: its slot is in the panel).
#pragma unroll
        for (int v = 0; v < V; v += 2)
#pragma unroll
          for (int i = 0; i < N; ++i)
            if (v < valid && first + i >= 0 &&
                !(seen[v][i].ready(tag) && (v + 1 >= valid || seen[v + 1][i].ready(tag))))
              load_flagged_pair(at(i, v), seen[v][i], seen[v + 1][i]);
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v)
#pragma unroll
          for (int i = 0; i < N; ++i)
            if (v < valid && first + i >= 0 && !seen[v][i].ready(tag))
              seen[v][i] = load_flagged(at(i, v));
      }
      bool ready = true;
#pragma unroll
      for (int v = 0; v < V; ++v)
#pragma unroll
        for (int i = 0; i < N; ++i)
          ready = ready && (v >= valid || first + i < 0 || seen[v][i].ready(tag));
      if (ready)
        break;
      __nanosleep(32);
    }
#pragma unroll
    for (int v = 0; v < V; ++v) {
      r[v] = Op::identity();
#pragma unroll
      for (int i = 0; i < N; ++i)
        if (v < valid && first + i >= 0)
          r[v] = combine_cold<Op>(r[v], seen[v][i].value());
    }
  }
};

} // namespace scanjit
