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

} // namespace scanjit
