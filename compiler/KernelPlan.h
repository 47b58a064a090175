// KernelPlan: every decision the planner makes, as plain values. It is
// printed by `inspect --emit plan`, echoed into the generated source as
// constants, and its canonical text enters the cache key.
#pragma once

#include "compiler/ScanSpec.h"

#include <string>

namespace scanjit {

enum class KernelFamily : uint8_t {
  Empty,        // zero elements: nothing to launch
  Row,          // scanned dim contiguous: block per row, tiles with a carry
  RowSegmented, // short contiguous rows: many rows per tile, segmented scan
  RowLookback,  // few long contiguous rows: a block per tile, chained by look-back
  Column,       // threads across a contiguous non-scanned dim, serial along the scan
  Strided,      // anything else: one warp per line, strided accesses
};

llvm::StringRef familyName(KernelFamily f); // "empty", "row", "row_segmented", ...

/// One dimension of the normalized problem with its element stride in each
/// tensor (mask stride 0 when there is no mask).
struct GeometryDim {
  int64_t size = 1;
  int64_t in = 0, out = 0, mask = 0;
  friend bool operator==(const GeometryDim &a, const GeometryDim &b) {
    return a.size == b.size && a.in == b.in && a.out == b.out && a.mask == b.mask;
  }
};

/// The problem after dropping size-1 dims and merging dims that are
/// contiguous with each other: the scanned dim, the dims whose index selects
/// a line (outer to inner), and, for the column family, the contiguous dim
/// threads spread across (`inner`, taken out of `lines`).
struct ScanGeometry {
  GeometryDim scan;
  llvm::SmallVector<GeometryDim, kMaxRank> lines;
  GeometryDim inner; // size 1 unless family == Column
  int64_t numLines() const;
};

struct KernelPlan {
  KernelFamily family = KernelFamily::Empty;
  ScanGeometry geometry;
  int threads = 0;          // per block
  int items = 1;            // consecutive elements per thread per tile (row/segmented/strided)
  int vector = 1;           // columns per thread (column family)
  int unroll = 1;           // scan steps loaded ahead (column family; its pipeline: rows read from a stage ahead)
  int64_t rowsPerChunk = 1; // rows per block (segmented family; row family when pipelined)
  int64_t grid = 0;         // blocks to launch (kernels loop if launched with fewer)
  int lookbackPerLane = 0;  // look-back window = 32 * lookbackWarps * this many tiles (row_lookback)
  int lookbackWarps = 1;    // warps that read the look-back window (row_lookback)
  int lookbackSlack = 1;    // tiles a pipelined look-back block scans before it finishes the oldest (row_lookback)
  bool lazyStart = false;   // pipelined look-back: stages past the first issued one a tile in the tile loop, not all at the start
  bool rereadTiles = false; // pipelined look-back: a tile's items scanned again from its stage for its results, not held
  int stages = 0;           // shared-memory stages filled by bulk copies; 0: loads to registers (row, row_lookback)
  int64_t sharedBytes = 0;  // dynamic shared memory per block (the stages)
  int groups = 1;           // threads sharing each column, each scanning a slice of a stage's rows (column pipeline)
  int pieces = 1;           // blocks along each panel's scan, chained by published totals (column pipeline)
  bool pieceSpans = false;  // pieces look back over span totals, a link per 65 pieces (column_pieces.cuh)
  bool wholeRows = false;   // column family: tiles of rowsPerChunk whole contiguous rows, chained by look-back (column_tiles.cuh)
  bool heldShares = false;  // row_lookback: each block holds its share of the tiles at once and looks back once (lookback_shares.cuh)
  bool wordCopies = false;  // column pipeline: stages filled by each thread's 16-byte copies (cp.async), not a bulk copy a row
  bool evictFirst = false;  // bulk copies carry the evict-first L2 policy (plans with stages)
  bool warpRows = false;    // each warp scans whole rows alone (row_segmented, rows tiling a warp's run)
  bool edges = false;       // staged data may lie off the 16-byte grid: tiles on each row's grid, edges copied apart (or dense spans)
  int packedLanes = 0;      // narrow columns scanned as one row of items of this many lanes (packed_lanes.cuh)
  bool laneRuns = false;    // look-back without stages: tiles off their vector grid load and store a warp's run by lanes
  bool lanesOnGrid = false; // without stages (rows, lane runs): runs on their vector grid go by lanes too
  int rereadShare = 0;      // lane runs: tiles a block's share, read twice (its total, then its scan; lookback_shares.cuh)
  bool laneThreads = false; // packed lanes: each thread scans `items` elements of one lane (lane_threads.cuh)
  int laneWidth = 1;        // lane threads: adjacent lanes a thread holds of each item, one word of the stage
  int minBlocksPerSm = 1;   // __launch_bounds__ occupancy: registers are capped so this many blocks fit
  // Blocks an SM asked of ptxas only where its own choice of registers holds
  // fewer: compileKernel() compiles such a kernel again with them as
  // minBlocksPerSm (0: none). Where ptxas fits them unasked, its code stays.
  int wantedBlocksPerSm = 0;
  int64_t workspaceBytes = 0; // device scratch, zeroed once when allocated (row_lookback; column with pieces or whole rows)
  bool index64 = false;     // 64-bit index arithmetic needed
  // The outermost line dim's size (geometry.lines[0], the batch) is a launch
  // argument, not compiled in: one kernel serves every spec of the plan's
  // shape class (classText()). Off where the dim shapes the code (narrow
  // columns' lanes) or when tuned off (batch=fixed).
  bool runtimeBatch = false;
  std::string policy;       // the arch family whose policy values the plan took (ArchPolicy.h)
  std::string entry;        // the kernel's extern "C" name

  /// Canonical one-line text: "family=row threads=256 items=8 ...".
  std::string toString() const;

  /// The text of what the kernel's code depends on: toString() without
  /// the grid and the workspace, and with a launch-time batch as `*`. Specs
  /// whose plans share it share one kernel (it is the plan in the cache key).
  std::string classText() const;

  /// The batch a launch passes (geometry.lines[0]'s size; 0 when the
  /// batch is compiled in).
  int64_t launchBatch() const { return runtimeBatch ? geometry.lines[0].size : 0; }
};

} // namespace scanjit
