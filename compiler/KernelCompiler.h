// The compile path in one place: spec -> plan -> source -> NVRTC. Each stage
// is also callable on its own (Planner.h, Emitter.h, Nvrtc.h); this is the
// staged value a caller walks through (generated -> compiled).
#pragma once

#include "compiler/CompiledKernel.h"
#include "compiler/KernelPlan.h"

namespace scanjit {

struct GeneratedKernel {
  ScanSpec spec;
  KernelPlan plan;
  std::string source; // empty for an Empty plan
};

/// Plans (with SCANJIT_PLAN_TUNE applied, if set) and emits; never compiles.
llvm::Expected<GeneratedKernel> generateKernel(const ScanSpec &spec);

/// Compiles generated source for `target`.
llvm::Expected<CompiledKernel> compileKernel(const GeneratedKernel &generated, const Target &target);

} // namespace scanjit
