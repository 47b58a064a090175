// Column pieces: each panel's scan cut into pieces along the scan, a block
// each (column_pipeline.cuh streams them), chained through totals published
// in the workspace, as the look-back family chains tiles.
//
// Reproducibility: piece p's prefix in a column is always the inclusive
// prefix of piece p - W followed by the aggregates of pieces p - W + 1 ..
// p - 1, in that order, whatever was published first, so results are
// bitwise reproducible. The chain of inclusive prefixes has one link per W
// pieces, and a column's W loads are in flight together.
#pragma once

#include "scanjit/flagged_value.cuh"
#include "scanjit/monoid.cuh"

namespace scanjit {

constexpr int kColumnPieceWindow = 8;

// Bytes of workspace: a 16-byte ticket counter, then the aggregate of every
// column of every piece but each panel's last, then their inclusive
// prefixes, as flagged values (the planner computes the same and the
// emitted source asserts it).
__host__ __device__ constexpr long long column_pieces_workspace_bytes(long long panels, int pieces,
                                                                      long long panel_columns, int acc_bytes) {
  return pieces > 1 ? 16 + 2 * panels * (pieces - 1) * panel_columns * 2 * acc_bytes : 0;
}

template <class Op, class Acc, int kPieces, int kPanel> struct ColumnPieces {
  typedef FlaggedValue<Acc> Flagged;
  static constexpr int W = kColumnPieceWindow;
  unsigned long long *tickets;
  Flagged *aggregate, *inclusive;
  unsigned tag = 0; // this launch's, once take_ticket() has run

  __device__ __forceinline__ ColumnPieces(void *workspace, long long panels) {
    char *p = static_cast<char *>(workspace);
    tickets = reinterpret_cast<unsigned long long *>(p);
    aggregate = reinterpret_cast<Flagged *>(p + 16);
    inclusive = aggregate + panels * (kPieces - 1) * kPanel;
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

  // Everything before piece p in column c, once published: seen[0] is the
  // inclusive prefix of piece p - W, seen[i] the aggregate of piece p - W + i.
  // Each round issues every missing load before checking any.
  __device__ __forceinline__ Acc prefix(long long panel, int p, int c) const {
    Acc r[1];
    prefixes<1>(panel, p, c, 1, r);
    return r[0];
  }

  // The same for columns c .. c + V - 1 below `valid` together (one round
  // of loads for all: 4-byte values; V windows of 8-byte ones spilled).
  template <int V>
  __device__ __forceinline__ void prefixes(long long panel, int p, int c, int valid, Acc (&r)[V]) const {
    Flagged seen[V][W];
#pragma unroll
    for (int v = 0; v < V; ++v)
#pragma unroll
      for (int i = 0; i < W; ++i)
        seen[v][i] = Flagged::none();
    for (;;) {
#pragma unroll
      for (int v = 0; v < V; ++v)
#pragma unroll
        for (int i = 0; i < W; ++i) {
          const int q = p - W + i;
          if (v < valid && q >= 0 && !seen[v][i].ready(tag))
            seen[v][i] = load_flagged((i == 0 ? inclusive : aggregate) + slot(panel, q, c + v));
        }
      bool ready = true;
#pragma unroll
      for (int v = 0; v < V; ++v)
#pragma unroll
        for (int i = 0; i < W; ++i)
          ready = ready && (v >= valid || p - W + i < 0 || seen[v][i].ready(tag));
      if (ready)
        break;
      __nanosleep(32);
    }
#pragma unroll
    for (int v = 0; v < V; ++v) {
      r[v] = Op::identity();
#pragma unroll
      for (int i = 0; i < W; ++i)
        if (v < valid && p - W + i >= 0)
          r[v] = combine_cold<Op>(r[v], seen[v][i].value());
    }
  }
};

} // namespace scanjit
