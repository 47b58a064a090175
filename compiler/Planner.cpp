#include "compiler/Planner.h"
#include "compiler/ArchPolicy.h"
#include "compiler/PlannerPolicy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

namespace scanjit {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

GeometryDim dimOf(const ScanSpec &spec, int d) {
  GeometryDim g;
  g.size = spec.shape[d];
  g.in = spec.inStrides[d];
  g.out = spec.outStrides[d];
  g.mask = spec.mask ? spec.maskStrides[d] : 0;
  return g;
}

// `outer` followed by `inner` can be walked as one dim of outer.size*inner.size.
bool mergeable(const GeometryDim &outer, const GeometryDim &inner) {
  return outer.in == inner.in * inner.size && outer.out == inner.out * inner.size &&
         outer.mask == inner.mask * inner.size;
}

// Stride 1 in every tensor the kernel touches (the mask only when present).
bool unitStride(const GeometryDim &d, bool hasMask) {
  return d.in == 1 && d.out == 1 && (!hasMask || d.mask == 1);
}

std::string entryName(const ScanSpec &spec, KernelFamily family) {
  std::string name = llvm::formatv("scanjit_{0}_{1}_{2}_{3}", familyName(family), opName(spec.op),
                                   dtypeName(spec.in), dtypeName(spec.out));
  if (spec.mask)
    name += "_mask";
  if (spec.reverse)
    name += "_rev";
  if (spec.exclusive)
    name += "_excl";
  if (spec.indices)
    name += "_idx";
  return name;
}

// Largest element offset + 1 any tensor reaches.
int64_t maxExtent(const ScanSpec &spec) {
  int64_t extent = 0;
  for (const Dims *strides : {&spec.inStrides, &spec.outStrides, &spec.maskStrides}) {
    if (strides->empty())
      continue;
    int64_t e = 0;
    for (int d = 0; d < spec.rank(); ++d)
      e += (spec.shape[d] - 1) * (*strides)[d];
    extent = std::max(extent, e + 1);
  }
  return std::max(extent, spec.numel());
}

// 32-bit indices when every offset, work index and tile overshoot fits with a
// 2x margin (loop increments may step past the end once).
bool needs64BitIndex(const ScanSpec &spec) {
  constexpr int64_t kMargin = 1 << 20;
  return 2 * maxExtent(spec) + kMargin >= (int64_t(1) << 31);
}

// Mirrors lookback_workspace_bytes() in templates/scanjit/lookback_scan.cuh
// (the emitted source asserts they agree): a counter, then two flagged
// values per tile, each twice the accumulator's size.
int64_t lookbackWorkspaceBytes(int64_t tiles, int accBytes) {
  return 16 + 2 * tiles * 2 * accBytes;
}

int rowItems(const ScanSpec &spec) {
  int items = std::min(policy::RowPolicy::kBytesPerThread / dtypeSize(spec.in),
                       policy::RowPolicy::kAccBytesPerThread / dtypeSize(accumulatorType(spec.op, spec.in)));
  return std::clamp(items, 1, policy::RowPolicy::kMaxItems);
}

int pick(int tuned, int policyChoice) { return tuned > 0 ? tuned : policyChoice; }

// A count-dependent choice that the kernel's code depends on, taken from
// the count rounded down to a power of two: a shape class's counts then
// share a kernel, and a sweep over batch sizes compiles a kernel per
// power-of-two step at most (exact_batch=1: the exact count).
int64_t classCount(const PlanTuning &tuning, int64_t n) {
  return tuning.exactBatch || n < 1 ? n : int64_t(llvm::PowerOf2Floor(uint64_t(n)));
}
bool pickFlag(int tuned, bool policyChoice) { return tuned >= 0 ? tuned != 0 : policyChoice; }

// Lines at a stride of 2 to 16 bytes an element (a mask of at most 16 bytes
// a step), apart from each other: the look-back stages their tiles' dense
// spans (SpanStaged in templates/scanjit/span_pipeline.cuh). Lines whose
// spans overlap (columns of a few) keep each thread's strided loads, their
// tickets dealt round the lines so each sector is read once.
bool spanStaged(const ScanSpec &spec, const ScanGeometry &g) {
  const GeometryDim &scan = g.scan;
  const int64_t span = scan.size * scan.in;
  const bool apart = std::all_of(g.lines.begin(), g.lines.end(), [&](const GeometryDim &d) { return d.in >= span; });
  return scan.in >= 2 && scan.in * dtypeSize(spec.in) <= 16 && (!spec.mask || (scan.mask >= 1 && scan.mask <= 16)) &&
         apart;
}

// A look-back plan whose tiles are dense spans of strided lines (SpanPipeline).
bool spanPlan(const ScanSpec &spec, const KernelPlan &plan) {
  return plan.family == KernelFamily::RowLookback && spanStaged(spec, plan.geometry);
}

// Mirrors TilePipeline in templates/scanjit/tile_pipeline.cuh and
// GridPipeline in grid_pipeline.cuh (the kernel asserts its size fits): a
// stage holds a tile of input, later of output, and of mask (shifted by up
// to 15 bytes in an edges plan, with a word to spare). A tile of packed
// narrow columns holds its items' lanes.
int64_t stageBytes(const ScanSpec &spec, const KernelPlan &plan) {
  const int64_t tile = int64_t(plan.threads) * plan.items * (plan.laneThreads ? 1 : std::max(1, plan.packedLanes));
  if (spanPlan(spec, plan)) {
    const GeometryDim &scan = plan.geometry.scan; // SpanPipeline's dense spans
    return tile * scan.in * dtypeSize(spec.in) + 32 + (spec.mask ? tile * scan.mask + 32 : 16);
  }
  return tile * std::max(dtypeSize(spec.in), dtypeSize(spec.out)) +
         (spec.mask ? tile + (plan.edges ? 32 : 0) : 16);
}

// Bulk copies move multiples of 16 bytes between 16-byte aligned addresses
// (the kernel checks the pointers themselves at run time): a run of
// `elements` elements of the input and of the mask, and a step of a dim's
// strides in both, must each be whole 16-byte words.
bool bulkRun(const ScanSpec &spec, int64_t elements) {
  return (elements * dtypeSize(spec.in)) % 16 == 0 && (!spec.mask || elements % 16 == 0);
}
bool bulkStrides(const ScanSpec &spec, const GeometryDim &d) {
  return (d.in * dtypeSize(spec.in)) % 16 == 0 && (!spec.mask || d.mask % 16 == 0);
}
bool bulkLines(const ScanSpec &spec, llvm::ArrayRef<GeometryDim> lines) {
  return std::all_of(lines.begin(), lines.end(), [&](const GeometryDim &d) { return bulkStrides(spec, d); });
}

// Rows whose every tile start and size is a multiple of 16 bytes in the
// input and the mask (the kernel checks the pointers at run time). Other
// rows take the edges plan: tiles on each row's 16-byte grid, whose bodies
// are bulk-copied and whose edges warp 0's lanes copy (grid_pipeline.cuh).
bool rowsOnTheGrid(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan) {
  return !tuning.offGrid && bulkRun(spec, plan.geometry.scan.size) && bulkLines(spec, plan.geometry.lines);
}

// Stages for a row plan, any row length and alignment (plan.edges says
// which pipeline). 0 when the block is too small to pay for them or not
// even kMinStages fit.
int bulkStages(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan,
               int maxStages, int budgetBytes) {
  if (!arch.bulkCopy || plan.threads < 64)
    return 0;
  const int64_t stages = std::min<int64_t>(pick(tuning.stages, maxStages),
                                           budgetBytes / stageBytes(spec, plan));
  return stages >= policy::StagePolicy::kMinStages ? int(stages) : 0;
}

// Stages, plus per stage an mbarrier and its work item; rounded up
// generously (48 bytes a stage: kept as plans have had it, so their blocks
// per SM do not move).
int64_t pipelineSharedBytes(const ScanSpec &spec, const KernelPlan &plan) {
  return plan.stages == 0 ? 0 : plan.stages * (stageBytes(spec, plan) + 48) + 256;
}

// An add's or a multiply's combine; max, min (with NaN rules) and
// log-sum-exp cost more instructions.
bool cheapCombine(const ScanSpec &spec) { return spec.op == ScanOp::Sum || spec.op == ScanOp::Prod; }

// Ops whose combine costs more need the warps of more blocks per SM more
// than they need deeper stages.
int maxRowStages(const ScanSpec &spec) {
  return cheapCombine(spec) ? policy::StagePolicy::kMaxStages : policy::StagePolicy::kMaxStagesCostlyOps;
}

// A pipelined row block for rows of a few tiles whose last tile would be
// mostly empty (1100 floats: 1024 + 76 in blocks of 128 threads): the block
// size, in whole warps within kFitThreads, that leaves the fewest empty
// slots; a tie keeps the size nearest `threads`. Longer rows keep `threads`.
int rowThreadsFittingTheRow(int64_t L, int items, int threads) {
  const int64_t tiles = ceilDiv(L, int64_t(threads) * items);
  if (tiles > policy::StagePolicy::kMinTilesPerBlock)
    return threads;
  int best = threads;
  int64_t bestWaste = tiles * threads * items - L;
  for (int t = policy::StagePolicy::kFitThreadsMin; t <= policy::StagePolicy::kFitThreadsMax; t += 32) {
    const int64_t tile = int64_t(t) * items;
    const int64_t waste = ceilDiv(L, tile) * tile - L;
    if (waste < bestWaste || (waste == bestWaste && std::abs(t - threads) < std::abs(best - threads))) {
      best = t;
      bestWaste = waste;
    }
  }
  return best;
}

// A look-back tile's items: `items` a thread, or with lane threads `items`
// elements of one of the packed items' lanes a thread (lookback_tile_items
// in templates/scanjit/lookback_scan.cuh).
int64_t lookbackTileItems(const KernelPlan &plan) {
  return int64_t(plan.threads) * plan.items / (plan.laneThreads ? plan.packedLanes : 1);
}

// Look-back tiles of a row; on its 16-byte grid (edges), with room for a
// start anywhere in a word. Mirrors lookback_tiles_per_row() in
// templates/scanjit/lookback_scan.cuh.
int64_t gridTilesPerRow(const ScanSpec &spec, const KernelPlan &plan) {
  const bool onGrid = plan.edges && !spanPlan(spec, plan);
  return ceilDiv(plan.geometry.scan.size + (onGrid ? 16 / dtypeSize(spec.in) - 1 : 0), lookbackTileItems(plan));
}

// A look-back register tile of at most 32 bytes of 4-byte accumulators
// (f32 x 8): the plans that fit more than one 512-thread block an SM.
bool smallRegisterTile(const ScanSpec &spec, int items) {
  const int accBytes = dtypeSize(accumulatorType(spec.op, spec.in));
  return accBytes == 4 && items * accBytes <= 32;
}

// Log-sum-exp of 8-byte accumulators (f64): its combines, not its bytes,
// set its time.
bool wideLogSumExp(const ScanSpec &spec) {
  return spec.op == ScanOp::LogSumExp && dtypeSize(accumulatorType(spec.op, spec.in)) == 8;
}

// Log-sum-exp of f32 and f64 inputs: exps and logs, not bytes, set its
// tile (LookbackPolicy::kLogSumExpItems).
bool logSumExpTile(const ScanSpec &spec) { return spec.op == ScanOp::LogSumExp && dtypeSize(spec.in) >= 4; }

// A look-back tile's items and block: small register tiles in blocks of
// 512 (384 in edges plans); larger tiles in smaller blocks, two an SM
// within their registers (LookbackPolicy).
void lookbackBlock(const ScanSpec &spec, const PlanTuning &tuning, bool edges, int &threads, int &items) {
  if (logSumExpTile(spec)) {
    items = pick(tuning.items, policy::LookbackPolicy::kLogSumExpItems);
    threads = pick(tuning.threads, policy::LookbackPolicy::kLogSumExpThreads);
    return;
  }
  items = pick(tuning.items,
               std::min(rowItems(spec) * policy::LookbackPolicy::kItemsScale, policy::LookbackPolicy::kMaxItems));
  const bool smallTile = smallRegisterTile(spec, items);
  threads = pick(tuning.threads, smallTile ? (edges ? policy::LookbackPolicy::kEdgesThreads : policy::LookbackPolicy::kThreads)
                                 : edges || dtypeSize(accumulatorType(spec.op, spec.in)) > 4
                                     ? policy::LookbackPolicy::kLargeTileWideThreads
                                     : policy::LookbackPolicy::kLargeTileThreads);
}

// Contiguous rows' look-back tiles but the lean plan's (aligned rows of
// 32-byte tiles of 4-byte accumulators) widen (LookbackPolicy::
// kWideTileAccBytes) where the scan holds kWideTileMinTiles of the wide
// tiles. Lines at a stride keep lookbackBlock's items: their spans' stages
// and their lanes size themselves from them.
void widenLookbackTile(const ScanSpec &spec, const PlanTuning &tuning, bool edges, int64_t rows, int64_t length,
                       int &threads, int &items) {
  if (logSumExpTile(spec) || (!edges && smallRegisterTile(spec, items)))
    return;
  const int accBytes = dtypeSize(accumulatorType(spec.op, spec.in));
  const bool maskedIntegerProduct = spec.mask && spec.op == ScanOp::Prod && !isFloating(spec.in);
  const bool maskedWord = spec.mask && dtypeSize(spec.in) == 4 && accBytes == 4 && spec.op != ScanOp::LogSumExp;
  const int tileAccBytes = accBytes > 4 && maskedIntegerProduct ? policy::LookbackPolicy::kWideTileWideAccBytes
                           : maskedWord                          ? policy::LookbackPolicy::kWideTileMaskedWordBytes
                                                                 : policy::LookbackPolicy::kWideTileAccBytes;
  const int wideItems = pick(tuning.items, std::min(tileAccBytes / accBytes, policy::LookbackPolicy::kWideTileMaxItems));
  const int wideThreads = pick(tuning.threads, policy::LookbackPolicy::kLargeTileWideThreads);
  if (classCount(tuning, rows) * ceilDiv(length, int64_t(wideThreads) * wideItems) <
      policy::LookbackPolicy::kWideTileMinTiles) // (a batch's class shares its kernel)
    return;
  threads = wideThreads;
  items = wideItems;
}

// Few lines long enough for the look-back (judged on the policy's widest
// tile, whatever block the plan then takes), at most `maxRows` of them
// (tuned: lookback_rows).
bool lookbackFits(const PlanTuning &tuning, int64_t rows, int64_t length, int items,
                  int64_t maxRows = policy::LookbackPolicy::kMaxRows) {
  const int64_t tilesPerRow = ceilDiv(length, int64_t(pick(tuning.threads, policy::LookbackPolicy::kThreads)) * items);
  return rows <= (tuning.lookbackRows ? tuning.lookbackRows : maxRows) &&
         tilesPerRow >= policy::LookbackPolicy::kMinTilesPerRow && rows * tilesPerRow <= policy::kMaxGrid;
}

// The most contiguous rows the look-back takes (LookbackPolicy::
// kDenseRowsUncapped): where both families stage their tiles (as timed:
// sm_90), rows of 4- or 8-byte elements or of 8-byte accumulators, but
// log-sum-exp, any number of them unmasked and kMaskedDenseMaxRows masked;
// kMaxRows of any other rows.
int64_t lookbackMaxRows(const ArchPolicy &arch, const ScanSpec &spec) {
  const bool dense = policy::LookbackPolicy::kDenseRowsUncapped && arch.bulkCopy && spec.op != ScanOp::LogSumExp &&
                     (dtypeSize(spec.in) >= 4 || dtypeSize(accumulatorType(spec.op, spec.in)) == 8);
  return !dense ? policy::LookbackPolicy::kMaxRows
         : spec.mask ? policy::LookbackPolicy::kMaskedDenseMaxRows
                     : policy::kMaxGrid;
}

// A middle-sized scan of a few contiguous rows whose tiles all fit the SMs'
// shared memory at once: each row's tiles are cut into shares of
// consecutive tiles, a block each, held in its stages from the start; a
// block looks back once, for the totals of every block before it in its row
// (lookback_shares.cuh). `plain`: contiguous tiles, unpacked; rows off the
// 16-byte grid (edges) hold tiles on the input's grid.
void planHeldShares(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                    int64_t rows, int64_t tilesPerRow, bool plain) {
  using policy::LookbackPolicy;
  if (!arch.bulkCopy || !plain || plan.stages == 0 || rows > LookbackPolicy::kSharesMaxRows ||
      spec.op == ScanOp::LogSumExp || tuning.heldShares == 0)
    return;
  // Shares are sized by the exact count, so that the grid is resident at
  // once: sized by the count's power-of-two class, a class's larger counts
  // ran in two waves (f32[5,1048576] mask 1.52 of copy, against 1.26 sized
  // exactly and 1.40 tile by tile; H100, BENCHMARKS.md). The batch stays a
  // launch argument: the kernel's code depends on the share, not the count,
  // so counts whose shares come out alike share a kernel.
  const int64_t blocks = pick(tuning.blocks, LookbackPolicy::kSharesBlocks);
  const int64_t share = ceilDiv(tilesPerRow, std::clamp<int64_t>(blocks / rows, 1, tilesPerRow));
  const int64_t sharesPerRow = ceilDiv(tilesPerRow, share);
  const int perSm = int(ceilDiv(std::min(blocks, rows * sharesPerRow), policy::kTimedSms));
  const int64_t budget = std::min(arch.maxDynamicSharedBytes, arch.sharedBytesPerSm / perSm) -
                         LookbackPolicy::kSharesStaticReserveBytes;
  KernelPlan held = plan;
  held.stages = int(share);
  held.sharedBytes = pipelineSharedBytes(spec, held);
  const bool fits = held.sharedBytes <= budget;
  const bool policyChoice = fits && share >= LookbackPolicy::kSharesMinTiles &&
                            (!plan.edges || dtypeSize(spec.in) <= LookbackPolicy::kSharesEdgesMaxInBytes);
  if (!(tuning.heldShares == 1 ? fits : policyChoice))
    return;
  held.heldShares = true;
  held.grid = rows * sharesPerRow;
  held.minBlocksPerSm = perSm;
  // The window reaches every block before the last of a row: no inclusive
  // prefix is ever waited for.
  held.lookbackWarps = int(std::min<int64_t>(held.threads / 32, ceilDiv(sharesPerRow, 32)));
  held.lookbackPerLane = int(ceilDiv(sharesPerRow, 32 * int64_t(held.lookbackWarps)));
  plan = held;
}

// Few long contiguous rows: tiles of `threads` x `items` chained by look-back.
// Packed narrow columns (plan.packedLanes, set by the caller) are one
// contiguous row of items of that many elements, on the 16-byte grid
// (packedLanes() checked); strided lines stage their tiles' dense spans
// (spanStaged) or load their items at the stride.
void planLookback(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                  int64_t rows, int threads, int items, bool contiguousRows = true) {
  plan.family = KernelFamily::RowLookback;
  plan.threads = threads;
  plan.items = items;
  // Lines at a small stride, apart, stage their dense spans (kIn times a
  // tile's bytes): blocks, then items, halved until the fewest stages fit
  // the budget. Other strided lines load each thread's items at the stride.
  auto spansFit = [&] {
    return stageBytes(spec, plan) * policy::StagePolicy::kMinStages <= policy::StagePolicy::kLookbackBudgetBytes;
  };
  const bool spanLines = !contiguousRows && spanStaged(spec, plan.geometry);
  while (spanLines && !spansFit()) {
    if (!tuning.threads && plan.threads / 2 >= policy::LookbackPolicy::kMinSpanThreads)
      plan.threads /= 2;
    else if (!tuning.items && plan.items / 2 >= policy::LookbackPolicy::kMinSpanItems)
      plan.items /= 2;
    else
      break;
  }
  const bool spans = spanLines && spansFit();
  if (!spans) {
    plan.threads = threads;
    plan.items = items;
  }
  items = plan.items;
  const int lanes = std::max(1, plan.packedLanes);
  // Two blocks of 512 threads leave 64 registers a thread: enough for a
  // 32-byte register tile (f32 x 8), and two blocks overlap better. Sums
  // and products of such tiles fit three (the lean plan).
  const bool smallTile = smallRegisterTile(spec, plan.laneThreads ? plan.items : plan.items * lanes);
  plan.edges = contiguousRows && lanes == 1 && !rowsOnTheGrid(spec, tuning, plan);
  // (Edges plans need more registers than the lean plan's 40.)
  // (Packed lanes' windows and published values are `lanes` times wider:
  // 12-32 spills in the lean plan's 40 registers.)
  const bool lean =
      smallTile && (spec.op == ScanOp::Sum || spec.op == ScanOp::Prod) && !spec.mask && !plan.edges && lanes == 1;
  // One line at a stride of its own without stages: a block more an SM
  // than the staged plans. (Several lines deal their tickets round the
  // lines: 4 spills at 32 registers.)
  const bool direct = !contiguousRows && !spans && rows == 1;
  const int blocks = spans ? policy::LookbackPolicy::kSpanMinBlocksPerSm
                   : lean  ? (direct ? policy::LookbackPolicy::kLeanDirectMinBlocksPerSm
                                    : policy::LookbackPolicy::kLeanMinBlocksPerSm)
                          : (direct ? policy::LookbackPolicy::kDirectMinBlocksPerSm
                                    : policy::LookbackPolicy::kMinBlocksPerSm);
  const int fit = std::max(1, std::min(blocks, blocks * 512 / plan.threads)); // as many threads as 512-thread blocks
  // Large tiles whose spans halved the block keep the SM's threads in
  // flight, as far as shared memory lets them (fittingMinBlocks).
  const int largeTileBlocks = policy::LookbackPolicy::kLargeTileBlocksPerSm * std::max(1, threads / plan.threads);
  plan.minBlocksPerSm = pick(tuning.occupancy, smallTile ? fit : largeTileBlocks);
  // A lane of every warp reads the window where a value a lane is all the
  // registers allow (packed lanes: 4 values of 4 lanes spilled 88 stores).
  const bool everyWarpReads = lean || lanes > 1;
  plan.lookbackPerLane = pick(tuning.lookback, everyWarpReads                 ? policy::LookbackPolicy::kLeanPerLane
                                               : spec.op == ScanOp::LogSumExp ? policy::LookbackPolicy::kLogSumExpPerLane
                                                                              : policy::LookbackPolicy::kPerLane);
  plan.lookbackWarps = std::min(
      pick(tuning.lookbackWarps, everyWarpReads ? plan.threads / 32 : policy::LookbackPolicy::kWarps),
      plan.threads / 32);
  // Stages hold contiguous rows, or dense spans (any pointer: edges).
  plan.stages = contiguousRows || spans
                    ? bulkStages(arch, spec, tuning, plan,
                                 lean ? policy::LookbackPolicy::kLeanStages : policy::LookbackPolicy::kStages,
                                 policy::StagePolicy::kLookbackBudgetBytes)
                    : 0;
  plan.edges = (plan.edges || spans) && plan.stages > 0;
  plan.sharedBytes = pipelineSharedBytes(spec, plan);
  // Evict-first pays only for inputs larger than the L2 (f32[4194304]: 1.77
  // -> 1.48 of copy without it; f32[16777216], 64 MB: 1.00 with it, 1.03
  // without; H100, BENCHMARKS.md).
  const bool largerThanL2 = spec.numel() * dtypeSize(spec.in) > arch.l2Bytes;
  plan.evictFirst =
      plan.stages > 0 && pickFlag(tuning.evictFirst, policy::LookbackPolicy::kEvictFirst && largerThanL2);
  const int64_t tilesPerRow = gridTilesPerRow(spec, plan);
  plan.grid = rows * tilesPerRow;
  if (plan.stages > 0) // each block scans many tiles; fewer blocks cost no parallelism
    plan.grid = std::min<int64_t>(plan.grid, pick(tuning.blocks, policy::LookbackPolicy::kMaxBlocks));
  planHeldShares(arch, spec, tuning, plan, rows, tilesPerRow, contiguousRows && !spans && lanes == 1);
}

void planRow(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan) {
  const int64_t L = plan.geometry.scan.size;
  plan.items = pick(tuning.items, rowItems(spec));
  const int64_t tile = int64_t(policy::RowPolicy::kThreads) * plan.items;
  const auto &lines = plan.geometry.lines;
  const bool contiguousRows =
      lines.size() <= 1 &&
      (lines.empty() || (lines[0].in == L && lines[0].out == L && (!spec.mask || lines[0].mask == L)));
  const int64_t rows = plan.geometry.numLines();
  if (contiguousRows && rows > 1 && L * policy::SegmentedPolicy::kMinRowsPerTile <= tile) {
    plan.family = KernelFamily::RowSegmented;
    plan.threads = policy::RowPolicy::kThreads;
    // Log-sum-exp: its own items, for every dtype (SegmentedPolicy::kLogSumExpItems),
    // unless only the row items let its rows tile a warp's run (rows of 4 f64).
    const auto tilesWarp = [&](int items) { return L % items == 0 && (int64_t(32) * items) % L == 0; };
    const int lseItems = policy::SegmentedPolicy::kLogSumExpItems;
    if (spec.op == ScanOp::LogSumExp && !tuning.items && (tilesWarp(lseItems) || !tilesWarp(plan.items)))
      plan.items = lseItems;
    const int64_t chunkTile = int64_t(policy::RowPolicy::kThreads) * plan.items;
    // Chunks of kTilesPerChunk tiles, but small enough that a small problem
    // still spreads over the SMs (16x1024 was one block walking 8 tiles).
    plan.rowsPerChunk = std::max<int64_t>(1, std::min(policy::SegmentedPolicy::kTilesPerChunk * chunkTile / L,
                                                      classCount(tuning, rows / policy::SegmentedPolicy::kMinBlocks)));
    plan.grid = ceilDiv(rows, plan.rowsPerChunk);
    plan.minBlocksPerSm = pick(tuning.occupancy,
                               !wideLogSumExp(spec) ? 0
                               : spec.mask          ? policy::SegmentedPolicy::kWideLogSumExpMaskedMinBlocksPerSm
                                                    : policy::SegmentedPolicy::kWideLogSumExpMinBlocksPerSm);
    const int64_t run = int64_t(32) * plan.items; // a warp's elements per step
    if (policy::SegmentedPolicy::kWarpRows && !tuning.stages && tilesWarp(plan.items)) {
      plan.warpRows = true;
      plan.rowsPerChunk = run / L; // rows per warp and step
      plan.grid = std::min<int64_t>(ceilDiv(ceilDiv(rows * L, run), plan.threads / 32), policy::kMaxGrid);
      return;
    }
    // Aligned rows may stream the chunks' tiles through the row family's
    // stages, in the row family's smaller blocks (the chunk keeps its bytes).
    plan.threads = pick(tuning.threads, policy::StagePolicy::kRowThreads);
    plan.edges = !rowsOnTheGrid(spec, tuning, plan);
    const bool narrow = dtypeSize(spec.in) == policy::SegmentedPolicy::kStagedInBytes && spec.op != ScanOp::LogSumExp;
    plan.stages = tuning.stages > 0 || narrow
                      ? bulkStages(arch, spec, tuning, plan,
                                   narrow ? policy::SegmentedPolicy::kNarrowStages : maxRowStages(spec),
                                   policy::StagePolicy::kBudgetBytes)
                      : 0;
    if (plan.stages == 0)
      plan.threads = pick(tuning.threads, policy::RowPolicy::kThreads);
    plan.edges = plan.edges && plan.stages > 0;
    plan.sharedBytes = pipelineSharedBytes(spec, plan);
    plan.evictFirst = plan.stages > 0 && pickFlag(tuning.evictFirst, policy::StagePolicy::kEvictFirst);
    return;
  }
  int lookbackThreads, lookbackItems;
  const bool edges = !rowsOnTheGrid(spec, tuning, plan);
  lookbackBlock(spec, tuning, edges, lookbackThreads, lookbackItems);
  if (lookbackFits(tuning, rows, L, lookbackItems, lookbackMaxRows(arch, spec))) {
    widenLookbackTile(spec, tuning, edges, rows, L, lookbackThreads, lookbackItems);
    planLookback(arch, spec, tuning, plan, rows, lookbackThreads, lookbackItems);
    return;
  }
  plan.family = KernelFamily::Row;
  if (spec.op == ScanOp::LogSumExp)
    plan.items = std::min(policy::RowPolicy::kMaxItems, policy::RowPolicy::kLogSumExpAccBytesPerThread /
                                                            dtypeSize(accumulatorType(spec.op, spec.in)));
  plan.items = pick(tuning.items, plan.items);
  const int64_t threadsNeeded = ceilDiv(L, plan.items);
  auto blockFor = [&](int rowThreads) {
    return threadsNeeded >= rowThreads
               ? rowThreads
               : std::max<int>(policy::RowPolicy::kMinThreads, llvm::PowerOf2Ceil(threadsNeeded));
  };
  plan.threads = blockFor(pick(tuning.threads, policy::RowPolicy::kThreads));
  const int maxStages = maxRowStages(spec);
  plan.edges = !rowsOnTheGrid(spec, tuning, plan);
  plan.stages = bulkStages(arch, spec, tuning, plan, maxStages, policy::StagePolicy::kBudgetBytes);
  if (plan.stages > 0 && !tuning.threads) {
    // Pipelined rows do better with smaller blocks: more of them per SM.
    plan.threads = rowThreadsFittingTheRow(
        L, plan.items,
        blockFor(wideLogSumExp(spec) ? policy::StagePolicy::kWideLogSumExpRowThreads : policy::StagePolicy::kRowThreads));
    plan.stages = bulkStages(arch, spec, tuning, plan, maxStages, policy::StagePolicy::kBudgetBytes);
  }
  plan.edges = plan.edges && plan.stages > 0;
  plan.sharedBytes = pipelineSharedBytes(spec, plan);
  plan.evictFirst = plan.stages > 0 && pickFlag(tuning.evictFirst, policy::StagePolicy::kEvictFirst);
  // Short rows: several a block keep a pipelined block's stages full across
  // rows and spread its start-up and drain over more bytes.
  const int64_t rowTile = int64_t(plan.threads) * plan.items;
  const int64_t wanted = ceilDiv(policy::StagePolicy::kMinTilesPerBlock * rowTile, L);
  const int64_t shortRows =
      std::max<int64_t>(1, std::min(wanted, classCount(tuning, rows / policy::StagePolicy::kMinRowBlocks)));
  plan.rowsPerChunk = plan.stages > 0 ? pick(tuning.rows, int(std::min<int64_t>(shortRows, 64))) : 1;
  plan.grid = ceilDiv(rows, plan.rowsPerChunk);
}

// Columns per thread: as wide as the access budget allows.
int columnVectorByBytes(const ScanSpec &spec) {
  return std::max(1, std::min({policy::ColumnPolicy::kLoadBytes / dtypeSize(spec.in),
                               policy::ColumnPolicy::kStoreBytes / dtypeSize(spec.out),
                               policy::ColumnPolicy::kAccBytes / dtypeSize(accumulatorType(spec.op, spec.in))}));
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
// tuned, any count. The kernel cuts ceil(chunks / pieces) chunks a piece,
// so the count is adjusted until none is empty.
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

// Sums and products of 8-byte elements take a column a thread
// (ColumnPolicy::kEightByteSums*), but not unmasked rows off the grid.
bool eightByteColumnAThread(const ScanSpec &spec, bool edges) {
  return cheapCombine(spec) && dtypeSize(spec.in) == 8 && (spec.mask || !edges);
}

// Rows a group of a column pipeline reads from its stage ahead of their
// scan: its whole slice of `slice` rows (held in registers) where
// ColumnPolicy::kRowsAhead* do not apply.
int columnRowsAhead(const ArchPolicy &arch, const ScanSpec &spec, bool edges, int64_t slice) {
  if (spec.op == ScanOp::LogSumExp)
    return policy::ColumnPolicy::kLogSumExpRowsAhead;
  const int64_t inBytes = dtypeSize(spec.in), accBytes = dtypeSize(accumulatorType(spec.op, spec.in));
  if (inBytes == 1 && accBytes == 8 && !arch.timed)
    return int(std::min<int64_t>(slice, policy::ColumnPolicy::kRowsAheadUntimedByteSums));
  // (Edges plans keep the slice, but those of a column a thread: 4 rows.)
  if ((edges && !eightByteColumnAThread(spec, edges)) || inBytes == 1)
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
  // Rows off the grid land at their place in a word: a word to spare each.
  const int64_t pad = edges ? 16 : 0;
  const int64_t rowBytes = panel * inBytes + pad, maskRowBytes = spec.mask ? panel + pad : 16;
  const int64_t perRow = rowBytes + maskRowBytes;
  const int64_t accBytes = dtypeSize(accumulatorType(spec.op, spec.in));
  const int stages = pick(tuning.stages, policy::ColumnPolicy::kPipelineStages);
  // Slice totals: per stage for resident pieces (bounded here as if so).
  const int64_t partialBytes = int64_t(stages) * groups * panel * accBytes;
  // Tuned rows per stage (rows=) still fit the block's shared memory.
  const int64_t rows = std::min<int64_t>(
      tuning.rows > 0 ? tuning.rows
                      : std::min<int64_t>(maxRows,
                                          policy::ColumnPolicy::kStageBytes / perRow),
      (arch.maxDynamicSharedBytes - 256 - partialBytes) / stages / perRow - 1);
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
  // (The lines' count as its class has it: a batch class shares its kernel.)
  const int64_t bytes = classCount(tuning, g.numLines()) * g.scan.size * g.inner.size *
                        (inBytes + dtypeSize(spec.out) + (spec.mask ? 1 : 0));
  plan.pieces = columnPieces(tuning, plan.threads, panels, chunks, stages, bytes, plan.pieceSpans);
  // Pieces no longer than the stages stay resident and keep every stage's
  // slice totals; otherwise several groups exchange one stage's at a time.
  const bool resident = plan.pieces > 1 && ceilDiv(chunks, plan.pieces) <= stages;
  const int64_t totalsBytes =
      resident ? int64_t(stages) * plan.groups * panel * accBytes
               : (plan.groups > 1 ? int64_t(plan.groups) * panel * accBytes : 0);
  plan.sharedBytes = plan.stages * (rows * perRow + 8) + totalsBytes + 256;
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
  }
  return true;
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
  const bool edges =
      tuning.offGrid || !(bulkRun(spec, g.inner.size) && bulkStrides(spec, g.scan) && bulkLines(spec, g.lines));
  // Masked sums and products of 4-byte elements: blocks of 128 and two
  // stages, as if so tuned (ColumnPolicy::kMaskedThreads).
  if (spec.mask && cheapCombine(spec) && dtypeSize(spec.in) == 4 &&
      dtypeSize(accumulatorType(spec.op, spec.in)) == 4) {
    tuning.threads = pick(tuning.threads, policy::ColumnPolicy::kMaskedThreads);
    tuning.stages = pick(tuning.stages, policy::ColumnPolicy::kMaskedStages);
  }
  // Sums and products of 8-byte elements (f64): a column a thread, four
  // threads to a column, blocks of 256 (eightByteColumnAThread).
  if (eightByteColumnAThread(spec, edges)) {
    tuning.vector = pick(tuning.vector, 1);
    tuning.groups = pick(tuning.groups, policy::ColumnPolicy::kEightByteSumsGroups);
    tuning.threads = pick(tuning.threads, policy::ColumnPolicy::kEightByteSumsThreads);
  }
  // Log-sum-exp: a column a thread, and two threads to a column where its
  // accumulator is a float (ColumnPolicy::kLogSumExpVector, kLogSumExpFloatGroups).
  if (spec.op == ScanOp::LogSumExp) {
    tuning.vector = pick(tuning.vector, policy::ColumnPolicy::kLogSumExpVector);
    if (dtypeSize(accumulatorType(spec.op, spec.in)) == 4)
      tuning.groups = pick(tuning.groups, policy::ColumnPolicy::kLogSumExpFloatGroups);
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
  const int groups = pick(tuning.groups, policy::ColumnPolicy::kPipelineGroups);
  int threads = tuning.threads;
  if (!fitColumnStages(arch, spec, tuning, plan, edges, groups, threads))
    return;
  // Sums and products of f16 and bf16: blocks of 256 (wider panels), unless
  // those bring pieces to a plan that had none (bf16[32768,32768] dim=0
  // 1.20 -> 1.31 of copy so; i16, summed in i64, lost too: BENCHMARKS.md).
  if (!threads && dtypeSize(spec.in) == 2 && isFloating(spec.in) && cheapCombine(spec)) {
    KernelPlan wide = plan;
    const int wideThreads = policy::ColumnPolicy::kPipelineThreadsTwoByteSums;
    if (fitColumnStages(arch, spec, tuning, wide, edges, groups, wideThreads) &&
        (wide.pieces == 1 || plan.pieces > 1)) {
      plan = wide;
      threads = wideThreads;
    }
  }
  const bool pieceGroups =
      !edges || spec.mask || dtypeSize(spec.in) <= policy::ColumnPolicy::kPieceGroupsMaxUnmaskedEdgesInBytes;
  if (plan.pieces > 1 && !tuning.groups && cheapCombine(spec) && pieceGroups)
    fitColumnStages(arch, spec, tuning, plan, edges, policy::ColumnPolicy::kPieceGroups, threads,
                    policy::ColumnPolicy::kPieceMaxRowsPerStage);
}

// Whether a single line's columns may take one panel fitted to them, a
// column a thread (ColumnPolicy::kFittedPanelMaxColumns): 2- and 4-byte
// elements, no log-sum-exp (a column a thread already), 33 to 160 columns,
// unless tuned either way.
bool fittedPanelApplies(const ScanSpec &spec, const PlanTuning &tuning, const ScanGeometry &g) {
  using policy::ColumnPolicy;
  const int64_t C = g.inner.size, inBytes = dtypeSize(spec.in);
  return pickFlag(tuning.fittedPanel, spec.op != ScanOp::LogSumExp && (inBytes == 2 || inBytes == 4) &&
                                          g.numLines() == 1 && C > ColumnPolicy::kFewColumns &&
                                          C <= ColumnPolicy::kFittedPanelMaxColumns);
}

// The tuning that plans the columns as one fitted panel in place of
// `panels`, the policy's pieces plan; nullopt where fittedPanelApplies()
// does not, where the panels were tuned, or where they take no pieces.
std::optional<PlanTuning> fittedPanelTuning(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &panels) {
  using policy::ColumnPolicy;
  const int64_t C = panels.geometry.inner.size;
  const bool tuned = tuning.fittedPanel < 0 && (tuning.vector || tuning.threads || tuning.groups);
  if (panels.pieces <= 1 || panels.wholeRows || tuned || !fittedPanelApplies(spec, tuning, panels.geometry))
    return std::nullopt;
  // The policy's threads a column, halved until two blocks fit an SM's
  // registers (kFittedPanelRegisters a thread).
  const int columns = int(ceilDiv(std::min<int64_t>(C, ColumnPolicy::kFittedPanelMaxColumns), 32) * 32);
  const int mostThreads = int(policy::kRegistersPerSm / (2 * ColumnPolicy::kFittedPanelRegisters));
  int groups = panels.groups;
  while (groups > 1 && groups * columns > mostThreads)
    groups /= 2;
  PlanTuning fitted = tuning;
  fitted.vector = 1;
  fitted.threads = groups * columns;
  if (groups != panels.groups) // (otherwise the policy's groups and stages, as for any tuned block)
    fitted.groups = groups;
  return fitted;
}

// The column pipeline's plan: the policy's panels, or one panel fitted to a
// line's columns where fittedPanelTuning() applies and still takes pieces.
void planColumnStages(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan) {
  const KernelPlan before = plan;
  planColumnPanels(arch, spec, tuning, plan);
  if (std::optional<PlanTuning> fitted = fittedPanelTuning(spec, tuning, plan)) {
    KernelPlan one = before;
    planColumnPanels(arch, spec, *fitted, one);
    if (one.pieces > 1 && one.vector == 1)
      plan = one;
  }
}

// Mirrors ColumnTilesShared in templates/scanjit/column_tiles.cuh: each
// stage's run of input and mask (32 bytes of room), the ring, three
// tiles' slice totals and two tiles' prefixes.
int64_t columnTilesSharedBytes(const ScanSpec &spec, const KernelPlan &plan) {
  auto words = [](int64_t bytes) { return (bytes + 15) / 16 * 16; };
  const int64_t elems = plan.rowsPerChunk * plan.geometry.inner.size;
  const int64_t in = words(elems * dtypeSize(spec.in) + 32), mask = spec.mask ? words(elems + 32) : 16;
  const int64_t acc = dtypeSize(accumulatorType(spec.op, spec.in));
  return plan.stages * (in + mask + 18) + (3 * plan.groups + 2) * plan.geometry.inner.size * acc + 256;
}

// Mirrors column_tiles_workspace_bytes(): the look-back's, for every
// column of every tile.
int64_t columnTilesWorkspaceBytes(const ScanSpec &spec, const KernelPlan &plan, int64_t lines) {
  const int64_t tiles = lines * ceilDiv(plan.geometry.scan.size, plan.rowsPerChunk);
  return lookbackWorkspaceBytes(tiles * plan.geometry.inner.size, dtypeSize(accumulatorType(spec.op, spec.in)));
}

// Tall panels of contiguous rows as tiles of whole rows chained by
// look-back (ColumnPolicy::kTiles*); false, the plan untouched, where the
// rows are not one contiguous run or the panel is not tall and narrow.
bool planColumnTiles(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan) {
  using policy::ColumnPolicy;
  const ScanGeometry &g = plan.geometry;
  const int64_t C = g.inner.size;
  const int accBytes = dtypeSize(accumulatorType(spec.op, spec.in));
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
  const bool onGrid = !tuning.offGrid && bulkRun(spec, C) && bulkStrides(spec, g.scan) && bulkLines(spec, g.lines);
  const bool fittedPanel = onGrid && C > ColumnPolicy::kTilesOnGridMaxColumns && fittedPanelApplies(spec, tuning, g);
  const bool tall = C >= ColumnPolicy::kTilesMinColumns && C <= maxColumns &&
                    g.numLines() < ColumnPolicy::kPieceMinPanels && !fittedPanel;
  if (!arch.bulkCopy || !dense || tuning.wholeRows == 0 || (tuning.wholeRows < 0 && !tall))
    return false;
  KernelPlan tiles = plan;
  tiles.wholeRows = true;
  tiles.edges = true; // any alignment: a tile's run lands at its place in its first word
  tiles.threads = pick(tuning.threads, ColumnPolicy::kTilesThreads);
  if (tiles.threads < C)
    return false;
  tiles.groups = std::min<int>(pick(tuning.groups, tiles.threads / int(C)), tiles.threads / int(C));
  tiles.vector = 1;
  tiles.unroll = 1;
  tiles.pieces = 1;
  const int64_t byBytes = ColumnPolicy::kTileBytes / (C * dtypeSize(spec.in));
  const int64_t rows = pick(tuning.tileRows, int(std::max<int64_t>(1, byBytes / tiles.groups) * tiles.groups));
  tiles.rowsPerChunk = std::min<int64_t>(rows, g.scan.size);
  tiles.stages = std::max(3, pick(tuning.stages, ColumnPolicy::kTilesStages));
  // Each lane holds its window's flags for each of its warp's columns
  // (two registers a 4-byte word): no more than kTilesWindowRegisters.
  const int64_t warpColumns = ceilDiv(C, tiles.threads / 32);
  // (Log-sum-exp's combine, and masked max and min of 8-byte accumulators,
  // hold more: counted as a word more a flag; masked f64 max spilled
  // without.)
  const int64_t accWords = accBytes / 4;
  const bool heavyCombine = spec.op == ScanOp::LogSumExp ||
                            (accWords == 2 && spec.mask && (spec.op == ScanOp::Max || spec.op == ScanOp::Min));
  const int64_t flagRegisters = 2 * (accWords + (heavyCombine ? 1 : 0));
  // Not even a window of 128 tiles: the column pipeline's pieces (H100, x
  // copy, tiles against pieces: f64[1000000,80] dim=0, a window of 64,
  // 2.11 against 1.84; f64[1000000,64], 96: 1.82 against 1.59; min
  // f64[1000000,40] reverse, 64: 1.81, 128: 1.39, pieces 1.85).
  // Only where the pipeline's copies are large: many small ones bound it
  // harder.
  if (tuning.wholeRows < 0 && !tuning.lookback && !smallCopies &&
      warpColumns * flagRegisters * ColumnPolicy::kTilesMinLookback > ColumnPolicy::kTilesWindowRegisters)
    return false;
  int64_t perLane = std::clamp<int64_t>(ColumnPolicy::kTilesWindowRegisters / (warpColumns * flagRegisters), 1,
                                        ColumnPolicy::kTilesLookback);
  // (Short windows of 1-byte elements into 8-byte accumulators: at most
  // kTilesByteIntoWideLookback.)
  if (perLane < ColumnPolicy::kTilesLookback && dtypeSize(spec.in) == 1 && accWords == 2)
    perLane = std::min<int64_t>(perLane, ColumnPolicy::kTilesByteIntoWideLookback);
  tiles.lookbackPerLane = pick(tuning.lookback, int(perLane));
  tiles.lookbackWarps = 1;
  tiles.evictFirst = pickFlag(tuning.evictFirst, policy::ColumnPolicy::kPipelineEvictFirst);
  tiles.sharedBytes = columnTilesSharedBytes(spec, tiles);
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
  const int64_t count = g.numLines() * ceilDiv(g.scan.size, tiles.rowsPerChunk);
  tiles.grid = std::min<int64_t>(count, pick(tuning.blocks, int(policy::kTimedSms * fit)));
  plan = tiles;
  return true;
}

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
  if (fewColumns && arch.bulkCopy && !planColumnTiles(arch, spec, tuning, plan)) // (stages are filled by bulk copies)
    planColumnStages(arch, spec, tuning, plan);
}

// Narrow columns whose lines the look-back takes a group at a time
// (ScanLanes in templates/scanjit/lookback_lanes.cuh): the innermost line
// dim is contiguous, of 2 to 16 lines, and the scan steps over its rows in
// every tensor. The group's size, else 0.
int64_t scanLanes(const ScanSpec &spec, const ScanGeometry &g) {
  if (g.lines.empty())
    return 0;
  const GeometryDim &d = g.lines.back();
  const int64_t c = d.size;
  const bool lanes = c > 1 && c <= policy::ColumnPolicy::kMaxLanes && d.in == 1 && d.out == 1 && (!spec.mask || d.mask == 1) &&
                     g.scan.in == c && g.scan.out == c && (!spec.mask || g.scan.mask == c);
  return lanes ? c : 0;
}

// Mirrors LanesStage in templates/scanjit/lookback_lanes.cuh: a tile step's
// rows of a group in, out and mask, each 16-byte aligned.
int64_t lanesSharedBytes(const ScanSpec &spec, int64_t elems) {
  auto words = [](int64_t bytes) { return (bytes + 15) / 16 * 16; };
  return words(elems * dtypeSize(spec.in)) + words(elems * dtypeSize(spec.out)) + words(spec.mask ? elems : 16) + 64;
}

// Narrow columns the look-back scans as one row of their rows
// (PackedLanes in templates/scanjit/packed_lanes.cuh): a cheap combine, a
// group's values within kMaxPackedBytes, and its rows (input and mask) and
// every other line stride on the 16-byte grid in whole groups, so the
// pipelined look-back bulk-copies them. The group's size, else 0.
int64_t packedLanes(const ScanSpec &spec, const ScanGeometry &g) {
  const int64_t c = scanLanes(spec, g);
  if (c <= 1 || spec.op == ScanOp::LogSumExp ||
      c * dtypeSize(accumulatorType(spec.op, spec.in)) > policy::ColumnPolicy::kMaxPackedBytes)
    return 0;
  auto packs = [&](const GeometryDim &d) {
    return d.in % c == 0 && d.out % c == 0 && (!spec.mask || d.mask % c == 0) && bulkStrides(spec, d);
  };
  const bool grid = bulkRun(spec, g.scan.size * c) && std::all_of(g.lines.begin(), g.lines.end() - 1, packs);
  return grid ? c : 0;
}

// Items a thread of packed lanes: a tile of about kPackedTileBytes of
// input, within kPackedAccBytes of accumulators a thread, a power of two.
// (H100: f64[8388608,2] 2 items 2.2 of copy, 4 items 1.5; f32[4194304,4]
// 2 items 1.7, 8 items 4.3; BENCHMARKS.md.)
int packedLanesItems(const ScanSpec &spec, int threads, int64_t lanes) {
  const int64_t byTile = policy::ColumnPolicy::kPackedTileBytes / (threads * lanes * dtypeSize(spec.in));
  const int64_t byAcc = policy::ColumnPolicy::kPackedAccBytes / (lanes * dtypeSize(accumulatorType(spec.op, spec.in)));
  return int(llvm::PowerOf2Floor(uint64_t(std::max<int64_t>(1, std::min(byTile, byAcc)))));
}

// Few long lines at a stride: the look-back's tiles, each thread loading
// its items at the stride (no stages). For columns narrower than
// ColumnPolicy::kNarrowRowBytes (f32[1048576,2] dim=0), whose panels would
// leave most threads idle, and views with no contiguous dim (x[::7]),
// which the strided family gives one warp a line. Neighbouring lines' tiles
// read the same sectors (through L2).
bool planLinesByLookback(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan) {
  int threads, items;
  lookbackBlock(spec, tuning, false, threads, items);
  const int64_t lanes = scanLanes(spec, plan.geometry);
  int lineItems = lanes > 1                   ? std::min(items, policy::ColumnPolicy::kStridedLineItems)
                  : logSumExpTile(spec)     ? items
                  : dtypeSize(spec.in) == 2 ? policy::ColumnPolicy::kSingleStridedLineItemsTwoByte
                                            : policy::ColumnPolicy::kSingleStridedLineItems;
  // Staged dense spans hold at most a row's accumulator bytes a thread
  // (log-sum-exp's count twice: its combine holds two): 16 i16 products
  // spilled at 128 registers. (Contiguous rows' 4 items of f64 timed 12%
  // slower than 8: 0.066 against 0.057-0.059 ms. Log-sum-exp of f32 and
  // f64 keeps its own 16 items: lookbackBlock.)
  const int accBytes = dtypeSize(accumulatorType(spec.op, spec.in)) * (spec.op == ScanOp::LogSumExp ? 2 : 1);
  while (lanes <= 1 && !logSumExpTile(spec) && spanStaged(spec, plan.geometry) &&
         lineItems * accBytes > policy::RowPolicy::kAccBytesPerThread)
    lineItems /= 2;
  items = pick(tuning.items, lineItems);
  const int64_t rows = plan.geometry.numLines();
  if (!lookbackFits(tuning, rows, plan.geometry.scan.size, items))
    return false;
  const int64_t packed = arch.bulkCopy && !tuning.offGrid ? packedLanes(spec, plan.geometry) : 0;
  if (packed > 1) {
    const int unpackedThreads = threads, unpackedItems = items; // (the unpacked plan's, if this one fails)
    // One row of packed rows: the look-back's pipelined tiles in a row's
    // blocks (items of `packed` elements each).
    plan.packedLanes = int(packed); // (its stages hold packed items)
    // Groups of over 16 bytes take blocks of 256: 128 registers a thread
    // for their items and window (f32 x 8 in blocks of 512 spilled 164
    // stores).
    // So do max and min of 2-byte elements: 8 spills in blocks of 384 (min bf16 x 4 reverse).
    const bool twoByteExtremes = dtypeSize(spec.in) == 2 && (spec.op == ScanOp::Max || spec.op == ScanOp::Min);
    // A thread a lane where the lanes tile a warp: groups of up to 16 bytes
    // of accumulators, of elements of 4 bytes or more (lane_threads.cuh).
    const int accBytes = dtypeSize(accumulatorType(spec.op, spec.in));
    plan.laneThreads = pickFlag(tuning.laneThreads, dtypeSize(spec.in) >= policy::ColumnPolicy::kLaneThreadMinBytes &&
                                                        packed * accBytes <= policy::ColumnPolicy::kLaneThreadGroupBytes) &&
                       32 % packed == 0;
    if (plan.laneThreads) {
      const bool wide = accBytes > 4;
      threads = pick(tuning.threads, wide ? policy::ColumnPolicy::kLaneThreadWideThreads
                                          : policy::ColumnPolicy::kLaneThreadThreads);
      items = pick(tuning.items, policy::ColumnPolicy::kLaneThreadItems);
    } else {
      if (packed * accBytes > 16 || twoByteExtremes)
        threads = pick(tuning.threads, policy::LookbackPolicy::kLargeTileWideThreads);
      items = pick(tuning.items, packedLanesItems(spec, threads, packed));
    }
    planLookback(arch, spec, tuning, plan, rows / packed, threads, items);
    if (plan.stages > 0)
      return true;
    plan.packedLanes = 0;
    plan.laneThreads = false;
    threads = unpackedThreads;
    items = unpackedItems;
  }
  if (lanes > 1 && !tuning.threads) // the step's rows of every lane fit the stage
    threads = int(std::clamp<int64_t>(policy::ColumnPolicy::kLanesStageBytes /
                                          (int64_t(items) * lanes * (dtypeSize(spec.in) + dtypeSize(spec.out))) / 32 * 32,
                                      64, threads));
  planLookback(arch, spec, tuning, plan, rows, threads, items, /*contiguousRows=*/false);
  if (lanes > 1) {
    // A block per tile step of a group of lanes (lookback_lanes.cuh).
    plan.sharedBytes = lanesSharedBytes(spec, int64_t(threads) * items * lanes);
    plan.grid = plan.grid / lanes;
  }
  return true;
}

// Rows of at most 16 bytes, or of at most kNarrowRowBytes that the look-back
// takes a group of lines at a time.
bool narrowColumns(const ScanSpec &spec, const ScanGeometry &g, const GeometryDim &inner) {
  const int64_t rowBytes = inner.size * std::max(dtypeSize(spec.in), dtypeSize(spec.out));
  return rowBytes <= 16 || (rowBytes <= policy::ColumnPolicy::kNarrowRowBytes && scanLanes(spec, g) > 1);
}

void planStrided(KernelPlan &plan) {
  plan.family = KernelFamily::Strided;
  plan.threads = policy::StridedPolicy::kThreads;
  plan.items = policy::StridedPolicy::kItems;
  plan.grid = ceilDiv(plan.geometry.numLines(), plan.threads / 32);
}

// Occupancy the plan asks for, no more than its arch fits of its blocks by
// threads and by shared memory (registers are the plan's own choice).
int fittingMinBlocks(const ArchPolicy &arch, const KernelPlan &plan) {
  int64_t fit = arch.maxThreadsPerSm / plan.threads;
  if (plan.sharedBytes > 0)
    fit = std::min<int64_t>(fit, arch.sharedBytesPerSm / (plan.sharedBytes + policy::kSharedBytesPerBlockReserved));
  return int(std::clamp<int64_t>(plan.minBlocksPerSm, 1, std::max<int64_t>(fit, 1)));
}

// Whether the outermost line dim's size can be a launch argument: always,
// but for narrow columns (lookback_lanes.cuh), and when tuned off. Narrow
// columns' lanes may be that dim (their count shapes the code); with a
// batch outside them, a batch taken at launch was 6-9% slower (H100,
// f32[8|16,1048576,2] dim=1: 0.110 -> 0.117 ms, 0.197 -> 0.214;
// BENCHMARKS.md), so they keep exact kernels.
bool batchAtLaunch(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan) {
  if (tuning.exactBatch || plan.geometry.lines.empty())
    return false;
  return scanLanes(spec, plan.geometry) <= 1;
}

} // namespace

