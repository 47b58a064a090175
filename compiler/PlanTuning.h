// PlanTuning: explicit values for the planner's tunable choices, used to
// tune the policy tables with the benchmark harness (BENCHMARKS.md says how).
// Zero (for evict_first, -1) means "the policy's choice". A tuned plan is
// still a plain plan: its text is in the cache key, so a tuned kernel is
// never served for a default one or the reverse.
#pragma once

#include "llvm/Support/Error.h"

#include <string>

namespace scanjit {

struct PlanTuning {
  int threads = 0;  // block size (row, row_lookback, column)
  int items = 0;    // elements per thread and tile (row, row_lookback)
  int lookback = 0; // look-back window per lane, in tiles (row_lookback)
  int unroll = 0;   // scan steps loaded ahead (column)
  int stages = 0;   // most shared-memory stages (row, row_lookback; within the budget, or the SM with occupancy)
  int rows = 0;     // rows per block (row, row_segmented); rows per stage (column pipeline)
  int blocks = 0;   // most blocks (row_lookback with stages: blocks take tiles by ticket)
  int occupancy = 0; // blocks per SM the registers must allow (row_lookback: stages share the SM; column with pieces)
  int lookbackWarps = 0; // warps reading the look-back window (row_lookback)
  int lookbackSlack = 0; // tiles a pipelined look-back block scans before finishing the oldest: 1 or 2 (row_lookback)
  int lookbackRows = 0; // most lines the look-back takes, where the policy caps them (then the row family)
  int vector = 0;   // columns per thread, 1/2/4/8 (column pipeline; still within what the strides allow)
  int groups = 0;   // threads sharing each column, each a slice of a stage's rows (column pipeline)
  int pieces = 0;   // blocks along each panel's scan (column pipeline; 1: none; fewer where the scan is short)
  int tileRows = 0; // rows per tile (column with whole rows)
  int wholeRows = -1; // 1/0: tall panels as tiles of whole rows (column_tiles.cuh) or not; -1: the policy's choice
  int heldShares = -1; // 1/0: a middle-sized row's blocks hold their shares of tiles at once (row_lookback) or not; -1: the policy's
  int evictFirst = -1; // 1/0: bulk copies with/without the evict-first L2 policy; -1: the policy's choice
  int wordCopies = -1; // 1/0: column pipeline stages filled by each thread's 16-byte copies (cp.async) or by a bulk copy a row; -1: the policy's
  int pieceSpans = -1; // 1/0: column pieces look back over span totals or a window of 8; -1: the policy's
  int fittedPanel = -1; // 1/0: few panels of 2- and 4-byte elements as one panel a column a thread, as wide as the columns, or the policy's panels; -1: the policy's
  int laneRuns = -1;    // 1/0: look-back tiles without stages off their vector grid load by lanes (lookback_scan_direct); -1: the policy's
  int lanesOnGrid = -1; // 1/0: without stages, runs on their vector grid load and store by lanes too (rows, lane runs); -1: the policy's
  int packedDirect = -1; // 1/0: without stages, narrow columns packed as Lanes items by lane runs (masked: with lanes_on_grid); -1: the policy's
  int rereadShares = -1; // 1/0: lane runs of a few rows in shares a block, read twice (lookback_shares.cuh); -1: the policy's
  int lazyStart = -1;    // 1/0: a pipelined look-back block issues its stages past the first one a tile in its tile loop, not all at its start; -1: the policy's
  int rereadTiles = -1;  // 1/0: a pipelined look-back tile's items scanned again from its stage for its results, not held across the next tile; -1: the policy's
  int laneThreads = -1; // 1/0: packed narrow columns scanned a thread a lane (lane_threads.cuh) or Lanes a thread; -1: the policy's
  int laneWidth = 0;    // lane threads: adjacent lanes a thread holds, 1/2/4/8 (a group of at most 16 bytes, whole groups tiling a warp)
  int segmented = -1; // 1/0: contiguous rows (more than one) as the segmented family's chunks, any length, or never; -1: the policy's
  int warpRows = -1;  // 1/0: segmented rows scanned by warps alone wherever they fit a warp's run of at most 16 items a lane (tuned items: 32; padded where they do not tile it; the policy pads rows of 7 or more), or never; -1: the policy's
  int exactBatch = 0; // 1: the batch compiled in and every count-dependent choice exact (a kernel per shape)
  // 1: input and mask pointers off the 16-byte grid, so no plan may count on
  // them for bulk copies (edges plans, unpacked narrow columns): what the
  // runtime takes for a launch whose pointers are off the grid.
  int offGrid = 0;

  bool empty() const {
    return !threads && !items && !lookback && !unroll && !stages && !rows && !blocks && !occupancy &&
           !lookbackWarps && !lookbackSlack && !lookbackRows && !vector && !groups && !pieces && !tileRows && !laneWidth && wholeRows < 0 && heldShares < 0 && evictFirst < 0 && wordCopies < 0 && laneThreads < 0 && laneRuns < 0 && lanesOnGrid < 0 && packedDirect < 0 && rereadShares < 0 && rereadTiles < 0 && lazyStart < 0 && pieceSpans < 0 && fittedPanel < 0 && segmented < 0 && warpRows < 0 && !exactBatch && !offGrid;
  }
  std::string toString() const;
};

/// Parses "threads=512,items=16" (keys above; any subset; "" is no tuning).
llvm::Expected<PlanTuning> parsePlanTuning(llvm::StringRef text);

/// SCANJIT_PLAN_TUNE, parsed; an error names the variable and the bad token.
llvm::Expected<PlanTuning> planTuningFromEnvironment();

} // namespace scanjit
