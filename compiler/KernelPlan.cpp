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

static void printDim(llvm::raw_ostream &os, const GeometryDim &d) {
  os << llvm::formatv("{0}:{1}/{2}/{3}", d.size, d.in, d.out, d.mask);
}

std::string KernelPlan::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "family=" << familyName(family);
  if (family == KernelFamily::Empty)
    return os.str();
  os << " threads=" << threads << " items=" << items << " vector=" << vector
     << " unroll=" << unroll << " rows_per_chunk=" << rowsPerChunk << " grid=" << grid
     << " index=" << (index64 ? 64 : 32);
  if (minBlocksPerSm > 1)
    os << " min_blocks=" << minBlocksPerSm;
  if (family == KernelFamily::Row || family == KernelFamily::RowSegmented || family == KernelFamily::RowLookback ||
      family == KernelFamily::Column)
    os << " stages=" << stages << " smem=" << sharedBytes;
  if (family == KernelFamily::RowLookback)
    os << " lookback=" << lookbackPerLane << " workspace=" << workspaceBytes;
  if (family == KernelFamily::RowLookback && lookbackWarps > 1)
    os << " lookback_warps=" << lookbackWarps;
  if (family == KernelFamily::Column && groups > 1)
    os << " groups=" << groups;
  if (family == KernelFamily::Column && pieces > 1)
    os << " pieces=" << pieces << " workspace=" << workspaceBytes;
  if (evictFirst)
    os << " evict_first=1";
  if (warpRows)
    os << " warp_rows=1";
  if (edges)
    os << " edges=1";
  os << " scan=";
  printDim(os, geometry.scan);
  os << " lines=[";
  for (size_t i = 0; i < geometry.lines.size(); ++i) {
    if (i)
      os << ',';
    printDim(os, geometry.lines[i]);
  }
  os << "] inner=";
  printDim(os, geometry.inner);
  os << " policy=" << policy << " entry=" << entry;
  return os.str();
}

} // namespace scanjit
