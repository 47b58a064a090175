// Column family through shared-memory stages (sm_90): a block owns a panel
// of kPanel = threads / groups x vector contiguous columns of one line and
// walks the scan through stages of Plan::kRowsPerChunk rows, each row of the
// panel one bulk copy (issued by every thread, each counting its bytes and
// its arrival on the stage's mbarrier), or with word copies
// (Plan::kWordCopies) each thread's share of the stage's 16-byte words.
// Threads read their columns from the stage, carry in registers, and store
// each row's results coalesced across the panel. Deep stages put many bytes in flight even when there are few
// columns (dim=0 of a square matrix).
//
// With Plan::kGroups > 1, that many threads share each column: group g scans
// the g-th slice of the stage's rows. Each first reduces its slice, the
// slices' totals go through shared memory, and each then scans its slice
// from the carry combined with the totals of the slices before it. A column
// costs two shared-memory reads per element instead of one, and the block
// has kGroups times the warps: with one thread per column, few columns left
// a few warps per SM, each waiting on its own latency every row.
//
// With Plan::kPieces > 1 (few panels: too few blocks to keep the SMs
// busy), each panel's scan is cut into that many pieces of whole stages, a
// block each, taken in ticket order (piece-major, so a piece's
// predecessors are always held by running blocks) and chained through
// published totals (column_pieces.cuh). A piece first totals its columns
// and publishes them, then scans from its prefix. A piece no longer than
// the stages (the policy's) is loaded once and both passes read the
// stages; a longer one (tuned) streams its rows twice, and its first piece
// scans in one pass and publishes its total last.
//
// A resident piece's totaling pass keeps each stage's slice totals in
// shared memory and needs one block barrier in all, before the totals meet;
// the scan pass then starts each slice from them, with no barrier and no
// second reduction (the first piece too, which publishes at once).
#pragma once

#include "scanjit/bulk_copy.cuh"
#include "scanjit/element_io.cuh"
#include "scanjit/column_pieces.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/monoid.cuh"
#include "scanjit/ops.cuh"

