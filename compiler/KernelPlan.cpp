#include "compiler/KernelPlan.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace scanjit {

llvm::StringRef familyName(KernelFamily f) {
  switch (f) {
  case KernelFamily::Empty: return "empty";
  case KernelFamily::Row: return "row";
  case KernelFamily::RowSegmented: return "row_segmented";
  case KernelFamily::RowLookback: return "row_lookback";
  case KernelFamily::Column: return "column";
  case KernelFamily::Strided: return "strided";
  }
  return "?";
}

int64_t ScanGeometry::numLines() const {
  int64_t n = 1;
  for (const GeometryDim &d : lines)
    n *= d.size;
  return n;
}

static void printDim(llvm::raw_ostream &os, const GeometryDim &d, bool runtimeSize = false) {
  if (runtimeSize)
    os << '*';
  else
    os << d.size;
  os << llvm::formatv(":{0}/{1}/{2}", d.in, d.out, d.mask);
}

// `forClass`: what only the launch sets (grid, workspace, a run-time batch)
// is left out.
static std::string planText(const KernelPlan &p, bool forClass) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const KernelFamily family = p.family;
  os << "family=" << familyName(family);
  if (family == KernelFamily::Empty)
    return os.str();
  os << " threads=" << p.threads << " items=" << p.items << " vector=" << p.vector << " unroll=" << p.unroll
     << " rows_per_chunk=" << p.rowsPerChunk;
  if (!forClass)
    os << " grid=" << p.grid;
  os << " index=" << (p.index64 ? 64 : 32);
  if (p.minBlocksPerSm > 1)
    os << " min_blocks=" << p.minBlocksPerSm;
  if (p.wantedBlocksPerSm > 0)
    os << " want_blocks=" << p.wantedBlocksPerSm;
  if (family == KernelFamily::Row || family == KernelFamily::RowSegmented || family == KernelFamily::RowLookback ||
      family == KernelFamily::Column)
    os << " stages=" << p.stages << " smem=" << p.sharedBytes;
  if (family == KernelFamily::RowLookback) {
    os << " lookback=" << p.lookbackPerLane;
    if (!forClass)
      os << " workspace=" << p.workspaceBytes;
  }
  if (family == KernelFamily::RowLookback && p.heldShares)
    os << " held_shares=1";
  if (family == KernelFamily::RowLookback && p.lookbackWarps > 1)
    os << " lookback_warps=" << p.lookbackWarps;
  if (family == KernelFamily::RowLookback && p.laneRuns)
    os << " lane_runs=1";
  if ((family == KernelFamily::RowLookback || family == KernelFamily::Row) && p.lanesOnGrid)
    os << " lanes_on_grid=1";
  if (family == KernelFamily::RowLookback && p.rereadShare > 0)
    os << " reread_share=" << p.rereadShare;
  if (family == KernelFamily::RowLookback && p.lookbackSlack > 1)
    os << " lookback_slack=" << p.lookbackSlack;
  if (family == KernelFamily::RowLookback && p.rereadTiles)
    os << " reread_tiles=1";
  if (family == KernelFamily::RowLookback && p.lazyStart)
    os << " lazy_start=1";
  if (family == KernelFamily::Column && p.groups > 1)
    os << " groups=" << p.groups;
  if (family == KernelFamily::Column && p.pieces > 1) {
    os << " pieces=" << p.pieces << (p.pieceSpans ? " piece_spans=1" : "");
    if (!forClass)
      os << " workspace=" << p.workspaceBytes;
  }
  if (family == KernelFamily::Column && p.wordCopies)
    os << " word_copies=1";
  if (family == KernelFamily::Column && p.wholeRows) {
    os << " whole_rows=1 lookback=" << p.lookbackPerLane << (p.pieceSpans ? " piece_spans=1" : "");
    if (!forClass)
      os << " workspace=" << p.workspaceBytes;
  }
  if (p.evictFirst)
    os << " evict_first=1";
  if (p.warpRows)
    os << " warp_rows=1";
  if (p.edges)
    os << " edges=1";
  // Staged tiles lie on the input's (and mask's) 16-byte grid; the output
  // leaves by bulk stores where it shares that grid, else by coalesced
  // stores (an output pointer off the input's grid: BENCHMARKS.md).
  if (p.stages > 0)
    os << " aligned=in";
  if (p.packedLanes > 1)
    os << " packed_lanes=" << p.packedLanes << (p.laneThreads ? " lane_threads=1" : "")
       << (p.laneThreads && p.laneWidth > 1 ? " lane_width=" + std::to_string(p.laneWidth) : "");
  if (p.runtimeBatch)
    os << " batch=launch";
  os << " scan=";
  printDim(os, p.geometry.scan);
  os << " lines=[";
  for (size_t i = 0; i < p.geometry.lines.size(); ++i) {
    if (i)
      os << ',';
    printDim(os, p.geometry.lines[i], forClass && i == 0 && p.runtimeBatch);
  }
  os << "] inner=";
  printDim(os, p.geometry.inner);
  os << " policy=" << p.policy << " entry=" << p.entry;
  return os.str();
}

std::string KernelPlan::toString() const { return planText(*this, false); }
std::string KernelPlan::classText() const { return planText(*this, true); }

} // namespace scanjit
