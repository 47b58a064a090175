#include "compiler/Planner.h"
#include "compiler/ArchPolicy.h"
#include "compiler/PlannerPolicy.h"
#include "compiler/PlannerShared.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace scanjit {
using namespace planning;
namespace {

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

int rowItems(const ScanSpec &spec) {
  int items = std::min(policy::RowPolicy::kBytesPerThread / dtypeSize(spec.in),
                       policy::RowPolicy::kAccBytesPerThread / dtypeSize(accumulatorType(spec)));
  return std::clamp(items, 1, policy::RowPolicy::kMaxItems);
}

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
// narrow columns holds its items' lanes (off the grid: two words more).
int64_t stageBytes(const ScanSpec &spec, const KernelPlan &plan) {
  const int64_t tile = int64_t(plan.threads) * plan.items * (plan.laneThreads ? plan.laneWidth : std::max(1, plan.packedLanes));
  if (spanPlan(spec, plan)) {
    const GeometryDim &scan = plan.geometry.scan; // SpanPipeline's dense spans
    return tile * scan.in * dtypeSize(spec.in) + 32 + (spec.mask ? tile * scan.mask + 32 : 16);
  }
  const bool shifted = plan.edges && plan.packedLanes > 1; // (TilePipeline's kShifted: two words more each)
  return tile * std::max(dtypeSize(spec.in), dtypeSize(spec.out)) + (shifted ? 32 : 0) +
         (spec.mask ? tile + (plan.edges ? 32 : 0) : 16);
}

// Packed lanes (packedLanes) whose tiles start on the 16-byte grid where
// the pointers do, unless tuned off the grid: the group's other line
// strides are whole words, and its rows are, unless the group is alone
// (only its end then lies inside a word, which the pipeline's ragged end
// copies: TilePipeline::kRaggedEnd). Others take shifted stages (edges=1),
// as pointers off the grid do.
bool packedOnTheGrid(const ScanSpec &spec, const PlanTuning &tuning, const ScanGeometry &g, int64_t lanes) {
  const bool oneGroup = g.lines.size() == 1;
  return !tuning.offGrid && (oneGroup || bulkRun(spec, g.scan.size * lanes)) &&
         bulkLines(spec, llvm::ArrayRef<GeometryDim>(g.lines).drop_back());
}

// Ops whose combine costs more need the warps of more blocks per SM more
// than they need deeper stages.
int maxRowStages(const ScanSpec &spec) {
  return cheapCombine(spec) ? policy::StagePolicy::kMaxStages : policy::StagePolicy::kMaxStagesCostlyOps;
}

// A pipelined row block's threads, before fitting them to the row
// (StagePolicy::kRowThreads and its exceptions).
int pipelinedRowThreads(const ScanSpec &spec) {
  if (wideLogSumExp(spec))
    return policy::StagePolicy::kWideLogSumExpRowThreads;
  if (dtypeSize(spec.in) == 2 && !spec.mask && spec.op != ScanOp::LogSumExp)
    return policy::StagePolicy::kNarrowUnmaskedRowThreads;
  return policy::StagePolicy::kRowThreads;
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
  return int64_t(plan.threads) * plan.items / (plan.laneThreads ? plan.packedLanes / plan.laneWidth : 1);
}

// Look-back tiles of a row; on its 16-byte grid (edges), with room for a
// start anywhere in a word. Mirrors lookback_tiles_per_row() in
// templates/scanjit/lookback_scan.cuh.
int64_t gridTilesPerRow(const ScanSpec &spec, const KernelPlan &plan) {
  const bool onGrid = plan.edges && !spanPlan(spec, plan) && plan.packedLanes <= 1;
  return ceilDiv(plan.geometry.scan.size + (onGrid ? 16 / dtypeSize(spec.in) - 1 : 0), lookbackTileItems(plan));
}

// A look-back register tile of at most 32 bytes of 4-byte accumulators
// (f32 x 8): the plans that fit more than one 512-thread block an SM.
bool smallRegisterTile(const ScanSpec &spec, int items) {
  const int accBytes = dtypeSize(accumulatorType(spec));
  return accBytes == 4 && items * accBytes <= 32;
}

// Log-sum-exp of f32 and f64 inputs: exps and logs, not bytes, set its
// tile (LookbackPolicy::kLogSumExpItems).
bool logSumExpTile(const ScanSpec &spec) { return spec.op == ScanOp::LogSumExp && dtypeSize(spec.in) >= 4; }

// A look-back tile's items and block: small register tiles in blocks of
// 512 (384 in edges plans); larger tiles in smaller blocks, two an SM
// within their registers (LookbackPolicy).
void lookbackBlock(const ScanSpec &spec, const PlanTuning &tuning, bool edges, int &threads, int &items) {
  if (logSumExpTile(spec)) {
    items = pick(tuning.items, dtypeSize(accumulatorType(spec)) == 8 ? policy::LookbackPolicy::kLogSumExpF64Items
                                                                                 : policy::LookbackPolicy::kLogSumExpItems);
    threads = pick(tuning.threads, policy::LookbackPolicy::kLogSumExpThreads);
    return;
  }
  items = pick(tuning.items,
               std::min(rowItems(spec) * policy::LookbackPolicy::kItemsScale, policy::LookbackPolicy::kMaxItems));
  const bool smallTile = smallRegisterTile(spec, items);
  threads = pick(tuning.threads, smallTile ? (edges ? policy::LookbackPolicy::kEdgesThreads : policy::LookbackPolicy::kThreads)
                                 : edges || dtypeSize(accumulatorType(spec)) > 4
                                     ? policy::LookbackPolicy::kLargeTileWideThreads
                                     : policy::LookbackPolicy::kLargeTileThreads);
}

// Whether `rows` lines of `length` hold LookbackPolicy::kWideTileMinTiles
// tiles of `threads` x `items` (a batch's class shares its kernel).
bool holdsWideTiles(const PlanTuning &tuning, int64_t rows, int64_t length, int threads, int items) {
  return classCount(tuning, rows) * ceilDiv(length, int64_t(threads) * items) >=
         policy::LookbackPolicy::kWideTileMinTiles;
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
  const int accBytes = dtypeSize(accumulatorType(spec));
  const bool maskedIntegerProduct = spec.mask && spec.op == ScanOp::Prod && !isFloating(spec.in);
  const bool maskedWord = spec.mask && dtypeSize(spec.in) == 4 && accBytes == 4 && spec.op != ScanOp::LogSumExp;
  const int tileAccBytes = accBytes > 4 && maskedIntegerProduct ? policy::LookbackPolicy::kWideTileWideAccBytes
                           : maskedWord                          ? policy::LookbackPolicy::kWideTileMaskedWordBytes
                                                                 : policy::LookbackPolicy::kWideTileAccBytes;
  const int wideItems = pick(tuning.items, std::min(tileAccBytes / accBytes, policy::LookbackPolicy::kWideTileMaxItems));
  const int wideThreads = pick(tuning.threads, policy::LookbackPolicy::kLargeTileWideThreads);
  if (!holdsWideTiles(tuning, rows, length, wideThreads, wideItems))
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
// log-sum-exp (and max and min: kDenseMaxMinUncapped), any number of them
// unmasked and on the 16-byte grid, kMaskedDenseMaxRows masked,
// kEdgesDenseMaxRows off the grid and kNarrowWideningMaxRows of 1- and
// 2-byte integers summed into 8 bytes (kWidenedEdgesMaxRows off the grid);
// kMaxRows of any other rows.
int64_t lookbackMaxRows(const ArchPolicy &arch, const ScanSpec &spec, bool edges) {
  const int accBytes = dtypeSize(accumulatorType(spec));
  const bool dense = policy::LookbackPolicy::kDenseRowsUncapped && arch.bulkCopy && spec.op != ScanOp::LogSumExp &&
                     (!maxOrMin(spec) || policy::LookbackPolicy::kDenseMaxMinUncapped) &&
                     (dtypeSize(spec.in) >= 4 || accBytes == 8);
  const bool widened = isIntegral(spec.in) && dtypeSize(spec.in) < accBytes; // integer sums into 8 bytes
  using policy::LookbackPolicy;
  return !dense                              ? LookbackPolicy::kMaxRows
         : edges && widened                  ? LookbackPolicy::kWidenedEdgesMaxRows
         : widened && dtypeSize(spec.in) < 4 ? LookbackPolicy::kNarrowWideningMaxRows
         : edges                             ? LookbackPolicy::kEdgesDenseMaxRows
         : spec.mask                         ? LookbackPolicy::kMaskedDenseMaxRows
                                             : policy::kMaxGrid;
}

// A window no wider than its row: a tile's window need not reach past its
// row's first tile, so rows of fewer tiles than the policy's window have
// the fewest reading warps, a tile a lane, whose window holds all of a
// row's tiles (LookbackPolicy::kWindowFitsTheRow; a value in parts: `parts`
// times those). A window of W tiles reads the W - 1 aggregates before its
// tile and the inclusive prefix of the tile W back: W >= the row's tiles
// leaves no tile a base, whose inclusive prefix is published later than an
// aggregate. Fewer readers wait and fold less at each tile. (Not
// log-sum-exp: kWindowFitsTheRow's note.)
void fitWindowToRow(const ScanSpec &spec, const PlanTuning &tuning, int64_t tilesPerRow, int parts,
                    KernelPlan &plan) {
  if (!policy::LookbackPolicy::kWindowFitsTheRow || spec.op == ScanOp::LogSumExp || tuning.lookbackWarps ||
      tuning.lookback)
    return;
  const int64_t window = int64_t(32) * plan.lookbackWarps * plan.lookbackPerLane / parts;
  if (tilesPerRow > window)
    return;
  const int64_t warps = parts * ceilDiv(tilesPerRow, int64_t(32));
  if (warps <= plan.lookbackWarps) {
    plan.lookbackWarps = int(warps);
    plan.lookbackPerLane = 1;
  } else { // every policy warp reads, as few tiles a lane as hold the row
    plan.lookbackPerLane = int(ceilDiv(tilesPerRow * parts, int64_t(32) * plan.lookbackWarps));
  }
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

// Look-back tiles by lanes (archs without stages) of a few contiguous rows:
// each block takes a share of a row's consecutive tiles, reads them once for
// their total, looks back once over the totals of the shares before it,
// and reads them again to scan them (lookback_scan_reread_shares), as held
// shares do from their stages; the second read comes from L2 where the
// input fits it. Shares are sized as held shares' (kSharesBlocks blocks);
// the window reaches every share before the last of a row. (Smaller shares
// whose second read hits L2, blocks taking them by ticket, lost as sm_80:
// f32[67108864] then read its input from DRAM once, not twice, yet ran
// 1.54 of copy at 4 tiles a share, 1.91 at 2, against these shares'
// 1.54-1.67; bf16[28053728] 1.79 -> 2.11-2.26; BENCHMARKS.md, fiftieth
// pass.)
void planRereadShares(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                      int64_t rows, int64_t tilesPerRow) {
  using policy::LookbackPolicy;
  if (!plan.laneRuns || plan.packedLanes > 1 || arch.bulkCopy || rows > LookbackPolicy::kSharesMaxRows ||
      spec.op == ScanOp::LogSumExp || !pickFlag(tuning.rereadShares, LookbackPolicy::kRereadShares))
    return;
  const int64_t blocks = pick(tuning.blocks, LookbackPolicy::kSharesBlocks);
  const int64_t share = ceilDiv(tilesPerRow, std::clamp<int64_t>(blocks / rows, 1, tilesPerRow));
  const int64_t sharesPerRow = ceilDiv(tilesPerRow, share);
  if (share < LookbackPolicy::kSharesMinTiles && tuning.rereadShares != 1)
    return;
  plan.rereadShare = int(share);
  plan.grid = rows * sharesPerRow;
  // Two blocks an SM (kSharesBlocks) leave each thread more registers than
  // the lean look-back's three: f32[67108864]'s shares of 63 tiles spilled
  // 32 bytes in its 40.
  plan.minBlocksPerSm = std::clamp(int(blocks / policy::kTimedSms), 1, plan.minBlocksPerSm);
  plan.lookbackWarps = int(std::min<int64_t>(plan.threads / 32, ceilDiv(sharesPerRow, 32)));
  plan.lookbackPerLane = int(ceilDiv(sharesPerRow, 32 * int64_t(plan.lookbackWarps)));
}

// The accumulator bytes of a group of `lanes` packed lanes (a look-back's
// published value).
int64_t packedGroupBytes(const ScanSpec &spec, int64_t lanes) {
  return lanes * dtypeSize(accumulatorType(spec));
}

// The lanes of each part a look-back publishes a packed group's value in:
// the whole group where it fits kMaxPackedBytes, else the fewest parts that
// fit, of as many lanes each, the last padded (lanes_a_part in
// templates/scanjit/packed_lanes.cuh).
int64_t publishedPartLanes(const ScanSpec &spec, int64_t lanes) {
  const int64_t parts = ceilDiv(packedGroupBytes(spec, lanes), policy::ColumnPolicy::kMaxPackedBytes);
  return ceilDiv(lanes, parts);
}
int publishedParts(const ScanSpec &spec, int64_t lanes) {
  return int(ceilDiv(lanes, publishedPartLanes(spec, lanes)));
}
// The bytes a packed group's value is published in, padding included.
int64_t publishedGroupBytes(const ScanSpec &spec, int64_t lanes) {
  return packedGroupBytes(spec, publishedParts(spec, lanes) * publishedPartLanes(spec, lanes));
}

// Whether a pipelined look-back tile's items may be scanned again from its
// stage for its results: the stage keeps the tile's input until its results
// overwrite it, each thread's results on its own items, which needs results
// that leave through the stages (three or more, with an output whose tiles
// lie whole 16-byte words apart, TilePipeline::kOutputFitsStages, or the
// grid stages of edges plans) and are as wide as the input (a narrower or
// wider output lands on other threads' items before they read them again).
// Plain tiles of contiguous rows only: not held shares, packed lanes (their
// own agents) or log-sum-exp (its thread scan is not run again).
bool tilesRereadFromStages(const ScanSpec &spec, const KernelPlan &plan, bool contiguousRows) {
  const ScanGeometry &g = plan.geometry;
  const int64_t outBytes = dtypeSize(spec.out);
  const bool wordsApart =
      plan.edges || g.lines.empty() ||
      ((g.scan.size * outBytes) % 16 == 0 && std::all_of(g.lines.begin(), g.lines.end(), [&](const GeometryDim &d) {
         return (d.out * outBytes) % 16 == 0;
       }));
  return contiguousRows && plan.stages >= 3 && !plan.heldShares && plan.packedLanes <= 1 &&
         spec.op != ScanOp::LogSumExp && outBytes == dtypeSize(spec.in) && wordsApart;
}

// The most stages a lazy start keeps in ticket order in a block that
// finishes its tiles `slack` late: each later slack refills its stages a
// tile later (LookbackPolicy::kLazyStartMaxStages; LazyStart checks it).
int lazyStartMaxStages(int slack) { return policy::LookbackPolicy::kLazyStartMaxStages + slack - 1; }

// Tiles a pipelined look-back block scans before it finishes the oldest
// (lookback_scan_pipelined): 1, or where tuned so, 2, where its tiles may be
// read again from their stages (tilesRereadFromStages), with four stages or
// more (but at most lazyStartMaxStages(2): it always starts lazily) and not
// off the grid. Not the policy's yet (LookbackPolicy::kSlack).
int lookbackSlack(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan, bool contiguousRows) {
  const bool fits = tilesRereadFromStages(spec, plan, contiguousRows) && plan.stages >= 4 &&
                    plan.stages <= lazyStartMaxStages(2) && !plan.edges;
  return pick(tuning.lookbackSlack, policy::LookbackPolicy::kSlack) == 2 && fits ? 2 : 1;
}

// Whether a tile finished one tile late is scanned again from its stage for
// its results (reread_tiles) instead of held across the next tile's scan: a
// block then holds one tile's items, not two (sum bf16[101238608] at 256 x
// 24: 96 -> 72 registers), so wider tiles fit. The policy's only where it
// widens the block (LookbackPolicy::kRereadTiles, widenRereadTileBlock).
bool rereadTiles(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan, bool contiguousRows) {
  const bool fits = tilesRereadFromStages(spec, plan, contiguousRows) && plan.lookbackSlack == 1;
  return fits && pickFlag(tuning.rereadTiles, policy::LookbackPolicy::kRereadTiles);
}

// Few long contiguous rows: tiles of `threads` x `items` chained by look-back.
// Packed narrow columns (plan.packedLanes, set by the caller) are one
// contiguous row of items of that many elements, on the 16-byte grid
// (packedLanes() checked); strided lines stage their tiles' dense spans
// (spanStaged) or load their items at the stride.
// `smBlocks`: blocks an SM the plan's registers and stages are sized for
// (0: the look-back policy's).
void planLookback(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                  int64_t rows, int threads, int items, bool contiguousRows = true, int smBlocks = 0) {
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
  const bool smallTile = smallRegisterTile(spec, plan.laneThreads ? plan.items * plan.laneWidth : plan.items * lanes);
  // (Packed lanes off the grid: their stages shifted.)
  plan.edges = contiguousRows && (lanes == 1 ? !rowsOnTheGrid(spec, tuning, plan)
                                             : !packedOnTheGrid(spec, tuning, plan.geometry, lanes));
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
  plan.minBlocksPerSm = pick(tuning.occupancy, smBlocks ? smBlocks : smallTile ? fit : largeTileBlocks);
  // A lane of every warp reads the window where a value a lane is all the
  // registers allow (packed lanes: 4 values of 4 lanes spilled 88 stores).
  const bool everyWarpReads = lean || lanes > 1;
  plan.lookbackPerLane = pick(tuning.lookback, everyWarpReads                 ? policy::LookbackPolicy::kLeanPerLane
                                               : spec.op == ScanOp::LogSumExp ? policy::LookbackPolicy::kLogSumExpPerLane
                                                                              : policy::LookbackPolicy::kPerLane);
  plan.lookbackWarps = std::min(
      pick(tuning.lookbackWarps, everyWarpReads ? plan.threads / 32 : policy::LookbackPolicy::kWarps),
      plan.threads / 32);
  // A value published in parts: whole warps a part (LookbackWindow).
  const int parts = lanes > 1 ? publishedParts(spec, lanes) : 1;
  plan.lookbackWarps = std::max(parts, plan.lookbackWarps / parts * parts);
  // Stages hold contiguous rows, or dense spans (any pointer: edges).
  plan.stages = contiguousRows || spans
                    ? bulkStages(arch, spec, tuning, plan,
                                 lean ? policy::LookbackPolicy::kLeanStages : policy::LookbackPolicy::kStages,
                                 policy::StagePolicy::kLookbackBudgetBytes, smBlocks)
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
  fitWindowToRow(spec, tuning, tilesPerRow, parts, plan);
  plan.grid = rows * tilesPerRow;
  if (plan.stages > 0) // each block scans many tiles; fewer blocks cost no parallelism
    plan.grid = std::min<int64_t>(plan.grid, pick(tuning.blocks, policy::LookbackPolicy::kMaxBlocks));
  planHeldShares(arch, spec, tuning, plan, rows, tilesPerRow, contiguousRows && !spans && lanes == 1);
  plan.lookbackSlack = lookbackSlack(spec, tuning, plan, contiguousRows && !spans);
  plan.rereadTiles = rereadTiles(spec, tuning, plan, contiguousRows && !spans);
  const int64_t laneRunScratch = int64_t(plan.threads) * plan.items * lanes *
                                 (std::max(dtypeSize(spec.in), dtypeSize(spec.out)) + (spec.mask ? 1 : 0));
  plan.laneRuns = plan.stages == 0 && contiguousRows && !spans && !plan.laneThreads &&
                  laneRunScratch <= policy::LookbackPolicy::kLaneRunScratchBytes &&
                  pickFlag(tuning.laneRuns, policy::LookbackPolicy::kLaneRunsWithoutStages);
  plan.lanesOnGrid =
      plan.laneRuns && pickFlag(tuning.lanesOnGrid, policy::LookbackPolicy::kLanesOnGrid && !arch.bulkCopy);
  planRereadShares(arch, spec, tuning, plan, rows, tilesPerRow);
}

// 2-byte rows' wide look-back tiles of sums and products in wider blocks,
// read again from their stages (LookbackPolicy::kRereadWideTiles): `plan`,
// planned from `unplanned` with the wide tile, tile by tile (not held
// shares), is planned again in blocks of kRereadTileThreads and kept so
// where its tiles may be read again and the scan still holds
// kWideTileMinTiles of them.
void widenRereadTileBlock(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning,
                          const KernelPlan &unplanned, int64_t rows, KernelPlan &plan) {
  using policy::LookbackPolicy;
  const bool wideTile = plan.threads == LookbackPolicy::kLargeTileWideThreads &&
                        plan.items * dtypeSize(accumulatorType(spec)) == LookbackPolicy::kWideTileAccBytes;
  if (!LookbackPolicy::kRereadWideTiles || dtypeSize(spec.in) != 2 || maxOrMin(spec) || !wideTile ||
      plan.heldShares || plan.rereadTiles || tuning.threads || tuning.rereadTiles == 0)
    return;
  PlanTuning reread = tuning;
  reread.rereadTiles = 1;
  KernelPlan wide = unplanned;
  planLookback(arch, spec, reread, wide, rows, LookbackPolicy::kRereadTileThreads, plan.items);
  if (wide.rereadTiles && holdsWideTiles(tuning, rows, plan.geometry.scan.size, wide.threads, wide.items))
    plan = wide;
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
  if (contiguousRows && rows > 1 && pickFlag(tuning.segmented, L * policy::SegmentedPolicy::kMinRowsPerTile <= tile)) {
    planSegmented(arch, spec, tuning, plan, rows);
    return;
  }
  int lookbackThreads, lookbackItems;
  const bool edges = !rowsOnTheGrid(spec, tuning, plan);
  lookbackBlock(spec, tuning, edges, lookbackThreads, lookbackItems);
  if (lookbackFits(tuning, rows, L, lookbackItems, lookbackMaxRows(arch, spec, edges))) {
    widenLookbackTile(spec, tuning, edges, rows, L, lookbackThreads, lookbackItems);
    const KernelPlan unplanned = plan;
    planLookback(arch, spec, tuning, plan, rows, lookbackThreads, lookbackItems);
    widenRereadTileBlock(arch, spec, tuning, unplanned, rows, plan);
    return;
  }
  plan.family = KernelFamily::Row;
  if (spec.op == ScanOp::LogSumExp)
    plan.items = std::min(policy::RowPolicy::kMaxItems, policy::RowPolicy::kLogSumExpAccBytesPerThread /
                                                            dtypeSize(accumulatorType(spec)));
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
    plan.threads = rowThreadsFittingTheRow(L, plan.items, blockFor(pipelinedRowThreads(spec)));
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
  const bool wideElements = dtypeSize(spec.in) >= 4;
  plan.lanesOnGrid =
      plan.stages == 0 && pickFlag(tuning.lanesOnGrid, policy::RowPolicy::kLanesOnGrid && !arch.bulkCopy &&
                                                           !(wideElements && (spec.op == ScanOp::LogSumExp ||
                                                                              rows < policy::RowPolicy::kLanesOnGridMinRows)));
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

// Log-sum-exp lanes pack only as lane threads of one lane each, which scan
// a lane's items as (max, sum) pairs (lane_threads.cuh): as Lanes items
// every combine would cost an exp and a log1p. So their lanes tile a warp.
bool logSumExpLanesPack(int64_t lanes) { return 32 % lanes == 0; }

// Narrow columns the look-back scans as one row of their rows
// (PackedLanes in templates/scanjit/packed_lanes.cuh): a cheap combine, a
// group's values within kMaxPackedBytes, or within kMaxSplitPackedBytes in
// parts of it (publishedParts), and every other line stride in
// whole groups, so the pipelined look-back bulk-copies them (the tiles of
// lines off the 16-byte grid through shifted stages: packedOnTheGrid). The
// group's size, else 0.
int64_t packedLanes(const ScanSpec &spec, const ScanGeometry &g) {
  const int64_t c = scanLanes(spec, g);
  if (c <= 1 || (spec.op == ScanOp::LogSumExp && !logSumExpLanesPack(c)))
    return 0;
  if (packedGroupBytes(spec, c) > policy::ColumnPolicy::kMaxSplitPackedBytes)
    return 0;
  auto packs = [&](const GeometryDim &d) { return d.in % c == 0 && d.out % c == 0 && (!spec.mask || d.mask % c == 0); };
  return std::all_of(g.lines.begin(), g.lines.end() - 1, packs) ? c : 0;
}

// 2-byte elements in 4-byte accumulators, which packed lanes give smaller
// blocks and a wider accumulator budget (ColumnPolicy::kPackedTwoByte*).
bool twoByteInWordAccumulators(const ScanSpec &spec) {
  return dtypeSize(spec.in) == 2 && dtypeSize(accumulatorType(spec)) == 4;
}

// Wide groups packed without stages (ColumnPolicy::kPackedWithoutStagesWide*):
// unmasked groups of over kPackedWithoutStagesGroupBytes of 4-byte
// accumulators, of 4-byte elements, or of 16 narrower ones (max u8 x 8
// left unpacked; 2-byte x 8 fits the narrow groups' budget). Masked ones'
// items spilled 184-284 stores (max u8 x 16).
bool packedWithoutStagesWide(const ScanSpec &spec, int64_t lanes) {
  return !spec.mask && dtypeSize(accumulatorType(spec)) == 4 &&
         (dtypeSize(spec.in) == 4 || lanes == policy::ColumnPolicy::kMaxLanes) &&
         packedGroupBytes(spec, lanes) > policy::ColumnPolicy::kPackedWithoutStagesGroupBytes;
}

// A wide group's block (packedWithoutStagesWide): kPackedWithoutStagesWideAccBytes
// of accumulators a thread, in blocks of kPackedWithoutStagesWideThreads for
// 4-byte elements and kPackedWithoutStagesWideNarrowThreads for narrower
// ones, but where those spilled at their 128 registers (narrower integers'
// exclusive scans: 4-16 stores; f16 sums and products for sm_75, which has
// no cp.async: 8): blocks of kPackedWithoutStagesWideThreads, twice the items.
void packedWithoutStagesWideBlock(const ArchPolicy &arch, const ScanSpec &spec, int64_t lanes, int &threads,
                                  int &items) {
  using policy::ColumnPolicy;
  const bool narrow = dtypeSize(spec.in) < 4;
  const bool narrowSpills = (spec.exclusive && isIntegral(spec.in)) || (!arch.asyncCopy && dtypeSize(spec.in) == 2);
  const bool spills = narrow && narrowSpills;
  threads = narrow && !spills ? ColumnPolicy::kPackedWithoutStagesWideNarrowThreads
                              : ColumnPolicy::kPackedWithoutStagesWideThreads;
  items = int(ColumnPolicy::kPackedWithoutStagesWideAccBytes / packedGroupBytes(spec, lanes)) * (spills ? 2 : 1);
}

// Whether narrow columns pack without stages by the policy
// (ColumnPolicy::kPackedWithoutStages): lanes a power of two, whose items
// load as words, in groups of at most kPackedWithoutStagesGroupBytes of
// accumulators (twice that for 2-byte elements in 4-byte accumulators), or
// wide ones (packedWithoutStagesWide).
bool packedWithoutStagesPays(const ScanSpec &spec, const ScanGeometry &g) {
  using policy::ColumnPolicy;
  const int64_t lanes = scanLanes(spec, g);
  if (!ColumnPolicy::kPackedWithoutStages || !llvm::isPowerOf2_64(uint64_t(lanes)))
    return false;
  const int64_t maxBytes = ColumnPolicy::kPackedWithoutStagesGroupBytes * (twoByteInWordAccumulators(spec) ? 2 : 1);
  if (packedGroupBytes(spec, lanes) <= maxBytes)
    return true;
  // 16 lanes of elements wider than a byte (f32 x 16, f16 x 16): only with
  // kPackedWithoutStagesWideSixteen.
  const bool sixteenWide = lanes == ColumnPolicy::kMaxLanes && dtypeSize(spec.in) > 1;
  return packedWithoutStagesWide(spec, lanes) && (!sixteenWide || ColumnPolicy::kPackedWithoutStagesWideSixteen);
}

// Byte elements in and out: lane threads' words of them are 4 bytes, half
// the others' (ColumnPolicy::kLaneThreadByteItems).
bool byteElements(const ScanSpec &spec) { return dtypeSize(spec.in) == 1 && dtypeSize(spec.out) == 1; }

// u8/i8 elements in and out (not bool): the byte words whose max and min
// take the byte-wise SIMD ops (byte_lanes.cuh).
bool byteIntegerElements(const ScanSpec &spec) {
  return (spec.in == DType::U8 || spec.in == DType::I8) && byteElements(spec);
}

// Blocks of packed lanes: 256 threads for groups of over 16 bytes of
// accumulators (128 registers a thread for their items and window: f32 x 8
// in blocks of 512 spilled 164 stores), for 2-byte elements in 4-byte
// accumulators (min bf16 x 4 reverse spilled 8 in blocks of 384), 128 for
// those in groups of over 16 bytes, and for elements of 4 bytes or more
// (3 lanes of words, as Lanes items: H200, x copy, blocks of 512 then 256,
// sum f32[5592404,3] 2.28 -> 1.80, max f32[5592405,3] 2.87 -> 1.84, max
// i32[5592404,3] mask reverse 2.00 -> 1.66; bytes lost, max u8[5592404,3]
// reverse 3.96 -> 5.1); else the look-back's.
int packedLanesThreads(const ScanSpec &spec, int64_t lanes, int lookbackThreads) {
  const int64_t groupBytes = packedGroupBytes(spec, lanes);
  if (twoByteInWordAccumulators(spec))
    return groupBytes > policy::ColumnPolicy::kPackedTwoByteMaxGroupBytes ? policy::ColumnPolicy::kPackedTwoByteWideThreads
                                                                          : policy::LookbackPolicy::kLargeTileWideThreads;
  return groupBytes > 16 || dtypeSize(spec.in) >= 4 ? policy::LookbackPolicy::kLargeTileWideThreads : lookbackThreads;
}

// Items a thread of packed lanes that make a tile of at most `tileBytes` of
// input within `accBytes` of accumulators a thread (2-byte elements in
// 4-byte accumulators: kPackedTwoByteAccBytes, kPackedTwoByteWideAccBytes
// in groups of over kPackedTwoByteMaxGroupBytes), at least one.
int64_t packedItemsWithin(const ScanSpec &spec, int threads, int64_t lanes, int64_t tileBytes, int64_t accBytes) {
  const int64_t byTile = tileBytes / (threads * lanes * dtypeSize(spec.in));
  const int64_t groupBytes = packedGroupBytes(spec, lanes);
  const int64_t budget = !twoByteInWordAccumulators(spec) ? accBytes
                         : groupBytes <= policy::ColumnPolicy::kPackedTwoByteMaxGroupBytes
                             ? policy::ColumnPolicy::kPackedTwoByteAccBytes
                             : policy::ColumnPolicy::kPackedTwoByteWideAccBytes;
  return std::max<int64_t>(1, std::min(byTile, budget / groupBytes));
}

// Log-sum-exp's packed lanes (packedLanes: they tile a warp): a thread a
// lane (lane threads of width 1), whose items it scans as a plain
// log-sum-exp tile does its (log_sum_exp_tile.cuh), in the look-back's
// stages: ColumnPolicy::kLaneThreadLogSumExp* blocks. False (`plan` as it
// was) where lane threads are tuned off or the stages do not fit.
bool planLogSumExpLanes(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, int64_t rows,
                        int64_t packed, KernelPlan &plan) {
  using policy::ColumnPolicy;
  if (!pickFlag(tuning.laneThreads, true))
    return false;
  KernelPlan lanes = plan;
  lanes.packedLanes = int(packed);
  lanes.laneThreads = true;
  lanes.laneWidth = 1;
  const bool wide = dtypeSize(accumulatorType(spec)) == 8;
  const bool shifted = !packedOnTheGrid(spec, tuning, plan.geometry, packed); // (planLookback's edges)
  const bool inParts = publishedParts(spec, packed) > 1;
  const bool wholeValue = packedGroupBytes(spec, packed) == ColumnPolicy::kMaxPackedBytes;
  const int items = wide && shifted ? ColumnPolicy::kLaneThreadLogSumExpWideShiftedItems
                    : wide          ? ColumnPolicy::kLaneThreadLogSumExpWideItems
                    : shifted       ? (inParts ? ColumnPolicy::kLaneThreadLogSumExpShiftedPartsItems
                                               : ColumnPolicy::kLaneThreadLogSumExpShiftedItems)
                    : wholeValue    ? ColumnPolicy::kLaneThreadLogSumExpWholeValueItems
                                    : ColumnPolicy::kLaneThreadLogSumExpItems;
  planLookback(arch, spec, tuning, lanes, rows / packed, pick(tuning.threads, ColumnPolicy::kLaneThreadLogSumExpThreads),
               pick(tuning.items, items), /*contiguousRows=*/true,
               wide ? ColumnPolicy::kLaneThreadLogSumExpWideBlocksPerSm : 0);
  if (lanes.stages == 0)
    return false;
  plan = lanes;
  return true;
}

// Items a thread of packed lanes: a tile of about kPackedTileBytes of
// input, within kPackedAccBytes of accumulators a thread, a power of two.
// (H100: f64[8388608,2] 2 items 2.2 of copy, 4 items 1.5; f32[4194304,4] 2
// items 1.7, 8 items 4.3; BENCHMARKS.md.)
int packedLanesItems(const ScanSpec &spec, int threads, int64_t lanes) {
  return int(llvm::PowerOf2Floor(uint64_t(packedItemsWithin(spec, threads, lanes, policy::ColumnPolicy::kPackedTileBytes,
                                                            policy::ColumnPolicy::kPackedAccBytes))));
}

// Items a thread of staged packed lanes: 2-byte elements of 2 lanes
// (unmasked, on a timed arch: sm_100's ptxas spilled 8-40 stores at 19-21
// items) or 3 take the most items that keep 128 registers without spills,
// fewer in shifted stages (ColumnPolicy::kPackedTwoByteStaged*); groups of
// up to 24 bytes of accumulators in blocks of up to 256, on a timed arch,
// packedLanesItems's budgets, wider and not rounded to a power of two
// (ColumnPolicy::kPackedStaged*; planLinesByLookback keeps three stages);
// else its items.
int stagedPackedLanesItems(const ArchPolicy &arch, const ScanSpec &spec, int threads, int64_t lanes, bool shifted) {
  using policy::ColumnPolicy;
  if (twoByteInWordAccumulators(spec) && lanes == 2 && !spec.mask && arch.timed)
    return shifted ? ColumnPolicy::kPackedTwoByteStagedTwoLaneShiftedItems : ColumnPolicy::kPackedTwoByteStagedTwoLaneItems;
  if (twoByteInWordAccumulators(spec) && lanes == 3)
    return shifted ? ColumnPolicy::kPackedTwoByteStagedThreeLaneShiftedItems
                   : ColumnPolicy::kPackedTwoByteStagedThreeLaneItems;
  if (twoByteInWordAccumulators(spec) && isFloating(spec.in) && lanes == 4 && shifted && !spec.mask && arch.timed)
    return ColumnPolicy::kPackedTwoByteStagedFourLaneShiftedItems;
  if (packedGroupBytes(spec, lanes) > ColumnPolicy::kPackedStagedMaxGroupBytes ||
      threads > ColumnPolicy::kPackedStagedMaxThreads || !arch.timed)
    return packedLanesItems(spec, threads, lanes);
  return int(packedItemsWithin(spec, threads, lanes, ColumnPolicy::kPackedStagedTileBytes,
                               ColumnPolicy::kPackedStagedAccBytes));
}

// Adjacent lanes a lane thread holds of each packed item (lane_threads.cuh):
// the tuning's where it makes whole groups of at most 16 bytes; else a word
// of ColumnPolicy::kLaneWordBytes (kLaneWordBytesOfBytes for byte elements,
// kLaneWordBytesOfByteMaxMin for u8/i8 max and min of 8 or 16 lanes, kept
// in one block an SM: planLinesByLookback) where the lanes are whole such
// words and their accumulators of at most 4 bytes each; else 1.
int laneThreadWidth(const ScanSpec &spec, int64_t lanes, const PlanTuning &tuning) {
  const int64_t elementBytes = std::max(dtypeSize(spec.in), dtypeSize(spec.out));
  if (tuning.laneWidth)
    return lanes % tuning.laneWidth == 0 && tuning.laneWidth * elementBytes <= 16 ? tuning.laneWidth : 1;
  const int64_t accBytes = dtypeSize(accumulatorType(spec));
  const bool byteMaxMinWords = byteIntegerElements(spec) && (spec.op == ScanOp::Max || spec.op == ScanOp::Min) &&
                               lanes % policy::ColumnPolicy::kLaneWordsOfByteMaxMinLanes == 0;
  const int64_t word = byteMaxMinWords    ? policy::ColumnPolicy::kLaneWordBytesOfByteMaxMin
                       : elementBytes == 1 ? policy::ColumnPolicy::kLaneWordBytesOfBytes
                                           : policy::ColumnPolicy::kLaneWordBytes;
  int64_t w = word / elementBytes;
  if (elementBytes == 1 && lanes % w != 0)
    w = 2; // two byte lanes as a 2-byte word (ColumnPolicy::kLaneThreadByteItems)
  return w > 1 && lanes % w == 0 && accBytes <= 4 ? int(w) : 1;
}

// Whether lane threads of `width` lanes each pay (the caller checks that
// their groups tile a warp): groups of up to kLaneThreadGroupBytes of
// accumulators of elements of kLaneThreadMinBytes or more a lane a thread;
// words of lanes (width > 1) where their item is not one thread's with a
// mask and 16 bytes of accumulators (but for byte elements), and where 16
// bytes of them are not in shifted stages (ColumnPolicy::kLaneWordBytes)
// but as words of four 2-byte lanes of several a group
// (kShiftedTwoByteLaneWordsOfFour); in shifted stages, not unmasked groups
// of kShiftedLanesAsItemsMinGroupBytes or more of elements of 4 bytes or
// more (kShiftedWideLanesAsItems).
bool laneThreadsPay(const ScanSpec &spec, int64_t lanes, int width, bool shifted) {
  const int64_t accBytes = dtypeSize(accumulatorType(spec)), inBytes = dtypeSize(spec.in);
  if (policy::ColumnPolicy::kShiftedWideLanesAsItems && shifted && !spec.mask &&
      inBytes >= policy::ColumnPolicy::kLaneThreadMinBytes &&
      lanes * accBytes >= policy::ColumnPolicy::kShiftedLanesAsItemsMinGroupBytes)
    return false;
  const bool shiftedWordsPay =
      policy::ColumnPolicy::kShiftedTwoByteLaneWordsOfFour && inBytes == 2 && width == 4 && lanes > width;
  return width > 1 ? !(width * accBytes > 8 &&
                       (shifted ? !shiftedWordsPay : (spec.mask && lanes == width && !byteElements(spec))))
                   : inBytes >= policy::ColumnPolicy::kLaneThreadMinBytes &&
                         lanes * accBytes <= policy::ColumnPolicy::kLaneThreadGroupBytes;
}

// Packed lanes that take more items on the timed arch where that still
// makes `minTilesPerSm` tiles an SM and three stages (items 0 where none
// do): in the usual blocks (smBlocks 0), unmasked u8/i8 words of four lanes
// (ColumnPolicy::kLaneThreadByteWord*; not bool, which spilled 20 stores at
// 23); in one block an SM (ColumnPolicy::kPackedOneBlock*), four 2-byte
// lanes in 4-byte accumulators (staged Lanes items shifted and unmasked or
// on the grid and masked; lane threads on the grid, unmasked), five 4-byte
// lanes on the grid (staged), u8/i8 pairs and masked u8/i8 words of four
// lanes (lane threads); and staged Lanes items the byte budget leaves at
// few items a thread (`items`, the policy's), from the most items down by
// two (`fewerBy`) to the first that holds three stages and makes the tiles.
struct WiderPackedItems {
  int items = 0;
  int minTilesPerSm = 0;
  int smBlocks = 0;
  int fewerBy = 0; // 0: only `items`
  int threads = 0; // 0: the plan's
};
WiderPackedItems widerPackedItems(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning,
                                  const KernelPlan &plan, bool shifted, int items) {
  using policy::ColumnPolicy;
  if (!arch.timed || tuning.items)
    return {};
  const bool byteWordsOfFour = byteIntegerElements(spec) && plan.laneThreads &&
                               plan.laneWidth == ColumnPolicy::kLaneWordBytesOfBytes;
  if (byteWordsOfFour && !spec.mask)
    return {ColumnPolicy::kLaneThreadByteWordItems, ColumnPolicy::kLaneThreadByteWordMinTilesPerSm, 0};
  if (tuning.occupancy)
    return {};
  const int minTiles = ColumnPolicy::kPackedOneBlockMinTilesPerSm, one = ColumnPolicy::kPackedOneBlockPerSm;
  const bool fourTwoByteLanes = twoByteInWordAccumulators(spec) && plan.packedLanes == 4;
  if (!plan.laneThreads && fourTwoByteLanes && shifted && !spec.mask)
    return {ColumnPolicy::kPackedTwoByteShiftedFourLaneOneBlockItems, minTiles, one};
  if (!plan.laneThreads && fourTwoByteLanes && !shifted && spec.mask)
    return {ColumnPolicy::kPackedTwoByteMaskedFourLaneOneBlockItems, minTiles, one};
  if (plan.laneThreads && fourTwoByteLanes && !shifted && !spec.mask)
    return {ColumnPolicy::kLaneThreadTwoByteFourLaneOneBlockItems, minTiles, one};
  const int accBytes = dtypeSize(accumulatorType(spec));
  const bool fiveWordLanes =
      dtypeSize(spec.in) == 4 && accBytes == 4 && plan.packedLanes == ColumnPolicy::kPackedFiveLanes;
  if (!plan.laneThreads && fiveWordLanes && !shifted)
    return {ColumnPolicy::kPackedFiveLaneOneBlockItems, minTiles, one};
  const bool byteOrder = byteElements(spec) && accBytes < 8; // bytes' max/min, in 4-byte accumulators
  // (Groups in parts whatever the budget's items: 2-byte elements' budget
  // counts their blocks of 128. i16 max/min in parts within a smaller
  // budget: ColumnPolicy::kPackedFewItemsShortOrderAccBytes.)
  const bool inParts = publishedParts(spec, plan.packedLanes) > 1;
  const bool shortOrderInParts = isIntegral(spec.in) && dtypeSize(spec.in) == 2 && accBytes < 8 && inParts;
  if (!plan.laneThreads && (items <= ColumnPolicy::kPackedFewItems || inParts) && !byteOrder) {
    const bool integerProducts = spec.op == ScanOp::Prod && isIntegral(accumulatorType(spec));
    const bool wideUnmaskedInParts = accBytes == 8 && inParts && !spec.mask && !integerProducts;
    const int budgetItems = (shortOrderInParts     ? ColumnPolicy::kPackedFewItemsShortOrderAccBytes
                             : wideUnmaskedInParts ? ColumnPolicy::kPackedFewItemsWideUnmaskedAccBytes
                                                   : ColumnPolicy::kPackedFewItemsAccBytes) /
                            (accBytes * plan.packedLanes);
    const int most = std::min(ColumnPolicy::kPackedFewItemsOneBlockItems, (budgetItems - 1) | 1); // odd
    return {most, ColumnPolicy::kPackedFewItemsOneBlockMinTilesPerSm, one, 2, ColumnPolicy::kPackedFewItemsOneBlockThreads};
  }
  if (!byteIntegerElements(spec) || !plan.laneThreads)
    return {};
  if (plan.packedLanes == 2)
    return {ColumnPolicy::kLaneThreadByteOneBlockItems, ColumnPolicy::kLaneThreadBytePairOneBlockMinTilesPerSm, one};
  if (plan.packedLanes == 4 && byteWordsOfFour && spec.mask)
    return {ColumnPolicy::kLaneThreadByteOneBlockItems, minTiles, one};
  return {};
}

// Few long lines at a stride: the look-back's tiles, each thread loading
// its items at the stride (no stages). For columns narrower than
// ColumnPolicy::kNarrowRowBytes (f32[1048576,2] dim=0), whose panels would
// leave most threads idle, and views with no contiguous dim (x[::7]),
// which the strided family gives one warp a line. Neighbouring lines' tiles
// read the same sectors (through L2).
bool planLinesByLookback(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan) {
  const KernelPlan entryPlan = plan; // (byte words of 8 plan again in words of 4)
  int threads, items;
  lookbackBlock(spec, tuning, false, threads, items);
  const int64_t lanes = scanLanes(spec, plan.geometry);
  const bool spans = spanStaged(spec, plan.geometry);
  const int accumulatorBytes = dtypeSize(accumulatorType(spec));
  // 16 items for 2-byte elements, and for byte ones in at most 4-byte
  // accumulators whose spans are staged (ColumnPolicy::kSingleStridedLineItems).
  const bool narrowItems = dtypeSize(spec.in) == 2 || (dtypeSize(spec.in) == 1 && spans && accumulatorBytes <= 4);
  int lineItems = lanes > 1               ? std::min(items, policy::ColumnPolicy::kStridedLineItems)
                  : logSumExpTile(spec) ? items
                  : narrowItems         ? policy::ColumnPolicy::kSingleStridedLineItemsTwoByte
                                        : policy::ColumnPolicy::kSingleStridedLineItems;
  // Staged dense spans hold at most a row's accumulator bytes a thread
  // (log-sum-exp's count twice: its combine holds two): 16 i16 products
  // spilled at 128 registers. (Contiguous rows' 4 items of f64 timed 12%
  // slower than 8: 0.066 against 0.057-0.059 ms. Log-sum-exp of f32 and
  // f64 keeps its own 16 items: lookbackBlock.)
  const int accBytes = accumulatorBytes * (spec.op == ScanOp::LogSumExp ? 2 : 1);
  while (lanes <= 1 && !logSumExpTile(spec) && spans && lineItems * accBytes > policy::RowPolicy::kAccBytesPerThread)
    lineItems /= 2;
  items = pick(tuning.items, lineItems);
  const int64_t rows = plan.geometry.numLines();
  if (!lookbackFits(tuning, rows, plan.geometry.scan.size, items))
    return false;
  const int64_t packed = arch.bulkCopy ? packedLanes(spec, plan.geometry) : 0;
  // Without stages, packed lanes as Lanes items loaded a warp's run by
  // lanes (packed_direct; lookback_tile_by_lanes): masked ones only where
  // every run goes by lanes (their mask items are a packed item's bytes);
  // else unpacked.
  const int64_t directPacked =
      !arch.bulkCopy && spec.op != ScanOp::LogSumExp &&
              pickFlag(tuning.packedDirect, packedWithoutStagesPays(spec, plan.geometry))
          ? packedLanes(spec, plan.geometry)
          : 0;
  if (directPacked > 1) {
    plan.packedLanes = int(directPacked);
    int packedThreads, packedItems;
    if (packedWithoutStagesWide(spec, directPacked)) {
      packedWithoutStagesWideBlock(arch, spec, directPacked, packedThreads, packedItems);
      packedThreads = pick(tuning.threads, packedThreads);
    } else {
      packedThreads = pick(tuning.threads, packedLanesThreads(spec, directPacked, threads));
      packedItems = packedLanesItems(spec, packedThreads, directPacked);
    }
    planLookback(arch, spec, tuning, plan, rows / directPacked, packedThreads, pick(tuning.items, packedItems));
    if (plan.laneRuns && (plan.lanesOnGrid || !spec.mask))
      return true;
    plan.packedLanes = 0;
  }
  if (packed > 1 && spec.op == ScanOp::LogSumExp) {
    if (planLogSumExpLanes(arch, spec, tuning, rows, packed, plan))
      return true;
  } else if (packed > 1) {
    const int unpackedThreads = threads, unpackedItems = items; // (the unpacked plan's, if this one fails)
    // One row of packed rows: the look-back's pipelined tiles in a row's
    // blocks (items of `packed` elements each).
    plan.packedLanes = int(packed); // (its stages hold packed items)
    // A thread a lane where the lanes tile a warp: groups of up to 16 bytes
    // of accumulators, of elements of 4 bytes or more (lane_threads.cuh).
    const int accBytes = dtypeSize(accumulatorType(spec));
    // (Narrower integers summed into 8-byte ones hold twice the registers:
    // they keep the smaller items, ColumnPolicy::kLaneThreadTimedItems and
    // ...OneBlockWideItems.)
    const bool widening = isIntegral(spec.in) && accBytes == 8 && dtypeSize(spec.in) < accBytes;
    const bool shifted = !packedOnTheGrid(spec, tuning, plan.geometry, packed); // (planLookback's edges)
    const int width = laneThreadWidth(spec, packed, tuning);
    // (A group published in parts takes lane threads wherever they tile a
    // warp and hold words of lanes or elements of 4 bytes or more: unpacked,
    // its lines ran 4-12x copy; shifted stages, H200, sum f16[1048576,16]
    // dim=0 @1 10.7 -> 3.5, max u8[4194304,16] mask @1 11.6 -> 4.6; H100,
    // sum f64[1048576,8] @1 3.98 -> 2.25, BENCHMARKS.md. Elsewhere, as
    // narrower integers summed into i64 x 8, 8-byte accumulators of 5-7
    // lanes and 4-byte ones of 9-15, it is staged as Lanes items where many
    // tiles take one block an SM: unpacked, they ran 2.0-5.7x copy, packed
    // 1.3-3.5, H200, BENCHMARKS.md, seventy-second and -third passes. On
    // the timed arch, narrower integers summed into i64 x 8 take lane
    // threads too, of 31 items below: ColumnPolicy::kLaneThreadOneBlockWideItems.)
    const bool inParts = publishedParts(spec, packed) > 1;
    const bool partsTakeLaneThreads =
        inParts && (width > 1 || dtypeSize(spec.in) >= policy::ColumnPolicy::kLaneThreadMinBytes ||
                    (widening && arch.timed));
    // The packed row's items (every line's), and whether they are groups of
    // 32 bytes or more on the grid in problems of many tiles.
    const int64_t packedItems = plan.geometry.scan.size * (rows / packed);
    const bool manyWideGroupsOnTheGrid =
        packedGroupBytes(spec, packed) >= policy::ColumnPolicy::kLaneThreadOneBlockGroupBytes && !shifted &&
        packedItems >= policy::ColumnPolicy::kLaneThreadOneBlockMinItems;
    // (Narrower integers widened into whole groups of 32 bytes, i64 x 4,
    // take them there too, in one block an SM of 31 items below:
    // ColumnPolicy::kLaneThreadOneBlockWideItems.)
    const bool wideGroupTakesLaneThreads = widening && arch.timed && !inParts && manyWideGroupsOnTheGrid;
    plan.laneThreads =
        pickFlag(tuning.laneThreads,
                 partsTakeLaneThreads || wideGroupTakesLaneThreads || laneThreadsPay(spec, packed, width, shifted)) &&
        32 % (packed / width) == 0; // (whole groups of threads tile a warp)
    plan.laneWidth = plan.laneThreads ? width : 1;
    // A group in parts as Lanes items (33-64 bytes an item) packs in one
    // block an SM (widerPackedItems) or as tuned: in two blocks' 128
    // registers, at one item, u8/i16 x 8 sums spilled 16-100 stores (sm_90;
    // sm_100 8-40 at x 6 and x 7).
    const bool partsAsItems = inParts && !plan.laneThreads;
    if (plan.laneThreads) {
      const int itemBytes = accBytes * plan.laneWidth; // a thread's accumulators of an item
      threads = pick(tuning.threads, itemBytes > 4 ? policy::ColumnPolicy::kLaneThreadWideThreads
                                                   : policy::ColumnPolicy::kLaneThreadThreads);
      const bool untimedManyThreadsAnItem = !arch.timed && packed / plan.laneWidth >= 4;
      const bool bytes = byteElements(spec);
      const bool maskedWide = spec.mask && itemBytes > 8;
      const bool partsItems = inParts && !(spec.mask && plan.laneWidth == 1); // (a lane a thread, masked: 11)
      const bool timedItems = arch.timed && !spec.mask && !widening &&
                              packedGroupBytes(spec, packed) < policy::ColumnPolicy::kLaneThreadOneBlockGroupBytes;
      items = pick(tuning.items, maskedWide ? (bytes ? policy::ColumnPolicy::kLaneThreadMaskedWideByteItems
                                                     : policy::ColumnPolicy::kLaneThreadMaskedWideItems)
                                 : untimedManyThreadsAnItem ? policy::ColumnPolicy::kLaneThreadUntimedManyThreadsItems
                                 : bytes                    ? policy::ColumnPolicy::kLaneThreadByteItems
                                 : partsItems               ? policy::ColumnPolicy::kLaneThreadPartsItems
                                 : timedItems               ? policy::ColumnPolicy::kLaneThreadTimedItems
                                                            : policy::ColumnPolicy::kLaneThreadItems);
    } else {
      threads = pick(tuning.threads, packedLanesThreads(spec, packed, threads));
      items = pick(tuning.items, stagedPackedLanesItems(arch, spec, threads, packed, shifted));
    }
    // The tiles a plan makes of the packed row's items.
    auto tilesOf = [&](const KernelPlan &p) { return ceilDiv(packedItems, lookbackTileItems(p)); };
    // Lane threads of groups in parts, and of 32-byte groups on the grid in
    // problems of many tiles: one block an SM of large tiles where its
    // shared memory holds their stages (ColumnPolicy::kLaneThreadOneBlock*),
    // else the smaller blocks' plan.
    const bool oneBlockGroup = inParts || manyWideGroupsOnTheGrid;
    // (Masked byte words of 8 lanes: 23 items' input and mask in three
    // stages exceed the SM's shared memory.)
    const bool byteWords = byteElements(spec) && plan.laneWidth == policy::ColumnPolicy::kLaneWordBytesOfByteMaxMin;
    const bool maskedByteWords = spec.mask && byteWords;
    if (plan.laneThreads && oneBlockGroup && !tuning.occupancy) {
      KernelPlan oneBlock = plan;
      PlanTuning oneBlockTuning = tuning;
      oneBlockTuning.stages = pick(tuning.stages, policy::ColumnPolicy::kLaneThreadOneBlockMaxStages);
      // (ColumnPolicy::kLaneThreadOneBlockWideItems: widening in every
      // placement, masked too; else unmasked, and shifted only byte words
      // and items of at most 8 bytes of narrower accumulators.)
      const bool wideShifted =
          byteWords ||
          (accBytes < 8 && accBytes * plan.laneWidth <= policy::ColumnPolicy::kLaneThreadOneBlockWideShiftedItemBytes);
      const bool wideItems = arch.timed && (widening || (!spec.mask && (!shifted || wideShifted)));
      const bool maskedWideItems = arch.timed && spec.mask && !widening && !shifted && dtypeSize(spec.in) >= 4;
      using policy::ColumnPolicy;
      const int oneBlockItems = pick(tuning.items, wideItems         ? ColumnPolicy::kLaneThreadOneBlockWideItems
                                                   : maskedWideItems ? ColumnPolicy::kLaneThreadOneBlockMaskedWideItems
                                                   : shifted         ? ColumnPolicy::kLaneThreadOneBlockShiftedItems
                                                   : maskedByteWords ? ColumnPolicy::kLaneThreadOneBlockMaskedByteWordItems
                                                                     : ColumnPolicy::kLaneThreadOneBlockItems);
      planLookback(arch, spec, oneBlockTuning, oneBlock, rows / packed, threads, oneBlockItems,
                   /*contiguousRows=*/true, policy::ColumnPolicy::kLaneThreadOneBlockPerSm);
      // (Masked byte words of 8 lanes in fewer tiles than SMs lost to words
      // of 4: ColumnPolicy::kLaneThreadOneBlockMaskedByteWordItems.)
      const bool fewMaskedWordTiles = maskedByteWords && !tuning.laneWidth && tilesOf(oneBlock) < policy::kTimedSms;
      if (oneBlock.stages >= policy::ColumnPolicy::kLaneThreadOneBlockMinStages && !fewMaskedWordTiles) {
        plan = oneBlock;
        return true;
      }
    }
    // Byte words of 8 lanes only in one block an SM: smaller blocks of them
    // spilled 56 stores (max u8[65536,8] dim=0) or lost their stages with a
    // mask (sm_120's 100 KB hold no three stages of one block): words of 4.
    if (byteWords && !tuning.laneWidth) {
      PlanTuning wordsOfFour = tuning;
      wordsOfFour.laneWidth = policy::ColumnPolicy::kLaneWordBytesOfBytes;
      plan = entryPlan;
      return planLinesByLookback(arch, spec, wordsOfFour, plan);
    }
    // Kinds that gain from more items (in one block an SM, most), where
    // they still make enough tiles and hold three stages (widerPackedItems).
    const WiderPackedItems wide = widerPackedItems(arch, spec, tuning, plan, shifted, items);
    // (Groups in parts fall back on the unpacked plan, not on `items`: down
    // to ColumnPolicy::kPackedPartsMinItems.)
    const int fewestItems = partsAsItems ? policy::ColumnPolicy::kPackedPartsMinItems : items + 1;
    for (int wideItems = wide.items; wideItems >= fewestItems; wideItems -= wide.fewerBy ? wide.fewerBy : wideItems) {
      KernelPlan wider = plan;
      planLookback(arch, spec, tuning, wider, rows / packed, wide.threads ? pick(tuning.threads, wide.threads) : threads,
                   wideItems, /*contiguousRows=*/true, wide.smBlocks);
      if (wider.stages >= policy::ColumnPolicy::kPackedStagedMinStages &&
          tilesOf(wider) >= int64_t(wide.minTilesPerSm) * policy::kTimedSms) {
        plan = wider;
        return true;
      }
    }
    if (partsAsItems && !tuning.items && !tuning.occupancy) {
      plan.stages = 0;
    } else {
      const KernelPlan unplanned = plan;
      planLookback(arch, spec, tuning, plan, rows / packed, threads, items);
      // Lanes items past the power-of-two budget's, not at the cost of the
      // third stage (ColumnPolicy::kPackedStagedAccBytes).
      const int budgetItems = plan.laneThreads ? items : packedLanesItems(spec, threads, packed);
      while (!tuning.items && plan.stages < policy::ColumnPolicy::kPackedStagedMinStages && items > budgetItems) {
        plan = unplanned;
        planLookback(arch, spec, tuning, plan, rows / packed, threads, --items);
      }
    }
    if (plan.stages > 0)
      return true;
    plan.packedLanes = 0;
    plan.laneThreads = false;
    plan.laneWidth = 1;
    threads = unpackedThreads;
    items = unpackedItems;
  }
  if (lanes > 1 && !tuning.threads) // the step's rows of every lane fit the stage
    threads = int(std::clamp<int64_t>(policy::ColumnPolicy::kLanesStageBytes /
                                          (int64_t(items) * lanes * (dtypeSize(spec.in) + dtypeSize(spec.out))) / 32 * 32,
                                      64, threads));
  // (That budget leaves out the mask's byte an element: at 64 threads,
  // masked wide lanes took more than sm_75's 64 KB, max i32[3355443,5]
  // mask 69184 bytes. Fewer items where the arch's limit says so; a tuned
  // block or tile keeps its size, and its error if it does not fit.)
  while (lanes > 1 && !tuning.threads && !tuning.items && items > 1 &&
         lanesSharedBytes(spec, int64_t(threads) * items * lanes) > arch.maxDynamicSharedBytes)
    --items;
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
  return int(std::clamp<int64_t>(plan.minBlocksPerSm, 1, std::max<int64_t>(blocksFittingAnSm(arch, plan), 1)));
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

// Whether a pipelined look-back block issues only its first stage before its
// tile loop and each other one at the loop's top, past the wait before it
// (lazy_start), instead of all of them at its start: each issue waits for
// the ticket the one before it drew, so the block's first tile waited for
// a round trip a stage. Where its stages hold the output (three or more,
// not dense spans; the kernel checks the output's words) and a block has
// more tiles than stages: with fewer, its later tiles arrive a copy's
// latency late (LookbackPolicy::kLazyStart). Not tiles read again from
// their grid stages: the 64 registers of 2-byte rows' 512 x 24 spilled 4
// stores. Never more stages than lazyStartMaxStages (their tiles would
// leave ticket order); a slack of two, which lookbackSlack keeps within
// them, always issues lazily.
bool lazyStart(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan) {
  if (plan.family != KernelFamily::RowLookback || plan.stages < 3 || plan.heldShares || spanPlan(spec, plan) ||
      (plan.rereadTiles && plan.edges) || plan.stages > lazyStartMaxStages(plan.lookbackSlack))
    return false;
  if (plan.lookbackSlack > 1)
    return true;
  const int64_t tiles = plan.geometry.numLines() * gridTilesPerRow(spec, plan);
  return pickFlag(tuning.lazyStart, policy::LookbackPolicy::kLazyStart && tiles > plan.grid * plan.stages);
}

} // namespace

// Helpers the segmented and column planners share (PlannerShared.h).
namespace planning {

int64_t blocksFittingAnSm(const ArchPolicy &arch, const KernelPlan &plan) {
  int64_t fit = arch.maxThreadsPerSm / plan.threads;
  if (plan.sharedBytes > 0)
    fit = std::min<int64_t>(fit, arch.sharedBytesPerSm / (plan.sharedBytes + policy::kSharedBytesPerBlockReserved));
  return fit;
}

// Rows whose every tile start and size is a multiple of 16 bytes in the
// input and the mask (the kernel checks the pointers at run time). Other
// rows take the edges plan: tiles on each row's 16-byte grid, whose bodies
// are bulk-copied and whose edges warp 0's lanes copy (grid_pipeline.cuh).
bool rowsOnTheGrid(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan) {
  return !tuning.offGrid && bulkRun(spec, plan.geometry.scan.size) && bulkLines(spec, plan.geometry.lines);
}

// The fewest contiguous rows of length L whose input, mask and output are
// each whole 16-byte words (a power of two, at most 16).
int64_t rowsFillingWholeWords(const ScanSpec &spec, int64_t L) {
  auto whole = [&](int64_t rows) {
    const int64_t elems = rows * L;
    return bulkRun(spec, elems) && (elems * dtypeSize(spec.out)) % 16 == 0;
  };
  int64_t rows = 1;
  while (!whole(rows))
    rows *= 2;
  return rows;
}

// Stages for a row plan, any row length and alignment (plan.edges says
// which pipeline). 0 when the block is too small to pay for them or not
// even kMinStages fit.
int bulkStages(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan,
               int maxStages, int budgetBytes, int smBlocks) {
  if (!arch.bulkCopy || plan.threads < 64)
    return 0;
  // Plans sized for `smBlocks` blocks an SM (a tuned occupancy, or a policy
  // of fewer, larger blocks) share the SM's shared memory instead.
  const int blocks = pick(tuning.occupancy, smBlocks);
  const int64_t budget = blocks ? std::min(arch.maxDynamicSharedBytes,
                                           arch.sharedBytesPerSm / blocks -
                                               policy::StagePolicy::kReservedSharedBytesPerBlock)
                                : budgetBytes;
  const int64_t stages = std::min<int64_t>(pick(tuning.stages, maxStages), budget / stageBytes(spec, plan));
  return stages >= policy::StagePolicy::kMinStages ? int(stages) : 0;
}

// Stages, plus per stage an mbarrier and its work item; rounded up
// generously (48 bytes a stage: kept as plans have had it, so their blocks
// per SM do not move).
int64_t pipelineSharedBytes(const ScanSpec &spec, const KernelPlan &plan) {
  return plan.stages == 0 ? 0 : plan.stages * (stageBytes(spec, plan) + 48) + 256;
}

// Log-sum-exp of 8-byte accumulators (f64): its combines, not its bytes,
// set its time.
bool wideLogSumExp(const ScanSpec &spec) {
  return spec.op == ScanOp::LogSumExp && dtypeSize(accumulatorType(spec)) == 8;
}

} // namespace planning

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
  plan.lazyStart = lazyStart(spec, tuning, plan);
  return plan;
}

int64_t linesPerBatch(const KernelPlan &plan) {
  const int64_t lines = plan.geometry.numLines();
  return plan.runtimeBatch ? lines / plan.geometry.lines[0].size : lines;
}

int64_t workspaceBytesForLines(const ScanSpec &spec, const KernelPlan &plan, int64_t lines) {
  const int accBytes = dtypeSize(accumulatorType(spec));
  if (plan.family == KernelFamily::RowLookback && plan.packedLanes > 1) // (a group's value, padded: in parts)
    return lookbackWorkspaceBytes(lines / plan.packedLanes * gridTilesPerRow(spec, plan),
                                  int(publishedGroupBytes(spec, plan.packedLanes)));
  if (plan.family == KernelFamily::RowLookback)
    return lookbackWorkspaceBytes(lines * gridTilesPerRow(spec, plan), accBytes);
  if (plan.family == KernelFamily::Column)
    return columnWorkspaceBytes(spec, plan, lines);
  return 0;
}

} // namespace scanjit
