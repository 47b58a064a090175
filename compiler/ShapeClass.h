// Shape classes: specs whose plans differ only in what a launch sets (the
// grid, the workspace, a batch taken at launch) share one kernel. The
// class's text names it in the cache key, in `scanjit cache list` and in the
// generated source.
#pragma once

#include "compiler/KernelPlan.h"

namespace scanjit {

/// The spec text of the class: the normalized geometry written as a spec
/// (line dims outer to inner, then the scanned dim, then a column plan's
/// inner dim), a batch taken at launch as `*`: "sum f32[*,4096] dim=1".
/// The spec's own text where the plan compiles its batch in.
std::string shapeClassText(const ScanSpec &spec, const KernelPlan &plan);

} // namespace scanjit
