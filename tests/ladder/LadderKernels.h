// Test kernels for each rung of the scan ladder (warp scan, block scan, tile
// agent; and the span copy that warp rows load by), instantiated from the embedded templates as CUB tests its own
// rungs: the unit tests compile them for every arch, the GPU tests run them
// against a host reference.
#pragma once

#include <string>
#include <vector>

namespace scanjit::ladder {

enum class Rung { Warp, Block, Tile, Span };
enum class LadderOp { SumI64, MaxF32, LogSumExpF64 };

struct LadderKernel {
  std::string entry; // extern "C" name
  Rung rung;
  LadderOp op;
  bool reverse = false;
  bool exclusive = false;  // block rung: always exclusive (its only entry)
  int segment = 0;         // tile rung: rows of this many elements as segments (0: none)
  int threads = 32;        // warp rung: 32
  int items = 1;           // tile rung: items a thread
  int width = 32;          // warp rung: lanes scanning together
  int spanBytes = 0;       // span rung: element bytes (1 or 2)
  int spanMost = 0;        // span rung: the most elements a span holds
};

/// Every ladder test kernel.
const std::vector<LadderKernel> &ladderKernels();

/// One CUDA source holding every kernel of ladderKernels(). Kernel signature:
/// (const void *in, void *out, void *out2, long long n):
///  warp:  per warp of 32 values, out = inclusive, out2 = exclusive scan
///         (runs of `width` lanes scan alone);
///  block: per block of `threads` values, out = exclusive scan, out2 = the
///         exclusive scan of the values times 3 (a second call: the other
///         half of the double-buffered storage), then the two block totals
///         at out2[n + 2 * block] and out2[n + 2 * block + 1];
///  tile:  each block scans its row of n values (row = blockIdx.x) in tiles
///         of threads x items through a TileAgent and a RunningPrefix, out =
///         the row's results;
///  span:  block b (one warp) copies the n - b elements from element b of
///         `in` (unsigned bytes or shorts) into shared memory by words
///         (copy_span_by_words) and writes them to out[b * n, ...) from there
///         (n - b at most spanMost; `op` unused).
std::string ladderSource();

} // namespace scanjit::ladder
