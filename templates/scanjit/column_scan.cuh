// Column family: the scanned dimension is not the contiguous one. Threads
// spread across the contiguous (inner) dimension, kVector columns each, so
// every step along the scan is one coalesced vector access per thread; the
// running values stay in registers and kUnroll steps are loaded before use.
#pragma once

#include "scanjit/column_pieces.cuh"
#include "scanjit/column_pipeline.cuh"
#include "scanjit/column_tiles.cuh"
#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/monoid.cuh"

namespace scanjit {

// kSteps consecutive steps along the scan for one thread's columns: all
// loads first (independent, in flight together), then the running values,
// stored unless kStore is off (a piece's totaling pass).
template <class P, int V, int kSteps, class Index, bool kStore = true>
__device__ __forceinline__ void column_steps(const typename P::In *in, const u8 *mask,
                                             typename P::Out *out, const Offsets<Index> &o,
                                             Index first, Index valid,
                                             typename SerialRun<typename P::Op, typename P::Acc>::Value (&carry)[V]) {
  typedef typename P::Scan S;
  typedef typename P::Acc Acc;
  typedef SerialRun<typename P::Op, Acc> Run;
  constexpr long long L = P::kLength;
  Acc x[kSteps][V];
#pragma unroll
  for (int u = 0; u < kSteps; ++u) {
    const Index at = P::kReverse ? Index(L) - 1 - (first + u) : first + u;
    load_lifted<P, V, 1, 1>(in + o.in + at * Index(S::kIn), mask + o.mask + at * Index(S::kMask),
                            valid, x[u]);
  }
#pragma unroll
  for (int u = 0; u < kSteps; ++u) {
    const Index at = P::kReverse ? Index(L) - 1 - (first + u) : first + u;
    Acc r[V];
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const typename Run::Value before = carry[v];
      carry[v] = Run::step(carry[v], x[u][v]);
      r[v] = Run::value(P::kExclusive ? before : carry[v]);
    }
    if constexpr (kStore)
      store_converted<P, V, 1>(out + o.out + at * Index(S::kOut), valid, r);
  }
}

