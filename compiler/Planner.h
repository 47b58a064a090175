// Planner: ScanSpec -> KernelPlan. Normalizes the problem, picks the kernel
// family and its shape. Pure and deterministic: the plan is part of the key.
#pragma once

#include "compiler/KernelPlan.h"

namespace scanjit {

/// Drops size-1 dims, merges dims contiguous with each other in every tensor,
/// and separates the scanned dim from the line dims.
ScanGeometry normalizeGeometry(const ScanSpec &spec);

/// Plans a validated spec. Never fails for a spec that validateSpec accepted.
KernelPlan planKernel(const ScanSpec &spec);

} // namespace scanjit
