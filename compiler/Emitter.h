// Emitter: spec + plan -> CUDA source. The source is a thin instantiation of
// the device templates: a Problem and a Plan of constants and one
// extern "C" __global__ entry that calls the family's template.
#pragma once

#include "compiler/KernelPlan.h"

namespace scanjit {

/// Kernel parameters, in order: (const void *in, const unsigned char *mask,
/// void *out, void *workspace); workspace is plan.workspaceBytes of zeroed
/// device memory (null when 0).
/// Fails only for an Empty plan (nothing to generate) or an internal bug.
llvm::Expected<std::string> emitKernelSource(const ScanSpec &spec, const KernelPlan &plan);

/// The scanjit version string compiled into the library.
llvm::StringRef scanjitVersion();

/// The device type that stores `t` in generated sources ("float", "scanjit::f16", ...).
llvm::StringRef deviceTypeName(DType t);

} // namespace scanjit