ScanGeometry normalizeGeometry(const ScanSpec &spec) {
  ScanGeometry g;
  if (spec.rank() == 0) {
    g.scan = GeometryDim{1, 1, 1, spec.mask ? 1 : 0};
    return g;
  }
  g.scan = dimOf(spec, spec.dim);
  if (g.scan.size == 1) // a single step: its stride is never used
    g.scan = GeometryDim{1, 1, 1, spec.mask ? 1 : 0};
  for (int d = 0; d < spec.rank(); ++d) {
    if (d == spec.dim || spec.shape[d] == 1)
      continue;
    GeometryDim dim = dimOf(spec, d);
    if (!g.lines.empty() && mergeable(g.lines.back(), dim)) {
      GeometryDim &outer = g.lines.back();
      outer.size *= dim.size;
      outer.in = dim.in;
      outer.out = dim.out;
      outer.mask = dim.mask;
    } else {
      g.lines.push_back(dim);
    }
  }
  return g;
}

KernelPlan planKernel(const ScanSpec &spec, const PlanTuning &tuning, const Target &target) {
  KernelPlan plan;
  if (spec.numel() == 0)
    return plan; // family Empty: nothing to launch
  const ArchPolicy &arch = archPolicy(target);
  plan.policy = arch.family;
  plan.geometry = normalizeGeometry(spec);
  plan.index64 = needs64BitIndex(spec);
  const auto &lines = plan.geometry.lines;
  auto isUnit = [&](const GeometryDim &d) { return unitStride(d, spec.mask); };
  auto inner = std::find_if(lines.begin(), lines.end(), isUnit);
  // Each result's index rides along its value: so far only the strided
  // family's warp-per-line kernel carries the pair (any layout; the others
  // would each need their loads to know positions).
  if (spec.indices)
    planStrided(plan);
  else if (isUnit(plan.geometry.scan))
    planRow(arch, spec, tuning, plan);
  else if (inner != lines.end()) {
    if (!(narrowColumns(spec, plan.geometry, *inner) && planLinesByLookback(arch, spec, tuning, plan)))
      planColumn(arch, spec, tuning, plan, inner - lines.begin());
  } else if (!planLinesByLookback(arch, spec, tuning, plan)) {
    planStrided(plan);
  }
  plan.grid = std::min(plan.grid, policy::kMaxGrid);
  plan.minBlocksPerSm = fittingMinBlocks(arch, plan);
  plan.entry = entryName(spec, plan.family);
  plan.runtimeBatch = batchAtLaunch(spec, tuning, plan);
  plan.workspaceBytes = workspaceBytesForLines(spec, plan, plan.geometry.numLines());
  return plan;
}

int64_t linesPerBatch(const KernelPlan &plan) {
  const int64_t lines = plan.geometry.numLines();
  return plan.runtimeBatch ? lines / plan.geometry.lines[0].size : lines;
}

int64_t workspaceBytesForLines(const ScanSpec &spec, const KernelPlan &plan, int64_t lines) {
  const int accBytes = dtypeSize(accumulatorType(spec.op, spec.in));
  if (plan.family == KernelFamily::RowLookback)
    return lookbackWorkspaceBytes(lines * gridTilesPerRow(spec, plan), accBytes);
  if (plan.family == KernelFamily::Column && plan.wholeRows)
    return columnTilesWorkspaceBytes(spec, plan, lines);
  if (plan.family == KernelFamily::Column && plan.pieces > 1) {
    const int64_t panel = int64_t(plan.threads) / plan.groups * plan.vector; // column_panel_columns()
    return columnPiecesWorkspaceBytes(lines * ceilDiv(plan.geometry.inner.size, panel), plan.pieces, panel, accBytes,
                                      plan.pieceSpans);
  }
  return 0;
}

} // namespace scanjit
