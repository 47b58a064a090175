// The column family's planner: a scan that steps over rows while another
// dim is contiguous. Threads across the columns; on sm_90, where the columns
// are too few to fill the GPU, tiles of whole rows (column_tiles.cuh) or the
// bulk-copy pipeline (column_pipeline.cuh) with its panels and pieces.
#include "compiler/PlannerPolicy.h"
#include "compiler/PlannerShared.h"

#include <optional>

namespace scanjit::planning {
namespace {

// Columns per thread: as wide as the access budget allows.
int columnVectorByBytes(const ScanSpec &spec) {
  return std::max(1, std::min({policy::ColumnPolicy::kLoadBytes / dtypeSize(spec.in),
                               policy::ColumnPolicy::kStoreBytes / dtypeSize(spec.out),
                               policy::ColumnPolicy::kAccBytes / dtypeSize(accumulatorType(spec))}));
}

// Columns per thread: as wide as the access budget allows while every
// non-inner stride stays a multiple of it, so one aligned column group
// implies all are aligned.
int columnVector(const ScanSpec &spec, const ScanGeometry &g) {
  int v = columnVectorByBytes(spec);
  auto allMultiples = [&](int v) {
    auto ok = [&](const GeometryDim &d) { return d.in % v == 0 && d.out % v == 0 && d.mask % v == 0; };
    return ok(g.scan) && std::all_of(g.lines.begin(), g.lines.end(), ok);
  };
  while (v > 1 && !allMultiples(v))
    v /= 2;
  return v;
}

// Pieces along each panel's scan of `chunks` stages' worth of rows: with
// few panels, pieces as long as the stages (each loaded once), so that
// many more blocks share the work, up to kMaxPieces or a piece a
// kPieceChainBytes of the problem's `bytes` (longer ones stream twice), or
// on at most kPieceSpansMaxPanels panels whose pieces would number more than
// kMaxPieces, up to kMaxSpanPieces looking back over span totals (`spans`);
// tuned, any count (fewer pieces may take span totals too, once the
// occupancy is known: fitColumnStages). The kernel cuts ceil(chunks /
// pieces) chunks a piece, so the count is adjusted until none is empty.
int columnPieces(const PlanTuning &tuning, int threads, int64_t panels, int64_t chunks, int stages,
                 int64_t bytes, bool &spans) {
  // A piece's thread needs more registers than a block of more than 512
  // threads leaves it (64: f64 log-sum-exp spilled).
  const bool roomy = threads * policy::ColumnPolicy::kPieceMinRegisters <= policy::kRegistersPerSm;
  const int64_t asLongAsTheStages = ceilDiv(chunks, stages);
  spans = pickFlag(tuning.pieceSpans, panels <= policy::ColumnPolicy::kPieceSpansMaxPanels &&
                                          asLongAsTheStages > policy::ColumnPolicy::kMaxPieces);
  int64_t pieces = 1;
  if (tuning.pieces)
    pieces = std::min<int64_t>(tuning.pieces, chunks);
  else if (panels < policy::ColumnPolicy::kPieceMinPanels && roomy)
    pieces = std::min<int64_t>(asLongAsTheStages, spans ? policy::ColumnPolicy::kMaxSpanPieces
                                                        : std::max(policy::ColumnPolicy::kMaxPieces,
                                                                   bytes / policy::ColumnPolicy::kPieceChainBytes));
  pieces = ceilDiv(chunks, ceilDiv(chunks, pieces));
  spans = spans && pieces > 1;
  return int(pieces);
}

// Mirrors column_pieces_workspace_bytes() in templates/scanjit/column_pieces.cuh:
// a counter, then two flagged values (twice the accumulator's size) per
// column of each piece but a panel's last, three with span totals.
int64_t columnPiecesWorkspaceBytes(int64_t panels, int pieces, int64_t panelColumns, int accBytes, bool spans) {
  return pieces > 1 ? 16 + (spans ? 3 : 2) * panels * (pieces - 1) * panelColumns * 2 * accBytes : 0;
}

// A stride's bytes modulo 16 (strides may be negative).
int64_t wordResidue(int64_t bytes) { return ((bytes % 16) + 16) % 16; }

// One stage of `rows` rows of `pitch` bytes; edges plans' rows lie at their
// place in a word, up to 15 bytes on, and a word more holds the last.
// Mirrors ColumnStages::stage_bytes in templates/scanjit/column_pipeline.cuh.
int64_t columnStageBytes(int64_t rows, int64_t pitch, bool edges) {
  return edges ? (rows * pitch + 15) / 16 * 16 + 16 : rows * pitch;
}

// The problem's elements, its lines counted as its class has them (a batch
// class shares its kernel).
int64_t classElements(const PlanTuning &tuning, const ScanGeometry &g) {
  return classCount(tuning, g.numLines()) * g.scan.size * g.inner.size;
}

// Sums and products of 8-byte elements take a column a thread
// (ColumnPolicy::kEightByteSums*), on the grid or off it.
bool eightByteColumnAThread(const ScanSpec &spec) { return cheapCombine(spec) && dtypeSize(spec.in) == 8; }

// Sums and products of f16 and bf16, which have column rules of their own
// (ColumnPolicy::kPipelineThreadsTwoByteSums and the rules after it).
bool twoByteFloatSums(const ScanSpec &spec) {
  return cheapCombine(spec) && dtypeSize(spec.in) == 2 && isFloating(spec.in);
}

// Rows a group of a column pipeline reads from its stage ahead of their
// scan: its whole slice of `slice` rows (held in registers) where
// ColumnPolicy::kRowsAhead* do not apply.
int columnRowsAhead(const ArchPolicy &arch, const ScanSpec &spec, bool edges, int64_t slice) {
  const int64_t inBytes = dtypeSize(spec.in), accBytes = dtypeSize(accumulatorType(spec));
  if (spec.op == ScanOp::LogSumExp)
    return accBytes == 4 ? policy::ColumnPolicy::kLogSumExpFloatRowsAhead : policy::ColumnPolicy::kLogSumExpRowsAhead;
  if (inBytes == 1 && accBytes == 8 && !arch.timed)
    return int(std::min<int64_t>(slice, policy::ColumnPolicy::kRowsAheadUntimedByteSums));
  if (inBytes == 2 && accBytes == 8 && edges)
    return int(std::min<int64_t>(slice, policy::ColumnPolicy::kRowsAheadTwoByteIntoWideEdges));
  // (Edges plans keep the slice, but those of a column a thread: 4 rows.)
  if ((edges && !eightByteColumnAThread(spec)) || inBytes == 1)
    return int(slice);
  return int(std::min<int64_t>(slice, inBytes == 2 ? policy::ColumnPolicy::kRowsAheadTwoByte
                                                   : policy::ColumnPolicy::kRowsAhead));
}

// The stages, panels and pieces with `groups` threads to a column; false
// (and the plan untouched) when not even a row fits a stage.
// Mirrors ColumnStages in templates/scanjit/column_pipeline.cuh.
bool fitColumnStages(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                     bool edges, int groups, int threads,
                     int maxRows = policy::ColumnPolicy::kMaxRowsPerStage) {
  const ScanGeometry &g = plan.geometry;
  const int64_t inBytes = dtypeSize(spec.in);
  // Columns per thread, no wider than the strides allow (columnVector),
  // except in edges plans: they read their stages an element at a time and
  // check the output's alignment as they store.
  const int vector = std::min(pick(tuning.vector, policy::ColumnPolicy::kPipelineVector),
                              edges ? columnVectorByBytes(spec) : columnVector(spec, g));
  // A panel of groupThreads x vector columns, `groups` threads to a column:
  // the policy's panel width, or a block of `threads` split in groups.
  const int groupThreads = threads ? std::max(32, threads / groups / 32 * 32)
                                   : std::max(32, policy::ColumnPolicy::kPipelineColumns / vector);
  groups = std::max(1, std::min(groups, 1024 / groupThreads));
  const int64_t panel = int64_t(groupThreads) * vector;
  // Rows off the grid land at their place in a word: a word to spare each,
  // and the stage's row pitch matches the tensor's modulo 16 bytes (up to
  // 15 more; not for 1-byte elements summed into 8 bytes, which would spill),
  // so a row's place follows from its chunk's first row's. The policy's rows
  // per stage count the word alone.
  const int64_t pad = edges ? 16 : 0;
  const int64_t rowBytes = panel * inBytes + pad, maskRowBytes = spec.mask ? panel + pad : 16;
  const int64_t perRow = rowBytes + maskRowBytes;
  const int64_t accBytes = dtypeSize(accumulatorType(spec));
  const bool pitchFollowsTensor = edges && !(inBytes == 1 && accBytes == 8); // (ColumnStages::kPitchFollowsTensor)
  const int64_t inPitch = rowBytes + (pitchFollowsTensor ? wordResidue(g.scan.in * inBytes) : 0);
  const int64_t maskPitch = maskRowBytes + (pitchFollowsTensor && spec.mask ? wordResidue(g.scan.mask) : 0);
  auto stageBytes = [&](int64_t stageRows) {
    return columnStageBytes(stageRows, inPitch, edges) + columnStageBytes(stageRows, maskPitch, edges);
  };
  const int stages = pick(tuning.stages, policy::ColumnPolicy::kPipelineStages);
  // Slice totals: per stage for resident pieces (bounded here as if so).
  const int64_t partialBytes = int64_t(stages) * groups * panel * accBytes;
  // Tuned rows per stage (rows=) still fit the block's shared memory.
  // (A row to spare; edges plans count their pitches' residues too.)
  const int64_t sharedForStages = arch.maxDynamicSharedBytes - 256 - partialBytes;
  int64_t rows = tuning.rows > 0 ? tuning.rows
                                 : std::min<int64_t>(maxRows, policy::ColumnPolicy::kStageBytes / perRow);
  while (rows >= 1 && stages * (stageBytes(rows) + perRow) > sharedForStages)
    --rows;
  if (rows < 1)
    return false;
  plan.edges = edges;
  plan.groups = int(std::min<int64_t>(groups, rows)); // every group scans at least a row
  plan.threads = groupThreads * plan.groups;
  plan.vector = vector;
  plan.unroll = pick(tuning.unroll, columnRowsAhead(arch, spec, edges, ceilDiv(rows, int64_t(plan.groups))));
  plan.rowsPerChunk = rows;
  plan.stages = stages;
  plan.evictFirst = pickFlag(tuning.evictFirst, policy::ColumnPolicy::kPipelineEvictFirst);
  const int64_t panels = g.numLines() * ceilDiv(g.inner.size, panel);
  const int64_t chunks = ceilDiv(g.scan.size, rows);
  const int64_t bytes = classElements(tuning, g) * (inBytes + dtypeSize(spec.out) + (spec.mask ? 1 : 0));
  plan.pieces = columnPieces(tuning, plan.threads, panels, chunks, stages, bytes, plan.pieceSpans);
  plan.wordCopies =
      !arch.bulkCopy || pickFlag(tuning.wordCopies, policy::ColumnPolicy::kPipelineWordCopies && plan.pieces > 1);
  // Pieces no longer than the stages stay resident and keep every stage's
  // slice totals; otherwise several groups exchange one stage's at a time.
  const bool resident = plan.pieces > 1 && ceilDiv(chunks, plan.pieces) <= stages;
  const int64_t totalsBytes =
      resident ? int64_t(stages) * plan.groups * panel * accBytes
               : (plan.groups > 1 ? int64_t(plan.groups) * panel * accBytes : 0);
  plan.sharedBytes = plan.stages * (stageBytes(rows) + 8) + totalsBytes + 256;
  plan.grid = panels * plan.pieces;
  if (plan.pieces > 1) {
    // Many short blocks: as many per SM as their shared memory allows,
    // registers capped to fit (the prefix window alone took 86 -> 165) but
    // never below kPieceMinRegisters a thread.
    const int bySharedMemory =
        int(arch.sharedBytesPerSm / (plan.sharedBytes + policy::kSharedBytesPerBlockReserved));
    const int byRegisters =
        int(policy::kRegistersPerSm / (int64_t(plan.threads) * policy::ColumnPolicy::kPieceMinRegisters));
    plan.minBlocksPerSm = pick(tuning.occupancy, std::clamp(std::min(bySharedMemory, byRegisters), 1,
                                                            policy::ColumnPolicy::kPieceMaxBlocksPerSm));
    // Fewer pieces look back over span totals too where every SM holds a
    // block of each panel (ColumnPolicy::kPieceSpansWhereSmsHoldEveryPanel).
    plan.pieceSpans = pickFlag(tuning.pieceSpans,
                               plan.pieceSpans || (policy::ColumnPolicy::kPieceSpansWhereSmsHoldEveryPanel &&
                                                   panels <= policy::ColumnPolicy::kPieceSpansMaxPanels &&
                                                   plan.minBlocksPerSm >= panels));
  }
  return true;
}

// A pipeline plan's panel width: threads / groups x vector columns.
// Mirrors column_panel_columns() in templates/scanjit/column_pipeline.cuh.
int64_t panelColumns(int threads, int groups, int vector) { return int64_t(threads) / groups * vector; }
int64_t panelColumns(const KernelPlan &plan) { return panelColumns(plan.threads, plan.groups, plan.vector); }

// Columns that panels of `panel` columns leave idle past the last of `columns`.
int64_t idleColumns(int64_t columns, int64_t panel) { return ceilDiv(columns, panel) * panel - columns; }
int64_t idleColumns(const KernelPlan &plan) { return idleColumns(plan.geometry.inner.size, panelColumns(plan)); }

// Rows of a panel off the 16-byte grid (edges plans, tiles of whole rows):
// its run of columns, the scan's step or a line's stride is not whole
// 16-byte words in the input or the mask, or a launch's pointers are not.
bool columnRowsOffTheGrid(const ScanSpec &spec, const PlanTuning &tuning, const ScanGeometry &g) {
  return tuning.offGrid || !(bulkRun(spec, g.inner.size) && bulkStrides(spec, g.scan) && bulkLines(spec, g.lines));
}

// Whether max and min of 1-byte elements take two threads a column (panels
// of 128, ColumnPolicy::kTwoThreadColumnsByte*): on the 16-byte grid,
// masked or not; off it, unmasked, from kTwoThreadColumnsByteEdgesMinElements
// elements on.
bool byteMaxMinTakeTwoThreads(const ScanSpec &spec, const PlanTuning &tuning, const ScanGeometry &g, bool edges) {
  const bool byteMaxMin = maxOrMin(spec) && dtypeSize(spec.in) == 1;
  const bool large = classElements(tuning, g) >= policy::ColumnPolicy::kTwoThreadColumnsByteEdgesMinElements;
  return byteMaxMin && (!edges || (!spec.mask && large));
}

// Few columns: a block per panel of columns of a line (groups threads per
// column), rows streamed through stages of rowsPerChunk rows when every row
// of a panel can be bulk-copied (16-byte multiples; the kernel checks the
// pointers); with few panels, pieces along the scan, 2 threads a column and
// shorter stages for sums and products.
void planColumnPanels(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &policyTuning,
                      KernelPlan &plan) {
  const ScanGeometry &g = plan.geometry;
  PlanTuning tuning = policyTuning;
  // Rows of a panel off the 16-byte grid (edges=1) are bulk-copied as the
  // whole words that hold them, each landing at its own place in its word.
  const bool edges = columnRowsOffTheGrid(spec, tuning, g);
  // Masked sums and products of 4-byte elements: blocks of 128 and two
  // stages, as if so tuned (ColumnPolicy::kMaskedThreads).
  if (spec.mask && cheapCombine(spec) && dtypeSize(spec.in) == 4 &&
      dtypeSize(accumulatorType(spec)) == 4) {
    tuning.threads = pick(tuning.threads, policy::ColumnPolicy::kMaskedThreads);
    tuning.stages = pick(tuning.stages, policy::ColumnPolicy::kMaskedStages);
  }
  // Unmasked rows off the grid of 4-byte elements and accumulators, on
  // enough panels: panels of 128 columns, blocks of 256
  // (ColumnPolicy::kEdgesWidePanel*).
  const int64_t widePanelColumns = panelColumns(policy::ColumnPolicy::kEdgesWidePanelThreads,
                                                policy::ColumnPolicy::kPipelineGroups,
                                                policy::ColumnPolicy::kPipelineVector);
  if (edges && !spec.mask && spec.op != ScanOp::LogSumExp && dtypeSize(spec.in) == 4 &&
      dtypeSize(accumulatorType(spec)) == 4 &&
      g.numLines() * ceilDiv(g.inner.size, widePanelColumns) >= policy::ColumnPolicy::kEdgesWidePanelsMinPanels)
    tuning.threads = pick(tuning.threads, policy::ColumnPolicy::kEdgesWidePanelThreads);
  // Sums and products of 8-byte elements (f64): a column a thread, four
  // threads to a column, blocks of 256 (eightByteColumnAThread).
  if (eightByteColumnAThread(spec)) {
    tuning.vector = pick(tuning.vector, 1);
    tuning.groups = pick(tuning.groups, policy::ColumnPolicy::kEightByteSumsGroups);
    tuning.threads = pick(tuning.threads, policy::ColumnPolicy::kEightByteSumsThreads);
  }
  // Log-sum-exp: a column a thread, and two threads to a column where its
  // accumulator is a float (ColumnPolicy::kLogSumExpVector, kLogSumExpFloatGroups).
  if (spec.op == ScanOp::LogSumExp) {
    tuning.vector = pick(tuning.vector, policy::ColumnPolicy::kLogSumExpVector);
    if (dtypeSize(accumulatorType(spec)) == 4) {
      tuning.groups = pick(tuning.groups, policy::ColumnPolicy::kLogSumExpFloatGroups);
      tuning.stages = pick(tuning.stages, policy::ColumnPolicy::kLogSumExpFloatStages);
    }
  }
  // At most 32 columns on few panels (a scan cut into pieces), but
  // log-sum-exp: a column a thread in panels of 32, four groups
  // (ColumnPolicy::kFewColumns).
  if (spec.op != ScanOp::LogSumExp && g.inner.size <= policy::ColumnPolicy::kFewColumns &&
      g.numLines() < policy::ColumnPolicy::kPieceMinPanels) {
    tuning.threads = pick(tuning.threads, policy::ColumnPolicy::kFewColumnsThreads);
    tuning.groups = pick(tuning.groups, policy::ColumnPolicy::kFewColumnsGroups);
    tuning.vector = pick(tuning.vector, 1);
  }
  // Unmasked max and min of f16 and bf16, and those of 1-byte elements
  // byteMaxMinTakeTwoThreads() admits (16 rows ahead): panels of 128 columns
  // in blocks of 128, two threads a column (ColumnPolicy::kTwoThreadColumns*).
  const bool twoByteMaxMin = maxOrMin(spec) && dtypeSize(spec.in) == 2 && isFloating(spec.in);
  const bool byteMaxMin = byteMaxMinTakeTwoThreads(spec, tuning, g, edges);
  if ((!spec.mask && twoByteMaxMin) || byteMaxMin) {
    // (A single line of 129 to 192 byte columns: one panel of 192,
    // ColumnPolicy::kTwoThreadColumnsByteOnePanelThreads.)
    const int64_t panel = panelColumns(policy::ColumnPolicy::kTwoThreadColumnsThreads,
                                       policy::ColumnPolicy::kTwoThreadColumnsGroups,
                                       policy::ColumnPolicy::kPipelineVector);
    const int64_t onePanel = panelColumns(policy::ColumnPolicy::kTwoThreadColumnsByteOnePanelThreads,
                                          policy::ColumnPolicy::kTwoThreadColumnsGroups,
                                          policy::ColumnPolicy::kPipelineVector);
    const bool bytesInOnePanel = byteMaxMin && g.numLines() == 1 && g.inner.size > panel && g.inner.size <= onePanel;
    tuning.threads = pick(tuning.threads, bytesInOnePanel ? policy::ColumnPolicy::kTwoThreadColumnsByteOnePanelThreads
                                                          : policy::ColumnPolicy::kTwoThreadColumnsThreads);
    tuning.groups = pick(tuning.groups, policy::ColumnPolicy::kTwoThreadColumnsGroups);
    if (byteMaxMin)
      tuning.unroll = pick(tuning.unroll, policy::ColumnPolicy::kTwoThreadColumnsByteRowsAhead);
  }
  // Masked sums and products of 4-byte elements keep the pipeline's groups
  // with pieces (ColumnPolicy::kMaskedPiecesKeepPipelineGroups).
  const bool maskedPiecesKeepGroups = policy::ColumnPolicy::kMaskedPiecesKeepPipelineGroups && spec.mask &&
                                      cheapCombine(spec) && dtypeSize(spec.in) == 4 &&
                                      dtypeSize(accumulatorType(spec)) == 4;
  const int groups = pick(tuning.groups, policy::ColumnPolicy::kPipelineGroups);
  int threads = tuning.threads;
  if (!fitColumnStages(arch, spec, tuning, plan, edges, groups, threads))
    return;
  const bool pieceGroups =
      (!edges || spec.mask || dtypeSize(spec.in) <= policy::ColumnPolicy::kPieceGroupsMaxUnmaskedEdgesInBytes) &&
      !maskedPiecesKeepGroups;
  auto fitPieceGroups = [&](KernelPlan &p, int blockThreads) {
    if (p.pieces > 1 && !tuning.groups && cheapCombine(spec) && pieceGroups)
      fitColumnStages(arch, spec, tuning, p, edges, policy::ColumnPolicy::kPieceGroups, blockThreads,
                      policy::ColumnPolicy::kPieceMaxRowsPerStage);
  };
  // Sums and products of f16 and bf16: blocks of 256 (wider panels), unless
  // those bring pieces to a plan that had none (bf16[32768,32768] dim=0
  // 1.20 -> 1.31 of copy so; i16, summed in i64, lost too: BENCHMARKS.md),
  // or, on a single line of at most kWidePanelsMaxIdlePanels of them with
  // pieces, leave more columns idle than the narrower panels
  // (ColumnPolicy::kPipelineThreadsTwoByteSums); with pieces, only rows off
  // the grid take them (kWidePanelsWithPiecesOnlyOffTheGrid).
  if (!threads && twoByteFloatSums(spec)) {
    KernelPlan wide = plan;
    const int wideThreads = policy::ColumnPolicy::kPipelineThreadsTwoByteSums;
    const bool widePiecesFit = edges || !policy::ColumnPolicy::kWidePanelsWithPiecesOnlyOffTheGrid;
    if (fitColumnStages(arch, spec, tuning, wide, edges, groups, wideThreads) &&
        (wide.pieces == 1 || (plan.pieces > 1 && widePiecesFit))) {
      fitPieceGroups(wide, wideThreads);
      const bool fewWidePanels =
          g.numLines() == 1 &&
          ceilDiv(g.inner.size, panelColumns(wide)) <= policy::ColumnPolicy::kWidePanelsMaxIdlePanels;
      if (wide.pieces > 1 && fewWidePanels) {
        fitPieceGroups(plan, threads);
        if (idleColumns(plan) < idleColumns(wide))
          return;
      }
      plan = wide;
      return;
    }
    // Unmasked, where even panels of 64 take no pieces: panels of 128 in
    // blocks of 128 (ColumnPolicy::kTwoByteSumsWithoutPiecesTwoThreadColumns).
    KernelPlan twoThreadColumns = plan;
    if (!spec.mask && plan.pieces == 1 && policy::ColumnPolicy::kTwoByteSumsWithoutPiecesTwoThreadColumns &&
        fitColumnStages(arch, spec, tuning, twoThreadColumns, edges, policy::ColumnPolicy::kTwoThreadColumnsGroups,
                        policy::ColumnPolicy::kTwoThreadColumnsThreads)) {
      plan = twoThreadColumns;
      return;
    }
  }
  fitPieceGroups(plan, threads);
}

// Whether columns may take one panel fitted to them, a column a thread
// (ColumnPolicy::kFittedPanelMaxColumns): 2- and 4-byte elements, no
// log-sum-exp (a column a thread already), 33 to 160 columns.
bool fittedPanelFits(const ScanSpec &spec, const ScanGeometry &g) {
  using policy::ColumnPolicy;
  const int64_t C = g.inner.size, inBytes = dtypeSize(spec.in);
  return spec.op != ScanOp::LogSumExp && (inBytes == 2 || inBytes == 4) && C > ColumnPolicy::kFewColumns &&
         C <= ColumnPolicy::kFittedPanelMaxColumns;
}

// Whether a single line's columns may take the fitted panel, unless tuned
// either way.
bool fittedPanelApplies(const ScanSpec &spec, const PlanTuning &tuning, const ScanGeometry &g) {
  return pickFlag(tuning.fittedPanel, fittedPanelFits(spec, g) && g.numLines() == 1);
}

// Whether several lines' columns may take the fitted panel: only where it
// leaves fewer columns idle than `panels`, the policy's, or as few for sums
// and products of f16 and bf16 (ColumnPolicy::kFittedPanelMaxColumns and
// kFittedPanelTwoByteSumsTakeTies say why).
bool fittedPanelAppliesToLines(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &panels) {
  const ScanGeometry &g = panels.geometry;
  const int64_t fittedIdle = idleColumns(g.inner.size, 32), panelsIdle = idleColumns(panels);
  const bool takesTies = policy::ColumnPolicy::kFittedPanelTwoByteSumsTakeTies && twoByteFloatSums(spec);
  return pickFlag(tuning.fittedPanel, fittedPanelFits(spec, g) && g.numLines() > 1 &&
                                          dtypeSize(accumulatorType(spec)) <= 4 &&
                                          (fittedIdle < panelsIdle || (takesTies && fittedIdle == panelsIdle)));
}

// The tuning that plans the columns as one fitted panel in place of
// `panels`, the policy's pieces plan; nullopt where fittedPanelApplies()
// does not, where the panels were tuned, or where they take no pieces.
std::optional<PlanTuning> fittedPanelTuning(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &panels) {
  using policy::ColumnPolicy;
  const int64_t C = panels.geometry.inner.size;
  const bool tuned = tuning.fittedPanel < 0 && (tuning.vector || tuning.threads || tuning.groups);
  if (panels.pieces <= 1 || panels.wholeRows || tuned ||
      !(fittedPanelApplies(spec, tuning, panels.geometry) || fittedPanelAppliesToLines(spec, tuning, panels)))
    return std::nullopt;
  // The policy's threads a column, halved until two blocks fit an SM's
  // registers (kFittedPanelRegisters a thread); on several lines, two
  // blocks an SM asked of ptxas too (ColumnPolicy::kFittedPanelMaxColumns).
  // (Tuned on past kFittedPanelMaxColumns: the columns split evenly into
  // panels of at most that many.)
  const int64_t count = ceilDiv(C, ColumnPolicy::kFittedPanelMaxColumns);
  const int columns = int(ceilDiv(ceilDiv(C, count), 32) * 32);
  const int mostThreads = int(policy::kRegistersPerSm / (2 * ColumnPolicy::kFittedPanelRegisters));
  int groups = panels.groups;
  while (groups > 1 && groups * columns > mostThreads)
    groups /= 2;
  PlanTuning fitted = tuning;
  fitted.vector = 1;
  fitted.threads = groups * columns;
  if (panels.geometry.numLines() > 1)
    fitted.occupancy = pick(tuning.occupancy, 2);
  if (groups != panels.groups) // (otherwise the policy's groups and stages, as for any tuned block)
    fitted.groups = groups;
  return fitted;
}

// A fitted panel holds ColumnPolicy::kFittedPanelBlocksPerSm blocks an SM
// where their shared memory allows: asked of ptxas only where its own
// registers would hold fewer (KernelPlan::wantedBlocksPerSm), unless tuned.
void wantFittedPanelBlocks(const ArchPolicy &arch, const PlanTuning &tuning, KernelPlan &plan) {
  const int blocks = policy::ColumnPolicy::kFittedPanelBlocksPerSm;
  if (!tuning.occupancy && plan.minBlocksPerSm < blocks && blocksFittingAnSm(arch, plan) >= blocks)
    plan.wantedBlocksPerSm = blocks;
}

// The column pipeline's plan: the policy's panels, or one panel fitted to a
// line's columns where fittedPanelTuning() applies and still takes pieces.
void planColumnStages(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan) {
  const KernelPlan before = plan;
  planColumnPanels(arch, spec, tuning, plan);
  if (std::optional<PlanTuning> fitted = fittedPanelTuning(spec, tuning, plan)) {
    // f16/bf16 sums and products take longer stages but on one line masked
    // on the grid (ColumnPolicy::kFittedPanelTwoByteRows).
    const bool longerStages = plan.geometry.numLines() > 1 || plan.edges || !spec.mask;
    if (arch.timed && longerStages && twoByteFloatSums(spec))
      fitted->rows = pick(tuning.rows, policy::ColumnPolicy::kFittedPanelTwoByteRows);
    KernelPlan one = before;
    planColumnPanels(arch, spec, *fitted, one);
    if (one.pieces > 1 && one.vector == 1) {
      plan = one;
      wantFittedPanelBlocks(arch, tuning, plan);
    }
  }
}

// Mirrors ColumnTilesShared in templates/scanjit/column_tiles.cuh: each
// stage's run of input and mask (32 bytes of room), the ring, three
// tiles' slice totals (log-sum-exp's as (max, sum) pairs) and two tiles'
// prefixes and aggregates.
int64_t columnTilesSharedBytes(const ScanSpec &spec, const KernelPlan &plan) {
  auto words = [](int64_t bytes) { return (bytes + 15) / 16 * 16; };
  const int64_t elems = plan.rowsPerChunk * plan.geometry.inner.size;
  const int64_t in = words(elems * dtypeSize(spec.in) + 32), mask = spec.mask ? words(elems + 32) : 16;
  const int64_t acc = dtypeSize(accumulatorType(spec));
  const int64_t total = spec.op == ScanOp::LogSumExp ? 2 * acc : acc;
  return plan.stages * (in + mask + 18) + (3 * plan.groups * total + 4 * acc) * plan.geometry.inner.size + 256;
}

// Mirrors column_tiles_workspace_bytes(): the look-back's, for every
// column of every tile (with span totals, a flagged value more each).
int64_t columnTilesWorkspaceBytes(const ScanSpec &spec, const KernelPlan &plan, int64_t lines) {
  const int64_t values = lines * ceilDiv(plan.geometry.scan.size, plan.rowsPerChunk) * plan.geometry.inner.size;
  const int acc = dtypeSize(accumulatorType(spec));
  return lookbackWorkspaceBytes(values, acc) + (plan.pieceSpans ? values * 2 * acc : 0);
}

// Tall panels of contiguous rows as tiles of whole rows chained by
// look-back (ColumnPolicy::kTiles*); false, the plan untouched, where the
// rows are not one contiguous run or the panel is not tall and narrow.
bool planColumnTiles(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan) {
  using policy::ColumnPolicy;
  const ScanGeometry &g = plan.geometry;
  const int64_t C = g.inner.size;
  const int accBytes = dtypeSize(accumulatorType(spec));
  const bool dense = g.inner.in == 1 && g.scan.in == C && (!spec.mask || (g.inner.mask == 1 && g.scan.mask == C));
  // The column pipeline would copy each row of a panel's input and of its
  // mask apart: small copies bound it (kTilesSmallCopyMaxBytes).
  const int64_t inRowBytes = C * dtypeSize(spec.in);
  const int64_t meanCopyBytes = spec.mask ? (inRowBytes + C) / 2 : inRowBytes;
  const bool smallCopies = meanCopyBytes <= ColumnPolicy::kTilesSmallCopyMaxBytes;
  const int64_t maxColumns = meanCopyBytes <= ColumnPolicy::kTilesWideSmallCopyMaxBytes
                                 ? ColumnPolicy::kTilesSmallCopiesMaxColumns
                                 : ColumnPolicy::kTilesMaxColumns;
  // (On the 16-byte grid, from kTilesOnGridMaxColumns columns on, the
  // pipeline's one fitted panel.)
  const bool offTheGrid = columnRowsOffTheGrid(spec, tuning, g);
  const bool fittedPanel = !offTheGrid && C > ColumnPolicy::kTilesOnGridMaxColumns &&
                           fittedPanelApplies(spec, tuning, g);
  // (Max and min of bytes past kTilesByteMaxMinMaxColumns, the
  // pipeline's two threads a column.)
  const bool bytePanel = C > ColumnPolicy::kTilesByteMaxMinMaxColumns &&
                         classElements(tuning, g) >= ColumnPolicy::kTilesByteMaxMinPanelMinElements &&
                         byteMaxMinTakeTwoThreads(spec, tuning, g, offTheGrid);
  const bool tall = C >= ColumnPolicy::kTilesMinColumns && C <= maxColumns &&
                    g.numLines() < ColumnPolicy::kPieceMinPanels && !fittedPanel && !bytePanel;
  if (!arch.bulkCopy || !dense || tuning.wholeRows == 0 || (tuning.wholeRows < 0 && !tall))
    return false;
  KernelPlan tiles = plan;
  tiles.wholeRows = true;
  tiles.edges = true; // any alignment: a tile's run lands at its place in its first word
  tiles.threads = pick(tuning.threads, ColumnPolicy::kTilesThreads);
  if (tiles.threads < C)
    return false;
  // (At most a warp's lanes of slices: a warp scans a column's slice totals.)
  tiles.groups = std::min<int>({pick(tuning.groups, tiles.threads / int(C)), tiles.threads / int(C), 32});
  tiles.vector = 1;
  tiles.unroll = 1;
  tiles.pieces = 1;
  // The rows of a tile of about `bytes` of input: whole slices.
  auto rowsFor = [&](int bytes) {
    const int64_t byBytes = bytes / (C * dtypeSize(spec.in));
    const int64_t rows = pick(tuning.tileRows, int(std::max<int64_t>(1, byBytes / tiles.groups) * tiles.groups));
    return std::min<int64_t>(rows, g.scan.size);
  };
  // The tiles of every line that plan `p`'s rows make.
  auto tileCount = [&](const KernelPlan &p) { return g.numLines() * ceilDiv(g.scan.size, p.rowsPerChunk); };
  tiles.rowsPerChunk = rowsFor(ColumnPolicy::kTileBytes);
  tiles.stages = std::max(3, pick(tuning.stages, ColumnPolicy::kTilesStages));
  // Each lane holds its window's flags for each of its warp's columns
  // (two registers a 4-byte word): no more than kTilesWindowRegisters.
  const int64_t warpColumns = ceilDiv(C, tiles.threads / 32);
  // (Log-sum-exp's combine, and masked max and min of 8-byte accumulators,
  // hold more: counted as a word more a flag; masked f64 max spilled
  // without.)
  const int64_t accWords = accBytes / 4;
  const bool heavyCombine = spec.op == ScanOp::LogSumExp ||
                            (accWords == 2 && spec.mask && maxOrMin(spec));
  const int64_t flagRegisters = 2 * (accWords + (heavyCombine ? 1 : 0));
  // Not even a window of 128 tiles: the column pipeline's pieces (H100, x
  // copy, tiles against pieces: f64[1000000,80] dim=0, a window of 64,
  // 2.11 against 1.84; f64[1000000,64], 96: 1.82 against 1.59; min
  // f64[1000000,40] reverse, 64: 1.81, 128: 1.39, pieces 1.85).
  // Only where the pipeline's copies are large: many small ones bound it
  // harder.
  // Windows over span totals (piece_spans=1, column_tiles.cuh) hold a
  // value a lane. Tuned only: they ran 1.2-2.0x the policy's windows
  // (H200; BENCHMARKS.md, seventy-first pass). (The refusal below stands
  // for them: piece_spans=1 asks the pipeline's pieces for span totals too.)
  tiles.pieceSpans = pickFlag(tuning.pieceSpans, false);
  if (tuning.wholeRows < 0 && !tuning.lookback && !smallCopies &&
      warpColumns * flagRegisters * ColumnPolicy::kTilesMinLookback > ColumnPolicy::kTilesWindowRegisters)
    return false;
  int64_t perLane = std::clamp<int64_t>(ColumnPolicy::kTilesWindowRegisters / (warpColumns * flagRegisters), 1,
                                        ColumnPolicy::kTilesLookback);
  // (Short windows of 1-byte elements into 8-byte accumulators: at most
  // kTilesByteIntoWideLookback.)
  if (perLane < ColumnPolicy::kTilesLookback && dtypeSize(spec.in) == 1 && accWords == 2)
    perLane = std::min<int64_t>(perLane, ColumnPolicy::kTilesByteIntoWideLookback);
  tiles.lookbackPerLane = tiles.pieceSpans ? 1 : pick(tuning.lookback, int(perLane));
  tiles.lookbackWarps = 1;
  tiles.evictFirst = pickFlag(tuning.evictFirst, policy::ColumnPolicy::kPipelineEvictFirst);
  tiles.wordCopies = false; // (a tile is one bulk copy)
  tiles.sharedBytes = columnTilesSharedBytes(spec, tiles);
  // Wider tiles where a warp reads the windows of more columns, if their
  // stages fit as they are and the scan still makes enough of them
  // (kTilesWide*).
  if (warpColumns >= ColumnPolicy::kTilesWideMinWarpColumns) {
    KernelPlan wide = tiles;
    wide.rowsPerChunk = rowsFor(ColumnPolicy::kTilesWideTileBytes);
    wide.sharedBytes = columnTilesSharedBytes(spec, wide);
    if (wide.sharedBytes <= arch.maxDynamicSharedBytes &&
        tileCount(wide) >= ColumnPolicy::kTilesWideMinTilesPerSm * policy::kTimedSms)
      tiles = wide;
  }
  // A mask of 1-byte elements holds as many bytes as the input, and 8-byte
  // slice totals add more (kTileBytes counts the input's): fewer rows a
  // tile, until its stages fit.
  while (!tuning.tileRows && tiles.sharedBytes > arch.maxDynamicSharedBytes && tiles.rowsPerChunk > tiles.groups) {
    tiles.rowsPerChunk = std::max<int64_t>(tiles.groups, tiles.rowsPerChunk * 7 / 8 / tiles.groups * tiles.groups);
    tiles.sharedBytes = columnTilesSharedBytes(spec, tiles);
  }
  if (tiles.sharedBytes > arch.maxDynamicSharedBytes)
    return false;
  // As many blocks an SM as threads, shared memory and the registers a thread needs allow.
  const bool wide = accBytes == 8 || spec.op == ScanOp::LogSumExp;
  const int64_t minRegisters = wide ? ColumnPolicy::kTilesMinRegistersWide : ColumnPolicy::kTilesMinRegisters;
  const int64_t fit = std::max<int64_t>(
      1, std::min({int64_t(arch.maxThreadsPerSm / tiles.threads),
                   arch.sharedBytesPerSm / (tiles.sharedBytes + policy::kSharedBytesPerBlockReserved),
                   policy::kRegistersPerSm / (int64_t(tiles.threads) * minRegisters)}));
  tiles.minBlocksPerSm = pick(tuning.occupancy, int(fit));
  tiles.grid = std::min<int64_t>(tileCount(tiles), pick(tuning.blocks, int(policy::kTimedSms * fit)));
  plan = tiles;
  return true;
}

// Few columns without stages (archs without bulk copies, where the word
// pipeline is not taken): each panel's scan cut into pieces, a block each
// (ColumnPolicy::kRegisterPieces*), so that the grid fills the GPU where a
// block a panel left it a block or two. Blocks as wide as the columns need
// (whole warps, at most the policy's threads), a column group a thread.
void planColumnRegisterPieces(const PlanTuning &tuning, KernelPlan &plan) {
  using policy::ColumnPolicy;
  const ScanGeometry &g = plan.geometry;
  const int64_t L = g.scan.size;
  const int64_t groups = ceilDiv(g.inner.size, int64_t(plan.vector));
  plan.threads = pick(tuning.threads, int(std::min<int64_t>(ColumnPolicy::kThreads, ceilDiv(groups, 32) * 32)));
  plan.groups = 1;
  const int64_t panels = g.numLines() * ceilDiv(g.inner.size, int64_t(plan.threads) * plan.vector);
  const int64_t most = std::min<int64_t>(ColumnPolicy::kMaxPieces,
                                         std::max<int64_t>(1, L / ColumnPolicy::kRegisterPieceMinRows));
  int64_t pieces = tuning.pieces ? std::min<int64_t>(tuning.pieces, L)
                                 : std::clamp<int64_t>(ceilDiv(ColumnPolicy::kRegisterPiecesBlocks, panels), 1, most);
  pieces = ceilDiv(L, ceilDiv(L, pieces)); // none empty
  plan.pieces = int(pieces);
  plan.pieceSpans = plan.pieces > 1 && pickFlag(tuning.pieceSpans, false);
  plan.grid = panels * plan.pieces;
  plan.stages = 0;
  plan.sharedBytes = 0;
}

} // namespace

void planColumn(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                size_t innerIndex) {
  plan.family = KernelFamily::Column;
  plan.geometry.inner = plan.geometry.lines[innerIndex];
  plan.geometry.lines.erase(plan.geometry.lines.begin() + innerIndex);
  plan.threads = policy::ColumnPolicy::kThreads;
  plan.vector = columnVector(spec, plan.geometry);
  plan.unroll = policy::ColumnPolicy::kUnroll;
  auto threadsFor = [&](int v) { return plan.geometry.numLines() * ceilDiv(plan.geometry.inner.size, v); };
  const bool fewColumns = threadsFor(plan.vector) < policy::ColumnPolicy::kMinThreads;
  if (fewColumns) {
    while (plan.vector > 1 && threadsFor(plan.vector) < policy::ColumnPolicy::kMinThreads)
      plan.vector /= 2;
    plan.unroll = std::max(1, std::min<int>(policy::ColumnPolicy::kDeepUnroll,
                                            policy::ColumnPolicy::kMaxValuesInFlight / plan.vector));
  }
  plan.unroll = pick(tuning.unroll, plan.unroll);
  plan.threads = pick(tuning.threads, plan.threads);
  const int64_t work = threadsFor(plan.vector);
  plan.grid = ceilDiv(work, plan.threads);
  // Stages are filled by bulk copies, or on archs with cp.async but none,
  // by word copies (ColumnPolicy::kWordPipelineWithoutBulkCopies; tuned on
  // by word_copies=1): the registers alone give few columns a few blocks.
  if (fewColumns && arch.bulkCopy && !planColumnTiles(arch, spec, tuning, plan))
    planColumnStages(arch, spec, tuning, plan);
  else if (fewColumns && !arch.bulkCopy && arch.asyncCopy &&
           pickFlag(tuning.wordCopies, policy::ColumnPolicy::kWordPipelineWithoutBulkCopies))
    planColumnStages(arch, spec, tuning, plan);
  else if (fewColumns && !arch.bulkCopy &&
           (tuning.pieces || (policy::ColumnPolicy::kRegisterPiecesWithoutStages &&
                              plan.grid < policy::ColumnPolicy::kRegisterPiecesBelowBlocks)))
    planColumnRegisterPieces(tuning, plan);
}

int64_t columnWorkspaceBytes(const ScanSpec &spec, const KernelPlan &plan, int64_t lines) {
  if (plan.wholeRows)
    return columnTilesWorkspaceBytes(spec, plan, lines);
  if (plan.pieces <= 1)
    return 0;
  const int accBytes = dtypeSize(accumulatorType(spec));
  const int64_t panel = panelColumns(plan);
  return columnPiecesWorkspaceBytes(lines * ceilDiv(plan.geometry.inner.size, panel), plan.pieces, panel, accBytes,
                                    plan.pieceSpans);
}

} // namespace scanjit::planning
