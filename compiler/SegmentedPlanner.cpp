// The segmented family's planner: contiguous rows of at most half a row
// tile, scanned a chunk of whole rows a block, or a warp a row (warp rows,
// padded where a row does not tile a warp's run).
#include "compiler/PlannerPolicy.h"
#include "compiler/PlannerShared.h"
#include "compiler/WarpSpanBanks.h"

#include <algorithm>

namespace scanjit::planning {

namespace {

// The segmented family's stages: its chunks' tiles stream through the row
// family's stages (the chunk keeps its bytes), where
// the chunks are whole 16-byte words (rows on the grid, or chunks rounded
// to whole words: SegmentedPolicy::kChunksOfWholeWords), and for 2-byte
// elements off the grid too (the grid pipeline's edges plan), as every
// width's launches off the grid (kOffGridChunksStaged); log-sum-exp keeps
// registers.
void planSegmentedStages(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                         int64_t rows) {
  const int64_t L = plan.geometry.scan.size;
  const bool onGrid = rowsOnTheGrid(spec, tuning, plan);
  const int64_t wordRows = rowsFillingWholeWords(spec, L);
  // (Chunks smaller than whole words keep the grid pipeline or registers: a
  // small problem's blocks would be fewer.)
  const bool wholeWords = onGrid || (!tuning.offGrid && policy::SegmentedPolicy::kChunksOfWholeWords &&
                                     plan.rowsPerChunk >= wordRows);
  const bool narrow = dtypeSize(spec.in) == policy::SegmentedPolicy::kStagedInBytes;
  const bool staged = tuning.stages > 0 || (spec.op != ScanOp::LogSumExp &&
                                            (narrow || wholeWords ||
                                             (tuning.offGrid && policy::SegmentedPolicy::kOffGridChunksStaged)));
  auto stagesIn = [&](int threads) {
    plan.threads = pick(tuning.threads, threads);
    return staged ? bulkStages(arch, spec, tuning, plan, policy::SegmentedPolicy::kStages,
                               policy::StagePolicy::kBudgetBytes)
                  : 0;
  };
  // Chunks of whole words in blocks of 256; edges plans (the grid
  // pipeline), and blocks of 256 whose stages would not hold three tiles
  // (8-byte results of masked narrow rows), in blocks of 128.
  plan.stages = stagesIn(wholeWords ? policy::SegmentedPolicy::kStagedThreads : policy::StagePolicy::kRowThreads);
  if (!tuning.threads && plan.stages < policy::SegmentedPolicy::kMinStagedStages)
    plan.stages = stagesIn(policy::StagePolicy::kRowThreads);
  if (plan.stages == 0) {
    plan.threads = pick(tuning.threads, policy::RowPolicy::kThreads);
    return;
  }
  plan.edges = !wholeWords;
  if (!onGrid && wholeWords) {
    plan.rowsPerChunk = plan.rowsPerChunk / wordRows * wordRows;
    plan.grid = ceilDiv(rows, plan.rowsPerChunk);
  }
}

// The fewest lanes, a power of two, whose `items` each hold a row of L
// (lanes_holding_a_row in templates/scanjit/segmented_scan.cuh).
int lanesHoldingARow(int64_t L, int items) {
  int lanes = 1;
  while (int64_t(lanes) * items < L)
    lanes *= 2;
  return lanes;
}

// Whether rows of L held `items` a lane tile a warp's run of 32 x items:
// the kernel then scans them as tiling rows (kTiles in
// segmented_scan_warp_rows, templates/scanjit/segmented_scan.cuh).
bool rowsTileAWarpRun(int64_t L, int64_t items) { return L % items == 0 && (int64_t(32) * items) % L == 0; }

// The items a lane of padded warp rows (a warp a row that does not tile a
// warp's run, lanes past its end holding the identity), or 0 where rows of
// L go otherwise (SegmentedPolicy::kPaddedWarpRow*; tuned, any row of up
// to 16 items a lane).
int paddedWarpRowItems(const ScanSpec &spec, const PlanTuning &tuning, int64_t L) {
  // A row a warp where that holds kPaddedWarpRowMinItems a lane; shorter
  // rows take the fewest lanes (a power of two) whose items hold them,
  // several rows a warp (kPaddedShortLogSumExpRows: a whole warp's rows of
  // 4-6 items lost).
  const int accBytes = dtypeSize(accumulatorType(spec));
  const bool shortRow = ceilDiv(L, 32) < policy::SegmentedPolicy::kPaddedWarpRowMinItems;
  int64_t mostItems = std::min<int64_t>(policy::SegmentedPolicy::kPaddedWarpRowMaxItems,
                                        policy::SegmentedPolicy::kPaddedWarpRowMaxAccumulatorBytes / accBytes);
  if (shortRow && wideLogSumExp(spec)) // (f64 short rows of 10-12 items spilled 6-70 stores in three blocks)
    mostItems = std::min<int64_t>(mostItems, policy::SegmentedPolicy::kLogSumExpItems);
  int lanes = 32;
  while (shortRow && lanes > 1 && ceilDiv(L, lanes / 2) <= mostItems)
    lanes /= 2;
  const int inBytes = dtypeSize(spec.in);
  // Rows of few items a lane of a whole warp: half a warp each
  // (kPaddedHalfWarp*), but not where half-warp rows would tile the warp's
  // run and a lane's items stay in its registers, as tiling rows' do when
  // masked or of at most 32 bytes (15 bytes a lane took 15 byte loads and
  // stores each).
  const int64_t halfItems = ceilDiv(L, 16);
  const bool halfWarpRows =
      !shortRow && spec.op != ScanOp::LogSumExp && inBytes <= policy::SegmentedPolicy::kPaddedHalfWarpMaxInBytes &&
      ceilDiv(L, 32) < policy::SegmentedPolicy::kPaddedHalfWarpBelowItems &&
      halfItems * accBytes <= policy::SegmentedPolicy::kPaddedWarpRowMaxAccumulatorBytes &&
      halfItems <= policy::SegmentedPolicy::kPaddedHalfWarpMaxItems &&
      !(rowsTileAWarpRun(L, halfItems) && (spec.mask || halfItems * inBytes <= 32));
  if (halfWarpRows)
    lanes = 16;
  int items = tuning.items ? tuning.items : int(ceilDiv(L, lanes));
  // A whole warp's rows that its items would tile (exactly 32 x items): the
  // kernel keeps each lane's run in its registers, so where that run is not
  // whole 16-byte vectors, one item more pads the row instead
  // (kPaddedOneMoreItem); masked rows only where that makes whole vectors,
  // their loads staying each lane's own.
  if (policy::SegmentedPolicy::kPaddedOneMoreItem && !tuning.items && lanes == 32 && rowsTileAWarpRun(L, items) &&
      (items * inBytes) % 16 != 0 && (inBytes == 2 || inBytes == 4) && spec.op != ScanOp::LogSumExp &&
      (!spec.mask || ((items + 1) * inBytes) % 16 == 0))
    ++items;
  const int maxItems = tuning.items ? 32
                       : halfWarpRows ? policy::SegmentedPolicy::kPaddedHalfWarpMaxItems
                                      : policy::SegmentedPolicy::kPaddedWarpRowMaxItems;
  if (tuning.stages || L > int64_t(32) * items || items > maxItems)
    return 0;
  const bool twoByteMasked = spec.mask && inBytes == 2 && spec.op != ScanOp::LogSumExp;
  const int mostLanes = wideLogSumExp(spec) ? policy::SegmentedPolicy::kPaddedShortWideLogSumExpRowMaxLanes
                                            : policy::SegmentedPolicy::kPaddedShortRowMaxLanes;
  const bool fewIdleSlots = 8 * (int64_t(lanes) * items - L) <= L; // (at most an eighth)
  // (2-byte rows on the 16-byte grid that do not tile a warp's run keep
  // their chunks where masked, and sums also where not exclusive:
  // kPaddedShortRows, kShortTwoByteSumsTiling, kShortTwoByteMaskedChunks.)
  const bool tiles = rowsTileAWarpRun(L, items);
  const bool twoByteSumChunks = spec.op == ScanOp::Sum &&
                                !(policy::SegmentedPolicy::kShortTwoByteSumsTiling &&
                                  (tiles || (spec.exclusive && !spec.mask)));
  // Masked 2-byte rows load their masks by words too (warp_span.cuh): off
  // the grid they pad whatever their length, on it max and min do, but
  // not rows of a whole warp whose lanes' runs are whole 16-byte words
  // (kMaskedTwoByteRowsPadded).
  const bool maxOrMin = spec.op == ScanOp::Max || spec.op == ScanOp::Min;
  const bool runsOfWords = lanes == 32 && (items * inBytes) % 16 == 0;
  const bool maskedRowsPad = policy::SegmentedPolicy::kMaskedTwoByteRowsPadded && twoByteMasked && !runsOfWords &&
                             (tuning.offGrid || maxOrMin);
  const bool twoByteMaskedChunks =
      policy::SegmentedPolicy::kShortTwoByteMaskedChunks && spec.mask && !tiles && !maskedRowsPad;
  const bool twoByteChunks = inBytes == 2 && !tuning.offGrid && (twoByteSumChunks || twoByteMaskedChunks);
  const bool shortRowPads = spec.op == ScanOp::LogSumExp
                                ? policy::SegmentedPolicy::kPaddedShortLogSumExpRows && lanes <= mostLanes && fewIdleSlots
                                : policy::SegmentedPolicy::kPaddedShortRows && fewIdleSlots && !twoByteChunks;
  const bool policyPads = policy::SegmentedPolicy::kPaddedWarpRows && (shortRow || !twoByteMasked || maskedRowsPad) &&
                          items * accBytes <= policy::SegmentedPolicy::kPaddedWarpRowMaxAccumulatorBytes &&
                          (shortRow ? shortRowPads : items >= policy::SegmentedPolicy::kPaddedWarpRowMinItems);
  return pickFlag(tuning.warpRows, policyPads) ? items : 0;
}

} // namespace

void planSegmented(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                   int64_t rows) {
  const int64_t L = plan.geometry.scan.size;
  plan.family = KernelFamily::RowSegmented;
  plan.threads = policy::RowPolicy::kThreads;
  // Log-sum-exp: its own items, for every dtype (SegmentedPolicy::kLogSumExpItems),
  // unless only the row items let its rows tile a warp's run (rows of 4 f64).
  // (tilesWarp mirrors kTiles in segmented_scan_warp_rows, templates/scanjit/segmented_scan.cuh,
  // which stores tiling rows from registers where it can and padded ones through scratch.)
  const auto tilesWarp = [&](int items) { return rowsTileAWarpRun(L, items); };
  const int lseItems = policy::SegmentedPolicy::kLogSumExpItems;
  if (spec.op == ScanOp::LogSumExp && !tuning.items && (tilesWarp(lseItems) || !tilesWarp(plan.items)))
    plan.items = lseItems;
  const int64_t chunkTile = int64_t(policy::RowPolicy::kThreads) * plan.items;
  // Chunks of kTilesPerChunk tiles, but small enough that a small problem
  // still spreads over the SMs (16x1024 was one block walking 8 tiles).
  plan.rowsPerChunk =
      pick(tuning.rows, int(std::max<int64_t>(1, std::min(policy::SegmentedPolicy::kTilesPerChunk * chunkTile / L,
                                                      classCount(tuning, rows / policy::SegmentedPolicy::kMinBlocks)))));
  plan.grid = ceilDiv(rows, plan.rowsPerChunk);
  plan.minBlocksPerSm = pick(tuning.occupancy,
                             !wideLogSumExp(spec) ? 0
                             : spec.mask          ? policy::SegmentedPolicy::kWideLogSumExpMaskedMinBlocksPerSm
                                                  : policy::SegmentedPolicy::kWideLogSumExpMinBlocksPerSm);
  const int paddedItems = tilesWarp(plan.items) ? 0 : paddedWarpRowItems(spec, tuning, L);
  const bool padded = paddedItems > 0;
  if (padded) {
    plan.items = paddedItems;
    // f64 rows of more items than the chunks' spill in their blocks' registers.
    if (wideLogSumExp(spec) && paddedItems > lseItems)
      plan.minBlocksPerSm =
          pick(tuning.occupancy, paddedItems > policy::SegmentedPolicy::kPaddedWideLogSumExpThreeBlockItems
                                     ? policy::SegmentedPolicy::kPaddedWideLogSumExpMinBlocksPerSm
                                     : policy::SegmentedPolicy::kPaddedWideLogSumExpFewItemsMinBlocksPerSm);
  }
  if (policy::SegmentedPolicy::kWarpRows && !tuning.stages && tuning.warpRows != 0 &&
      (padded || tilesWarp(plan.items))) {
    plan.warpRows = true;
    // Unmasked 2-byte log-sum-exp rows whose lane runs tile the warp off
    // whole vectors: twice the items, where those still tile it
    // (kLogSumExpNarrowRowsDoubled).
    const int inBytes = dtypeSize(spec.in), doubled = 2 * plan.items;
    if (policy::SegmentedPolicy::kLogSumExpNarrowRowsDoubled && spec.op == ScanOp::LogSumExp && !spec.mask &&
        !tuning.items && inBytes == 2 && tilesWarp(plan.items) && (plan.items * inBytes) % 16 != 0 &&
        tilesWarp(doubled) && doubled <= policy::SegmentedPolicy::kLogSumExpDoubledMaxItems)
      plan.items = doubled;
    // 1- and 2-byte rows of the other ops: half the lanes, twice the items
    // (kNarrowRowsDoubled), but not masked byte rows, nor byte rows that
    // would then tile the run; asking for four blocks an SM.
    // Byte rows also keep them where the half lanes would meet in the
    // span's banks more often than the whole (kDoubledByteRowsBankWays).
    const int lanes = lanesHoldingARow(L, plan.items);
    const int halfLaneItems = lanes >= 2 ? int(ceilDiv(L, lanes / 2)) : 0;
    const auto halfLanesMeetInBanks = [&] {
      const double halfWays = warpSpanBankWays(L, lanes / 2, halfLaneItems, inBytes);
      return halfWays >= policy::SegmentedPolicy::kDoubledByteRowsBankWays &&
             halfWays > warpSpanBankWays(L, lanes, plan.items, inBytes);
    };
    if (policy::SegmentedPolicy::kNarrowRowsDoubled && !tuning.items && inBytes <= 2 &&
        spec.op != ScanOp::LogSumExp && lanes >= 2 &&
        halfLaneItems <= policy::SegmentedPolicy::kNarrowRowsDoubledMaxItems &&
        halfLaneItems * dtypeSize(accumulatorType(spec)) <=
            policy::SegmentedPolicy::kNarrowRowsDoubledMaxAccumulatorBytes &&
        !(inBytes == 1 && (spec.mask || tilesWarp(halfLaneItems) || halfLanesMeetInBanks()))) {
      plan.items = halfLaneItems;
      plan.minBlocksPerSm = pick(tuning.occupancy, policy::SegmentedPolicy::kNarrowRowsDoubledMinBlocksPerSm);
    }
    // Rows per warp and step (a row that tiles the run takes L / items lanes,
    // the fewest that hold it, as a padded row does).
    plan.rowsPerChunk = 32 / lanesHoldingARow(L, plan.items);
    if (padded && plan.rowsPerChunk == 1 && inBytes == 2 && !spec.mask && spec.op != ScanOp::LogSumExp &&
        (plan.items * inBytes) % 16 == 0 && (L * inBytes) % 16 == 0)
      plan.minBlocksPerSm = pick(tuning.occupancy, policy::SegmentedPolicy::kPaddedWordRunsMinBlocksPerSm);
    plan.grid = std::min<int64_t>(ceilDiv(ceilDiv(rows, plan.rowsPerChunk), plan.threads / 32), policy::kMaxGrid);
    return;
  }
  planSegmentedStages(arch, spec, tuning, plan, rows);
  plan.sharedBytes = pipelineSharedBytes(spec, plan);
  plan.evictFirst = plan.stages > 0 && pickFlag(tuning.evictFirst, policy::StagePolicy::kEvictFirst);
}

} // namespace scanjit::planning