namespace scanjit {

// Word copies: `count` rows of `n` elements from `src` on (a row every
// `step` elements), row r to `stage` at r pitches of `kRowBytes` past its
// first row's place in its 16-byte word (as copy_run_as_words lands a row;
// a pitch off the grid matches `step` modulo 16 bytes, so row r keeps its
// own place in its word; one on the grid starts each row's first word), by
// every thread of the block, a word at a time (copy_word_async_to). Words from
// `safe_end` (the start of the tensor's last word, which may end past its
// allocation) on are not copied whole: the row's elements there are stored
// by this thread, and it returns true.
// A thread takes words w = tid, tid + kThreads, ...: word j of row r, both
// stepped by constants, so its row's address, the stage's place and the
// bounds take a few 32-bit operations a word (dividing w each time, and
// testing 64-bit bounds, took 34 instructions a 16-byte word, a third of
// an aligned f32 panel's; ncu, H200). The tensor's last word is tested
// only in a stage that reaches it.
template <int kThreads, int kRowBytes, bool kEvictFirst, class T, class Index>
__device__ __forceinline__ bool copy_stage_words(unsigned char *stage, const T *src, Index step, int count, int n,
                                                 u64 safe_end) {
  constexpr int kWords = kRowBytes / 16; // a row's words, at most (edges pitches: 16 to 31 bytes to spare)
  constexpr int kRowsStep = kThreads / kWords, kWordStep = kThreads % kWords;
  // The first row's place in its word, when the pitch follows the tensor's
  // off the grid (on it, each row's place repeats the first's or is its own).
  const unsigned lead = kRowBytes % 16 ? unsigned(reinterpret_cast<u64>(src)) & 15u : 0u;
  const u64 policy = kEvictFirst ? l2_evict_first() : 0;
  const unsigned bytes = unsigned(n) * unsigned(sizeof(T)); // a row's
  const unsigned stage_at = shared_address(stage);
  // (Rows ascend in memory: the last row's end bounds the stage's.)
  const bool reaches_end =
      count > 0 && reinterpret_cast<u64>(src + Index(count - 1) * step) + bytes > safe_end; // (the block's alike)
  int r = int(threadIdx.x) / kWords, j = int(threadIdx.x) % kWords;
  const T *row = src + Index(r) * step;
  bool by_hand = false;
#pragma unroll 4
  while (r < count) {
    const u64 begin = reinterpret_cast<u64>(row);
    const unsigned at = unsigned(begin) & 15u; // the row's place in its first word
    const u64 word = (begin & ~u64(15)) + unsigned(j) * 16u;
    const unsigned place = ((lead + unsigned(r * kRowBytes)) & ~15u) + unsigned(j) * 16u;
    if (unsigned(j) * 16u < at + bytes) { // the word holds some of the row
      if (!reaches_end || word < safe_end) {
        copy_word_async_to<kEvictFirst>(stage_at + place, reinterpret_cast<const void *>(word), policy);
      } else { // the tensor's last word, rarely
        for (u64 e = max(begin, word); e < begin + bytes; e += sizeof(T))
          *reinterpret_cast<T *>(stage + place + (e - word)) = *reinterpret_cast<const T *>(e);
        by_hand = true;
      }
    }
    r += kRowsStep;
    row += Index(kRowsStep) * step;
    j += kWordStep;
    if (kWordStep != 0 && j >= kWords) {
      j -= kWords;
      ++r;
      row += step;
    }
  }
  return by_hand;
}

template <class P, int kStages, int kRows, int kPanel, int kGroups, bool kStageTotals, bool kEdges>
struct ColumnStages {
  typedef typename P::In In;
  static_assert(kPanel * sizeof(In) % 16 == 0, "stage rows start on 16-byte words");
  // Rows off the 16-byte grid (edges plans) land at their own place in
  // their first word: a word to spare each. Their pitch matches the
  // tensor's modulo 16 bytes (up to 15 bytes more), so row r of a stage lies
  // r pitches past its first row, wherever that lies in its word: the rows'
  // addresses are offsets known at compile time (a shift per row took 10
  // instructions of the ~19 that read a row of two f16 columns and a mask).
  // Except 1-byte elements summed into 8 bytes (kWideByteSlices): their
  // whole slices of 24 rows hold 96 registers of values, and with every
  // row's offset known, ptxas hoists all their loads and spills (prod
  // i8[4132,9971] dim=0); their pitches stay on the grid and each row finds
  // its own place.
  static constexpr bool kWideByteSlices = sizeof(In) == 1 && sizeof(typename P::Acc) == 8;
  static constexpr bool kPitchFollowsTensor = kEdges && !kWideByteSlices;
  __host__ __device__ static constexpr int residue(unsigned long long bytes) {
    return kPitchFollowsTensor ? int(bytes & 15u) : 0;
  }
  static constexpr int kPad = kEdges ? 16 : 0;
  static constexpr int kRowBytes =
      kPanel * int(sizeof(In)) + kPad + residue((unsigned long long)P::Scan::kIn * sizeof(In));
  static constexpr int kMaskRowBytes = P::kMask ? kPanel + kPad + residue((unsigned long long)P::Scan::kMask) : 16;
  // A stage: edges rows start up to 15 bytes on, and a word more holds the
  // last. Mirrors columnStageBytes() in compiler/ColumnPlanner.cpp.
  __host__ __device__ static constexpr int stage_bytes(int pitch) {
    return kEdges ? (kRows * pitch + 15) / 16 * 16 + 16 : kRows * pitch;
  }
  alignas(128) unsigned char in[kStages][stage_bytes(kRowBytes)];
  alignas(16) unsigned char mask[kStages][stage_bytes(kMaskRowBytes)];
  u64 full[kStages];
  // Each group's slice total per column, per stage for resident pieces (a
  // single unused value for one group otherwise).
  static constexpr bool kTotals = kGroups > 1 || kStageTotals;
  typename P::Acc partial[kStageTotals ? kStages : 1][kTotals ? kGroups : 1][kTotals ? kPanel : 1];
};

// Panels of a column plan: lines x column panels of kThreads / kGroups x
// kVector columns.
template <class P, class Plan> __host__ __device__ constexpr long long column_panel_columns() {
  return (long long)Plan::kThreads / Plan::kGroups * Plan::kVector;
}
template <class P, class Plan> __host__ __device__ constexpr long long column_panels(long long lines) {
  return lines * ((P::Inner::kSize + column_panel_columns<P, Plan>() - 1) / column_panel_columns<P, Plan>());
}

template <class P, class Plan> __host__ __device__ constexpr long long column_workspace_bytes(long long lines) {
  return column_pieces_workspace_bytes(column_panels<P, Plan>(lines), Plan::kPieces, column_panel_columns<P, Plan>(),
                                       int(sizeof(typename P::Acc)), Plan::kPieceSpans);
}

template <class P, class Plan>
__device__ __forceinline__ void column_scan_pipelined(const typename P::In *in, const u8 *mask,
                                                      typename P::Out *out, void *workspace, long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::In In;
  typedef typename P::Scan Scan;
  typedef SerialRun<typename P::Op, Acc> Run; // a column's running value along its rows
  constexpr int T = Plan::kThreads, V = Plan::kVector, S = Plan::kStages, R = int(Plan::kRowsPerChunk);
  constexpr int G = Plan::kGroups;
  static_assert(T % (32 * G) == 0, "each group is whole warps");
  constexpr int kPanel = T / G * V;
  constexpr long long L = P::kLength;
  constexpr long long C = P::Inner::kSize;
  constexpr long long kPanels = (C + kPanel - 1) / kPanel;
  constexpr long long kChunks = (L + R - 1) / R; // stages' worth of rows along the scan
  constexpr int kPieces = Plan::kPieces;
  constexpr long long kPieceChunks = (kChunks + kPieces - 1) / kPieces;
  static_assert(kPieces == 1 || (kChunks + kPieceChunks - 1) / kPieceChunks == kPieces, "no piece is empty");
  static_assert(kPanel == column_panel_columns<P, Plan>(), "the panel the workspace is sized for");
  // Pieces no longer than the stages are loaded once (both passes read the stages).
  constexpr bool kResident = kPieces > 1 && kPieceChunks <= S;
  typedef ColumnStages<P, S, R, kPanel, G, kResident, Plan::kEdges> Stages;
  Stages &st = dynamic_stages<Stages, Plan>();
  const long long all_panels = lines * kPanels;
  ColumnPieces<typename P::Op, Acc, kPieces, kPanel, Plan::kPieceSpans> pieces(workspace, all_panels);

  // This block's panel and piece: a ticket when there are pieces.
  long long unit = blockIdx.x;
  if constexpr (kPieces > 1)
    unit = pieces.take_ticket();
  const long long panel = kPieces > 1 ? unit % all_panels : unit;
  const int piece = kPieces > 1 ? int(unit / all_panels) : 0;
  const Index line = Index(panel / kPanels);
  const Index col0 = Index(panel % kPanels) * kPanel;
  // The piece's chunks (in scan order), passed over twice after the first
  // piece: sequence position q < totaling is the totaling pass. A stage
  // holds position q, or with resident pieces the q-th chunk of the pass.
  // (Chunk counts in the plan's index type: a chunk's first row is an
  // index. In 64 bits, q % S and the chunks' bounds took a 64-bit division
  // and a dozen more instructions a stage.)
  const Index k_begin = Index(piece) * Index(kPieceChunks);
  const Index k_count = Index(min(kChunks, (long long)k_begin + kPieceChunks)) - k_begin;
  const Index totaling = piece > 0 || kResident ? k_count : 0, sequence = totaling + k_count;
  auto chunk_at = [&](Index q) { return k_begin + (q < totaling ? q : q - totaling); };
  auto stage_at = [&](Index q) { return int(kResident ? chunk_at(q) - k_begin : q % Index(S)); };
  const Index loads = kResident ? k_count : sequence; // chunks that go through a stage
  Offsets<Index> o = line_offsets<Index, typename P::Lines>(line);
  o.in += col0;
  o.out += col0;
  o.mask += col0;
  const int panel_elems = int(min((long long)kPanel, C - (long long)col0));

  // Chunk k (in scan order) covers rows [first, first + count) in memory order.
  auto chunk_rows = [&](Index k, Index &first, int &count) {
    const Index lo = k * Index(R);
    count = int(min(Index(R), Index(L) - lo));
    // (Reversed: L - lo - count, written so that it does not depend on the
    // min above: so, ptxas held reversed single-line panels off the grid at
    // 124-150 registers, one block an SM, against forward's 94; now 90-100.)
    first = P::kReverse ? max(Index(L) - lo - Index(R), Index(0)) : lo;
  };
  // Edges plans: the start of the tensors' last 16-byte words, which are
  // not bulk-copied (copy_run_as_words), and a stage row's place in its
  // first word.
  const TensorLastWords<P> last_words(in, mask, lines);
  // (The low 4 bits of an address: 32-bit arithmetic suffices.)
  const unsigned in_at = unsigned(reinterpret_cast<u64>(in + o.in));
  const unsigned mask_at = unsigned(reinterpret_cast<u64>(mask + o.mask));
  auto in_shift = [&](Index row) {
    return Plan::kEdges ? int((in_at + unsigned(row) * unsigned(Scan::kIn * sizeof(In))) & 15u) : 0;
  };
  auto mask_shift = [&](Index row) {
    return Plan::kEdges ? int((mask_at + unsigned(row) * unsigned(Scan::kMask)) & 15u) : 0;
  };
  // Where row r of a stage holding rows from `first` on begins: r pitches
  // past the first row's place, or (pitches on the grid) at its own place
  // in the r-th pitch. Its words start at the word this lies in.
  auto in_row_at = [&](Index first, int r) {
    return Stages::kPitchFollowsTensor ? in_shift(first) + r * Stages::kRowBytes
                                       : r * Stages::kRowBytes + in_shift(first + Index(r));
  };
  auto mask_row_at = [&](Index first, int r) {
    return Stages::kPitchFollowsTensor ? mask_shift(first) + r * Stages::kMaskRowBytes
                                       : r * Stages::kMaskRowBytes + mask_shift(first + Index(r));
  };
  // Every thread fills its share of stage `s` with chunk k: a bulk copy per
  // row (of the whole words holding it, in an edges plan), the bytes it
  // expects on the stage's barrier, then its arrival (T a phase). Copies
  // with per-thread addresses issue one lane at a time: warp 0 alone spent a
  // sixth of the column kernel's time issuing them (H100, Nsight Compute).
  // (A plan without edges is launched only with pointers on the 16-byte
  // grid: tile_pipeline.cuh.)
  // With word copies (Plan::kWordCopies), every thread instead copies its
  // share of the stage's 16-byte words (copy_stage_words), tracked on the
  // same barrier.
  auto fill = [&](int s, Index k) {
    Index first;
    int count;
    chunk_rows(k, first, count);
    if constexpr (Plan::kWordCopies) {
      bool by_hand = copy_stage_words<T, Stages::kRowBytes, Plan::kEvictFirst>(
          st.in[s], in + o.in + first * Index(Scan::kIn), Index(Scan::kIn), count, panel_elems, last_words.in);
      if constexpr (P::kMask)
        by_hand |= copy_stage_words<T, Stages::kMaskRowBytes, Plan::kEvictFirst>(
            st.mask[s], mask + o.mask + first * Index(Scan::kMask), Index(Scan::kMask), count, panel_elems,
            last_words.mask);
      // One arrival a thread: once its copies complete, or, where it stored
      // elements itself, after them (a release, as a bulk copy's thread).
      if (by_hand) {
        cp_async_wait_all();
        mbarrier_arrive(&st.full[s]);
      } else {
        mbarrier_arrive_on_async_copies(&st.full[s]);
      }
    } else {
      if (!Plan::kEdges && int(threadIdx.x) < count) {
        const unsigned rows = unsigned(count - 1 - int(threadIdx.x)) / unsigned(T) + 1;
        mbarrier_expect_tx(&st.full[s], rows * unsigned(panel_elems) * unsigned(sizeof(In) + (P::kMask ? 1 : 0)));
      }
#pragma unroll 1
      for (int r = threadIdx.x; r < count; r += T) {
        const Index row = first + Index(r);
        const In *src = in + o.in + row * Index(Scan::kIn);
        const u8 *keep = mask + o.mask + row * Index(Scan::kMask);
        if (Plan::kEdges) {
          copy_run_as_words<Plan::kEvictFirst>(st.in[s] + (in_row_at(first, r) & ~15), src, unsigned(panel_elems),
                                               last_words.in, &st.full[s]);
          if (P::kMask)
            copy_run_as_words<Plan::kEvictFirst>(st.mask[s] + (mask_row_at(first, r) & ~15), keep,
                                                 unsigned(panel_elems), last_words.mask, &st.full[s]);
        } else {
          bulk_copy_to_shared<Plan::kEvictFirst>(st.in[s] + r * Stages::kRowBytes, src,
                                                 unsigned(panel_elems) * unsigned(sizeof(In)), &st.full[s]);
          if (P::kMask)
            bulk_copy_to_shared<Plan::kEvictFirst>(st.mask[s] + r * Stages::kMaskRowBytes, keep, unsigned(panel_elems),
                                                   &st.full[s]);
        }
      }
      mbarrier_arrive(&st.full[s]);
    }
  };

  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s)
      mbarrier_init(&st.full[s], T);
  if (threadIdx.x == 0)
    mbarrier_init_fence();
  __syncthreads();
  for (Index q = 0; q < Index(S) && q < loads; ++q)
    fill(stage_at(q), chunk_at(q));

