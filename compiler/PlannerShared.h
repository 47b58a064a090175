// Helpers the family planners share (Planner.cpp, SegmentedPlanner.cpp,
// ColumnPlanner.cpp), and the segmented and column families' planners:
// internal to compiler/, not installed.
#pragma once

#include "compiler/ArchPolicy.h"
#include "compiler/KernelPlan.h"
#include "compiler/PlanTuning.h"
#include "compiler/ScanSpec.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace scanjit::planning {

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Mirrors lookback_workspace_bytes() in templates/scanjit/lookback_scan.cuh
// (the emitted source asserts they agree): a counter, then two flagged
// values per tile, each twice the accumulator's size.
inline int64_t lookbackWorkspaceBytes(int64_t tiles, int accBytes) {
  return 16 + 2 * tiles * 2 * accBytes;
}

inline int pick(int tuned, int policyChoice) { return tuned > 0 ? tuned : policyChoice; }

// A count-dependent choice that the kernel's code depends on, taken from
// the count rounded down to a power of two: a shape class's counts then
// share a kernel, and a sweep over batch sizes compiles a kernel per
// power-of-two step at most (exact_batch=1: the exact count).
inline int64_t classCount(const PlanTuning &tuning, int64_t n) {
  return tuning.exactBatch || n < 1 ? n : int64_t(llvm::PowerOf2Floor(uint64_t(n)));
}
inline bool pickFlag(int tuned, bool policyChoice) { return tuned >= 0 ? tuned != 0 : policyChoice; }

// Bulk copies move multiples of 16 bytes between 16-byte aligned addresses
// (the kernel checks the pointers themselves at run time): a run of
// `elements` elements of the input and of the mask, and a step of a dim's
// strides in both, must each be whole 16-byte words.
inline bool bulkRun(const ScanSpec &spec, int64_t elements) {
  return (elements * dtypeSize(spec.in)) % 16 == 0 && (!spec.mask || elements % 16 == 0);
}
inline bool bulkStrides(const ScanSpec &spec, const GeometryDim &d) {
  return (d.in * dtypeSize(spec.in)) % 16 == 0 && (!spec.mask || d.mask % 16 == 0);
}
inline bool bulkLines(const ScanSpec &spec, llvm::ArrayRef<GeometryDim> lines) {
  return std::all_of(lines.begin(), lines.end(), [&](const GeometryDim &d) { return bulkStrides(spec, d); });
}

// An add's or a multiply's combine; max, min (with NaN rules) and
// log-sum-exp cost more instructions.
inline bool cheapCombine(const ScanSpec &spec) { return spec.op == ScanOp::Sum || spec.op == ScanOp::Prod; }
// Max and min: ops whose result is one of the elements.
inline bool maxOrMin(const ScanSpec &spec) { return spec.op == ScanOp::Max || spec.op == ScanOp::Min; }

// Rows whose every tile start and size is a multiple of 16 bytes in the
// input and the mask (else the edges plan: grid_pipeline.cuh).
bool rowsOnTheGrid(const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan);

// The fewest contiguous rows of length L whose input, mask and output are
// each whole 16-byte words (a power of two, at most 16).
int64_t rowsFillingWholeWords(const ScanSpec &spec, int64_t L);

// Bulk-copy stages for a row plan (0 where they do not pay or fit), within
// `budgetBytes`, or a share of the SM's shared memory among `smBlocks`.
int bulkStages(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, const KernelPlan &plan,
               int maxStages, int budgetBytes, int smBlocks = 0);

// A staged plan's shared memory: its stages, their mbarriers and work items.
int64_t pipelineSharedBytes(const ScanSpec &spec, const KernelPlan &plan);

// Blocks of the plan an SM of its arch holds by threads and by shared
// memory (registers are ptxas's).
int64_t blocksFittingAnSm(const ArchPolicy &arch, const KernelPlan &plan);

// Log-sum-exp of 8-byte accumulators (f64): its combines, not its bytes,
// set its time.
bool wideLogSumExp(const ScanSpec &spec);

/// Plans contiguous rows of at most half a row tile as the segmented family
/// (`rows` of them; plan.items holds the row family's items): chunks of
/// whole rows, or warp rows (SegmentedPlanner.cpp).
void planSegmented(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                   int64_t rows);

/// Plans a column scan (the scan steps over rows; line dim `innerIndex` is
/// contiguous): threads across the columns, or on sm_90 with few columns
/// tiles of whole rows or the bulk-copy pipeline (ColumnPlanner.cpp).
void planColumn(const ArchPolicy &arch, const ScanSpec &spec, const PlanTuning &tuning, KernelPlan &plan,
                size_t innerIndex);

/// Device workspace of a column plan's `lines` lines: the tiles' look-back
/// or the pieces' published values; 0 when it has neither.
int64_t columnWorkspaceBytes(const ScanSpec &spec, const KernelPlan &plan, int64_t lines);

} // namespace scanjit::planning