// Registers only (no stages): each thread a group of kVector columns of a
// line, kUnroll steps loaded ahead.
template <class P, class Plan>
__device__ __forceinline__ void column_scan_registers(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                                      long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::Op Op;
  constexpr int T = Plan::kThreads, V = Plan::kVector, U = Plan::kUnroll;
  constexpr long long L = P::kLength;
  constexpr long long C = P::Inner::kSize;
  constexpr long long kGroups = (C + V - 1) / V;
  const long long work = lines * kGroups;
  for (Index w = Index(blockIdx.x) * T + threadIdx.x; w < Index(work); w += Index(gridDim.x) * T) {
    const Index col = (w % Index(kGroups)) * V;
    Offsets<Index> o = line_offsets<Index, typename P::Lines>(w / Index(kGroups));
    o.in += col;
    o.out += col;
    o.mask += col;
    const Index valid = Index(C) - col;
    typename SerialRun<Op, Acc>::Value carry[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      carry[v] = SerialRun<Op, Acc>::of(Op::identity());
    // Full groups of kUnroll steps with no bounds checks, then the remainder.
    constexpr long long kFull = L - L % U;
    for (Index l0 = 0; l0 < Index(kFull); l0 += U)
      column_steps<P, V, U>(in, mask, out, o, l0, valid, carry);
    for (Index l = Index(kFull); l < Index(L); ++l)
      column_steps<P, V, 1>(in, mask, out, o, l, valid, carry);
  }
}

// Rows [first, end) in scan order for one thread's columns, kSteps at a
// time, then one at a time: scanned from `carry`, stored unless kStore is
// off (a piece's totaling pass).
template <class P, int V, int kSteps, bool kStore, class Index>
__device__ __forceinline__ void column_piece_rows(const typename P::In *in, const u8 *mask, typename P::Out *out,
                                                  const Offsets<Index> &o, Index first, Index end, Index valid,
                                                  typename SerialRun<typename P::Op, typename P::Acc>::Value (&carry)[V]) {
  Index l = first;
  for (; l + kSteps <= end; l += kSteps)
    column_steps<P, V, kSteps, Index, kStore>(in, mask, out, o, l, valid, carry);
  for (; l < end; ++l)
    column_steps<P, V, 1, Index, kStore>(in, mask, out, o, l, valid, carry);
}

// Registers with pieces (archs without stages): a block takes a panel of
// kThreads x kVector columns of a line and a piece of its scan by ticket, as
// the pipeline's pieces do (column_pieces.cuh). A piece after the first
// reads its rows twice: once for its totals, which it publishes before it
// looks back, then from its prefix for its results. The first scans in one
// pass and publishes its totals last.
template <class P, class Plan>
__device__ __forceinline__ void column_scan_register_pieces(const typename P::In *in, const u8 *mask,
                                                            typename P::Out *out, void *workspace, long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::Op Op;
  typedef SerialRun<Op, Acc> Run;
  constexpr int T = Plan::kThreads, V = Plan::kVector, U = Plan::kUnroll, kPieces = Plan::kPieces;
  constexpr long long L = P::kLength;
  constexpr long long C = P::Inner::kSize;
  constexpr int kPanel = T * V;
  constexpr long long kPanels = (C + kPanel - 1) / kPanel;
  constexpr long long kPieceRows = (L + kPieces - 1) / kPieces;
  static_assert(Plan::kGroups == 1, "a column a thread");
  static_assert((L + kPieceRows - 1) / kPieceRows == kPieces, "no piece is empty");
  const long long all_panels = lines * kPanels;
  ColumnPieces<Op, Acc, kPieces, kPanel, Plan::kPieceSpans> pieces(workspace, all_panels);
  const long long unit = pieces.take_ticket();
  const long long panel = unit % all_panels;
  const int piece = int(unit / all_panels);
  const int my = int(threadIdx.x) * V; // this thread's first column in the panel
  const Index col = Index(panel % kPanels) * kPanel + my;
  Offsets<Index> o = line_offsets<Index, typename P::Lines>(Index(panel / kPanels));
  o.in += col;
  o.out += col;
  o.mask += col;
  const Index valid = Index(C) - col;
  const Index first = Index(piece) * Index(kPieceRows); // in scan order
  const Index end = min(Index(L), first + Index(kPieceRows));
  typename Run::Value carry[V];
#pragma unroll
  for (int v = 0; v < V; ++v)
    carry[v] = Run::of(Op::identity());
  if (piece > 0) {
    column_piece_rows<P, V, U, false>(in, mask, out, o, first, end, valid, carry);
    Acc own[V], before[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      own[v] = Run::value(carry[v]);
    pieces.template chain<V>(panel, piece, my, int(min(valid, Index(V))), own, before);
#pragma unroll
    for (int v = 0; v < V; ++v)
      carry[v] = Run::of(before[v]);
  }
  column_piece_rows<P, V, U, true>(in, mask, out, o, first, end, valid, carry);
  if (piece == 0) {
    Acc own[V], before[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      own[v] = Run::value(carry[v]);
    pieces.template chain<V>(panel, piece, my, int(min(valid, Index(V))), own, before);
  }
}

template <class P, class Plan>
__device__ __forceinline__ void column_scan(const void *in_, const u8 *mask, void *out_, void *workspace,
                                            long long lines) {
  static_assert(P::Inner::kIn == 1 && P::Inner::kOut == 1 && (!P::kMask || P::Inner::kMask == 1),
                "the column family needs a contiguous inner dimension");
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  // Only the plan's path is instantiated (the others cost compile time).
  if constexpr (Plan::kWholeRows && SCANJIT_BULK_COPY)
    column_scan_tiles<P, Plan>(in, mask, out, workspace, lines);
  else if constexpr (Plan::kStages > 0 && (SCANJIT_BULK_COPY || (SCANJIT_ASYNC_COPY && Plan::kWordCopies)))
    column_scan_pipelined<P, Plan>(in, mask, out, workspace, lines);
  else if constexpr (Plan::kPieces > 1)
    column_scan_register_pieces<P, Plan>(in, mask, out, workspace, lines);
  else
    column_scan_registers<P, Plan>(in, mask, out, lines);
}

} // namespace scanjit
