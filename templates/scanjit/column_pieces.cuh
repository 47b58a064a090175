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
//    p - 49, ..., p - 9 (a span total is the aggregates of the 8 pieces up
//    to its own, published as soon as they are: off the chain), then the
//    aggregates of pieces p - 8 .. p - 1: one link per 65 pieces, for
//    panels whose pieces in flight outrun a chain of 8 (f32[1048576,100]
//    dim=0 as long as the stages: 2.6x copy by 8, 1.6x by spans), at twice
//    the loads (a few panels of short chains ran up to 30% slower with them;
//    BENCHMARKS.md).
// A column's loads are in flight together.
#pragma once

#include "scanjit/flagged_value.cuh"
#include "scanjit/monoid.cuh"

namespace scanjit {

constexpr int kColumnPieceWindow = 8; // pieces from the inclusive prefix, without span totals
constexpr int kColumnPieceSpan = 8;   // pieces a span total covers
constexpr int kColumnPieceSpans = 8;  // span totals and the last aggregates' run in a window
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
  __device__ __forceinline__ void publish_aggregate(long long panel, int p, int c, Acc v) const {
    if (p < kPieces - 1)
      store_flagged(aggregate + slot(panel, p, c), Flagged::of(v, tag));
  }
  __device__ __forceinline__ void publish_inclusive(long long panel, int p, int c, Acc v) const {
    if (p < kPieces - 1)
      store_flagged(inclusive + slot(panel, p, c), Flagged::of(v, tag));
  }

  // Piece p's span total is its own aggregates `own` when it is a panel's
  // first piece (nothing before it to wait for).
  template <int V>
  __device__ __forceinline__ void publish_first_span(long long panel, int c, int valid, const Acc (&own)[V]) const {
#pragma unroll
    for (int v = 0; v < V; ++v)
      if (kSpanWindow && v < valid && kPieces > 1)
        store_flagged(span + slot(panel, 0, c + v), Flagged::of(own[v], tag));
  }

  // Everything before piece p (p > 0) in columns c .. c + V - 1 below
  // `valid`, once published (its window: the file's comment). With span
  // totals, piece p's own (`own` its aggregates) goes out on the way.
  // (V windows of 8-byte values spilled: callers take those a column at a
  // time.)
  template <int V>
  __device__ __forceinline__ void prefixes(long long panel, int p, int c, int valid, const Acc (&own)[V],
                                           Acc (&r)[V]) const {
    if constexpr (kSpanWindow)
      span_prefixes<V>(panel, p, c, valid, own, r);
    else
      window_prefixes<V>(panel, p, c, valid, r);
  }

private:
  // With span totals: the inclusive prefix of piece p - 65, the span totals
  // of pieces p - 57, p - 49, ..., p - 9, then the aggregates of pieces
  // p - 8 .. p - 1 (those that exist; the first pieces' spans start at piece
  // 0). On the way, as soon as the aggregates of pieces p - 7 .. p - 1 are
  // in, piece p's span total (them, then `own`) is published: later pieces'
  // windows never wait on a piece's own prefix, only on its inclusive one,
  // 65 pieces on.
  template <int V>
  __device__ __forceinline__ void span_prefixes(long long panel, int p, int c, int valid, const Acc (&own)[V],
                                                Acc (&r)[V]) const {
    constexpr int N = 1 + (kSpans - 1) + kSpan; // entries, in the order they combine
    constexpr int kFirstAggregate = kSpans;      // entry of piece p - 8's aggregate
    const long long far = slot(panel, p - W, c), near = slot(panel, p - kSpan * 2, c);
    // Entry i of column c + v (its piece: p - 65 + 8i, then p - 16 + i).
    auto at = [&](int i, int v) {
      return i == 0 ? inclusive + far + v
                    : i < kFirstAggregate ? span + far + i * kSpan * kPanel + v : aggregate + near + i * kPanel + v;
    };
    // Entries before piece 0: spans from piece 9 on, else aggregates.
    const int skip = p > kSpan ? max(0, (W - p + kSpan - 1) / kSpan) : kSpan * 2 - p;
    bool span_out = p >= kPieces - 1; // (a panel's last piece has none)
    gather<V, N>(at, -skip, valid, r, [&](const Flagged (&seen)[V][N]) {
      if (span_out || !in<V, N>(seen, kFirstAggregate + 1, -skip, valid))
        return;
#pragma unroll
      for (int v = 0; v < V; ++v) {
        Acc t = Op::identity();
#pragma unroll
        for (int i = kFirstAggregate + 1; i < N; ++i)
          if (i >= skip)
            t = combine_cold<Op>(t, seen[v][i].value());
        if (v < valid)
          store_flagged(span + slot(panel, p, c + v), Flagged::of(combine_cold<Op>(t, own[v]), tag));
      }
      span_out = true;
    });
  }

  // Without span totals: entry 0 is the inclusive prefix of piece p - W,
  // entry i the aggregate of piece p - W + i.
  template <int V>
  __device__ __forceinline__ void window_prefixes(long long panel, int p, int c, int valid, Acc (&r)[V]) const {
    auto at = [&](int i, int v) { return (i == 0 ? inclusive : aggregate) + slot(panel, p - W + i, c + v); };
    gather<V, W>(at, p - W, valid, r, [](const Flagged (&)[V][W]) {});
  }

  // Whether entries i from `from` with first + i >= 0 of the columns below
  // `valid` are published.
  template <int V, int N>
  __device__ __forceinline__ bool in(const Flagged (&seen)[V][N], int from, int first, int valid) const {
    bool ok = true;
#pragma unroll
    for (int v = 0; v < V; ++v)
#pragma unroll
      for (int i = from; i < N; ++i)
        ok = ok && (v >= valid || first + i < 0 || seen[v][i].ready(tag));
    return ok;
  }

  // Entries i with first + i >= 0 of the columns below `valid` (entry i of
  // column c + v at at(i, v)), combined in the order of i once all are
  // published. Each round issues every missing load before checking any,
  // then calls after_round(seen).
  template <int V, int N, class At, class AfterRound>
  __device__ __forceinline__ void gather(At at, int first, int valid, Acc (&r)[V], AfterRound after_round) const {
    Flagged seen[V][N];
#pragma unroll
    for (int v = 0; v < V; ++v)
#pragma unroll
      for (int i = 0; i < N; ++i)
        seen[v][i] = Flagged::none();
    for (;;) {
#pragma unroll
      for (int v = 0; v < V; ++v)
#pragma unroll
        for (int i = 0; i < N; ++i)
          if (v < valid && first + i >= 0 && !seen[v][i].ready(tag))
            seen[v][i] = load_flagged(at(i, v));
      after_round(seen);
      if (in<V, N>(seen, 0, first, valid))
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