  const int my = int(threadIdx.x % (T / G)) * V; // this thread's first column in the panel
  const int group = int(threadIdx.x / (T / G));
  const Index valid = Index(panel_elems - my);
  // Where the output's pitch keeps a thread's columns of every row on their
  // vector's grid, the first row's place decides whether all leave as one
  // vector, once: the scan loop is compiled for each answer. (Tested a row
  // at a time, both stores issued, predicated, and with the test they took
  // a third of an aligned f32 panel's scan pass; ncu, H200.) Not for
  // Stages::kWideByteSlices, whose slices already hold 96 registers of
  // values: a second scan loop spilled 92 stores against 60 (sum
  // i8[4,5003,150] dim=1 mask, sm_90).
  constexpr bool kVersionedStores = V > 1 && !Stages::kWideByteSlices &&
                                    Scan::kOut * sizeof(typename P::Out) % (V * sizeof(typename P::Out)) == 0;
  const bool out_vectors =
      kVersionedStores && valid >= V && VectorAccess<typename P::Out, V>::is_aligned(out + o.out + my);
  Acc carry[V];
#pragma unroll
  for (int v = 0; v < V; ++v)
    carry[v] = P::Op::identity();
  // Row i (in scan order) of stage s, holding rows from `first` on, this
  // thread's columns, lifted.
  auto lifted = [&](int s, Index first, int count, int i, Acc (&x)[V]) {
    const int r = P::kReverse ? count - 1 - i : i; // row within the stage, in memory order
    const In *src = reinterpret_cast<const In *>(st.in[s] + in_row_at(first, r)) + my;
    const u8 *keep_src = st.mask[s] + (P::kMask ? mask_row_at(first, r) : r * Stages::kMaskRowBytes) + my;
    In raw[V];
    u8 keep[V];
    if (Plan::kEdges) { // rows at their own place in a word: element loads
#pragma unroll
      for (int v = 0; v < V; ++v) {
        raw[v] = src[v];
        keep[v] = P::kMask ? keep_src[v] : u8(1);
      }
    } else {
      VectorAccess<In, V>::load_shared(src, raw); // stage rows and column groups are aligned
      if (P::kMask)
        VectorAccess<u8, V>::load_shared(keep_src, keep);
    }
#pragma unroll
    for (int v = 0; v < V; ++v)
      x[v] = v < valid && (!P::kMask || keep[v] != 0) ? Convert<In>::template load<Acc>(raw[v]) : P::Op::identity();
  };
  // With span totals, group 0 publishes its columns' (8-byte values a
  // column at a time, as their windows), leaving the totals of the 7 pieces
  // before this one in `recent`.
  auto publish_span = [&](Acc (&recent)[V]) {
    if constexpr (sizeof(Acc) == 4) {
      pieces.template publish_span<V>(panel, piece, my, int(valid), carry, recent);
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v)
        if (v < valid) {
          const Acc own[1] = {carry[v]};
          Acc one[1];
          pieces.template publish_span<1>(panel, piece, my + v, 1, own, one);
          recent[v] = one[0];
        }
    }
  };
  for (Index q = 0; q < sequence; ++q) {
    const int s = stage_at(q);
    const Index k = chunk_at(q);
    if constexpr (kPieces > 1) {
      // Totaled (every group holds the same carry): group 0 publishes its
      // columns' totals, finds their prefix, publishes the inclusive one,
      // and hands the prefix to the other groups, which then scan from it.
      if (q == totaling && totaling > 0) {
        if constexpr (kResident) {
          // Every stage's slice totals are in: each thread combines its
          // columns' in one order (stages, then groups), so all agree.
          __syncthreads();
          if (valid > 0)
            for (int t = 0; t < k_count; ++t)
              for (int h = 0; h < G; ++h)
#pragma unroll
                for (int v = 0; v < V; ++v)
                  carry[v] = combine_cold<typename P::Op>(carry[v], st.partial[t][h][my + v]);
        }
        __shared__ Acc prefix[kPanel];
        if (group == 0 && valid > 0) {
          pieces.template publish_aggregates<V>(panel, piece, my, int(min(valid, Index(V))), carry);
          Acc recent[V];
#pragma unroll
          for (int v = 0; v < V; ++v)
            recent[v] = P::Op::identity();
          publish_span(recent); // before this piece waits for its prefix
          if (piece == 0) { // (resident) nothing before it
            pieces.template publish_inclusives<V>(panel, piece, my, int(min(valid, Index(V))), carry);
#pragma unroll
            for (int v = 0; v < V; ++v)
              prefix[my + v] = P::Op::identity();
          } else if constexpr (sizeof(Acc) == 4) {
            Acc before[V], inclusive[V];
            pieces.template prefixes<V>(panel, piece, my, int(valid), recent, before);
#pragma unroll
            for (int v = 0; v < V; ++v) {
              inclusive[v] = combine_cold<typename P::Op>(before[v], carry[v]);
              prefix[my + v] = before[v];
            }
            pieces.template publish_inclusives<V>(panel, piece, my, int(min(valid, Index(V))), inclusive);
          } else {
#pragma unroll
            for (int v = 0; v < V; ++v) {
              Acc before[1] = {P::Op::identity()};
              if (v < valid) {
                const Acc one[1] = {recent[v]};
                pieces.template prefixes<1>(panel, piece, my + v, 1, one, before);
                pieces.publish_inclusive(panel, piece, my + v, combine_cold<typename P::Op>(before[0], carry[v]));
              }
              prefix[my + v] = before[0];
            }
          }
        }
        if constexpr (G > 1)
          __syncthreads();
        if (valid > 0)
#pragma unroll
          for (int v = 0; v < V; ++v)
            carry[v] = prefix[my + v];
      }
    }
    const bool store = q >= totaling; // the totaling pass only combines
    const bool loaded = !kResident || q < loads; // a resident piece's scan reads the stages again
    if (loaded)
      mbarrier_wait(&st.full[s], unsigned((q / S) & 1));
    Index first;
    int count;
    chunk_rows(k, first, count);
    const int slice = (count + G - 1) / G; // rows per group, in scan order
    const int lo = min(count, group * slice), hi = min(count, lo + slice);
    // A group reads its rows from the stage into registers ahead of their
    // scan, Plan::kUnroll at a time (the plan's `unroll`), or when that
    // covers its slice, the whole slice (every chunk but a short last one)
    // at once, kept for both the totals and the scan, so each element is read
    // once. Row by row, each row waited on its own shared-memory load (the
    // 3-D middle dim ran at 1.36x copy). The whole slice of 24 rows is a
    // third of a column kernel's compile time, and aligned panels of 2-byte
    // elements ran 9-22% faster eight rows at a time (BENCHMARKS.md).
    // Log-sum-exp's plans go two rows at a time: a row's exp and log then
    // overlap the next's (f32 [32768,1024] dim=0: 2.27 -> 2.06x copy; four:
    // 1.98x, at a third more compile time); its combine, unrolled over a
    // slice twice, took a column kernel's compile from 0.2 s to 1.4 s (f64).
    constexpr int kSlice = (R + G - 1) / G;
    constexpr bool kWholeSlice = CheapCombine<typename P::Op>::value && Plan::kUnroll >= kSlice;
    constexpr int kRowsAhead = kWholeSlice ? 1 : Plan::kUnroll; // (then only a short last chunk goes row by row)
    const bool whole = kWholeSlice && hi - lo == kSlice && valid > 0;
    Acc xs[kSlice][V]; // (unused, and left out by the compiler, unless whole)
    if (whole) {
#pragma unroll
      for (int i = 0; i < kSlice; ++i)
        lifted(s, first, count, lo + i, xs[i]);
    }
    Acc run[V]; // the running value: the carry, then each slice total before this group's
#pragma unroll
    for (int v = 0; v < V; ++v)
      run[v] = carry[v];
    if (kResident && store) {
      // The totaling pass left this stage's slice totals.
      const int t = int(k - k_begin);
      if (valid > 0)
        for (int h = 0; h < G; ++h) {
#pragma unroll
          for (int v = 0; v < V; ++v) {
            if (h < group)
              run[v] = combine_cold<typename P::Op>(run[v], st.partial[t][h][my + v]);
            carry[v] = combine_cold<typename P::Op>(carry[v], st.partial[t][h][my + v]);
          }
        }
    } else if constexpr (G > 1 || kResident) {
      if (valid > 0) {
        typename Run::Value total[V];
#pragma unroll
        for (int v = 0; v < V; ++v)
          total[v] = Run::of(P::Op::identity());
        if (whole) {
#pragma unroll
          for (int i = 0; i < kSlice; ++i)
#pragma unroll
            for (int v = 0; v < V; ++v)
              total[v] = Run::step(total[v], xs[i][v]);
        } else {
#pragma unroll kRowsAhead
          for (int i = lo; i < hi; ++i) {
            Acc x[V];
            lifted(s, first, count, i, x);
#pragma unroll
            for (int v = 0; v < V; ++v)
              total[v] = Run::step(total[v], x[v]);
          }
        }
        const int t = kResident ? int(k - k_begin) : 0;
#pragma unroll
        for (int v = 0; v < V; ++v)
          st.partial[t][group][my + v] = Run::value(total[v]);
      }
      // Resident: the totals meet once, after the totaling pass.
      if (!kResident)
        __syncthreads();
      if (!kResident && valid > 0) {
        // Every group combines the totals in the same order, so all agree
        // on the next carry bit for bit.
        for (int h = 0; h < G; ++h) {
#pragma unroll
          for (int v = 0; v < V; ++v) {
            if (h < group)
              run[v] = combine_cold<typename P::Op>(run[v], st.partial[0][h][my + v]);
            carry[v] = combine_cold<typename P::Op>(carry[v], st.partial[0][h][my + v]);
          }
        }
      }
    }
    // Row i of the slice (in scan order): scanned from `line` and stored.
    typename Run::Value line[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      line[v] = Run::of(run[v]);
    // (vectors: every row's results leave as one vector; a constant where
    // the lambdas are inlined, so each call below compiles its own loop.)
    auto scan_row = [&](int i, const Acc (&x)[V], bool vectors) {
      const int r = P::kReverse ? count - 1 - i : i;
      const Index row = first + Index(r);
      Acc res[V];
#pragma unroll
      for (int v = 0; v < V; ++v) {
        const typename Run::Value before = line[v];
        line[v] = Run::step(line[v], x[v]);
        res[v] = Run::value(P::kExclusive ? before : line[v]);
      }
      if (store) {
        typename P::Out *dst = out + o.out + row * Index(Scan::kOut) + my;
        if (vectors)
          store_converted_vector<P, V>(dst, res);
        else
          store_converted<P, V, 1>(dst, valid, res);
      }
    };
    // Several groups (or a resident piece) total the rows without a scan;
    // one group scans to total.
    const bool scan = (G == 1 && !kResident) || store;
    auto scan_slice = [&](bool vectors) {
      if (whole && scan) {
#pragma unroll
        for (int i = 0; i < kSlice; ++i)
          scan_row(lo + i, xs[i], vectors);
      } else if (valid > 0 && scan) {
#pragma unroll kRowsAhead
        for (int i = lo; i < hi; ++i) {
          Acc x[V];
          lifted(s, first, count, i, x);
          scan_row(i, x, vectors);
        }
      }
    };
    if (out_vectors) // (always false where kVersionedStores is false)
      scan_slice(true);
    else
      scan_slice(false);
    if constexpr (G == 1 && !kResident) {
#pragma unroll
      for (int v = 0; v < V; ++v)
        carry[v] = Run::value(line[v]);
    }
    // Every thread has read stage s: refill it with the chunk S ahead
    // (resident pieces' stages are never refilled).
    if constexpr (!kResident) {
      __syncthreads();
      if (q + S < loads)
        fill(s, chunk_at(q + S));
    }
  }
  if constexpr (kPieces > 1) {
    if (totaling == 0 && group == 0 && valid > 0) { // the first piece: its total is its inclusive prefix
      pieces.template publish_aggregates<V>(panel, piece, my, int(min(valid, Index(V))), carry);
      pieces.template publish_inclusives<V>(panel, piece, my, int(min(valid, Index(V))), carry);
      Acc unused[V];
      publish_span(unused);
    }
  }
}

} // namespace scanjit
