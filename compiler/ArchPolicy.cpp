#include "compiler/ArchPolicy.h"

#include "llvm/ADT/ArrayRef.h"

namespace scanjit {
namespace {

// Limits from the CUDA C++ Programming Guide's table of compute
// capabilities. L2 sizes are the family's common parts' (smallest where they
// differ), so evict-first never applies to an input that fits.
constexpr ArchPolicy kTable[] = {
    // Turing: no bulk copies (stages are sm_90's) nor cp.async, 64 KB a block and an SM,
    // 1024 threads an SM: at most two 512-thread blocks. T4: 4 MB of L2.
    {75, "sm_75", false, false, 64 * 1024, 64 * 1024, 1024, 4ll << 20, false},
    // A100: no bulk copies (cp.async: word copies), 163 KB a block of 164 KB, 2048 threads, 40 MB L2.
    {80, "sm_80/86/89", false, true, 163 * 1024, 164 * 1024, 2048, 40ll << 20, false},
    // GA10x / AD10x: 99 KB a block of 100 KB, 1536 threads (three 512-thread
    // blocks at most), 6 MB of L2 on GA10x (AD10x has more: kept small).
    {86, "sm_80/86/89", false, true, 99 * 1024, 100 * 1024, 1536, 6ll << 20, false},
    // H100/H200: bulk copies; 227 KB a block of 228 KB; 50 MB of L2 (H100).
    // Every policy value in PlannerPolicy.h was timed here (BENCHMARKS.md).
    {90, "sm_90", true, true, 227 * 1024, 228 * 1024, 2048, 48ll << 20, true},
    // B200: bulk copies, sm_90's shared memory and threads, 126 MB of L2.
    {100, "sm_100/120", true, true, 227 * 1024, 228 * 1024, 2048, 120ll << 20, false},
    // RTX 50xx: bulk copies, 99 KB a block of 100 KB, 1536 threads, 32+ MB L2.
    {120, "sm_100/120", true, true, 99 * 1024, 100 * 1024, 1536, 32ll << 20, false},
};

} // namespace

const ArchPolicy &archPolicy(const Target &target) {
  const ArchPolicy *row = &kTable[0];
  for (const ArchPolicy &r : kTable)
    if (target.sm >= r.minSm)
      row = &r;
  return *row;
}

} // namespace scanjit
