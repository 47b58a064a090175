// Planner: ScanSpec -> KernelPlan. Normalizes the problem, picks the kernel
// family and its shape. Pure and deterministic: the plan is part of the key.
#pragma once

#include "compiler/KernelPlan.h"
#include "compiler/PlanTuning.h"
#include "compiler/Target.h"

namespace scanjit {

/// Drops size-1 dims, merges dims contiguous with each other in every tensor,
/// and separates the scanned dim from the line dims.
ScanGeometry normalizeGeometry(const ScanSpec &spec);

/// Plans a validated spec for `target`'s arch family (ArchPolicy.h). Never
/// fails for a spec that validateSpec accepted. `tuning` replaces policy
/// choices (for tuning runs; see PlanTuning.h).
KernelPlan planKernel(const ScanSpec &spec, const PlanTuning &tuning = {}, const Target &target = {});

/// Lines a launch of batch 1 scans (all of them where the batch is
/// compiled in).
int64_t linesPerBatch(const KernelPlan &plan);

/// Device workspace a launch of `lines` lines uses (0 when none): mirrors
/// the kernels' own formulas (the emitted source asserts they agree).
int64_t workspaceBytesForLines(const ScanSpec &spec, const KernelPlan &plan, int64_t lines);

} // namespace scanjit
