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

/// The plan for `target`'s arch, with SCANJIT_PLAN_TUNE applied (if set):
/// what every compile and lookup of `spec` plans by. `offGrid`: the plan for
/// launches whose input or mask pointers lie off the 16-byte grid
/// (PlanTuning::offGrid).
llvm::Expected<KernelPlan> planForTarget(const ScanSpec &spec, const Target &target, bool offGrid = false);

/// Plans (planForTarget) and emits; never compiles. The default target is sm_90.
llvm::Expected<GeneratedKernel> generateKernel(const ScanSpec &spec, const Target &target = {});

/// Compiles generated source for `target`. Where the plan wants more blocks an
/// SM than ptxas's own registers hold (KernelPlan::wantedBlocksPerSm), it is
/// compiled again asking for them, and that kernel is served if
/// askedKernelKept() says so.
llvm::Expected<CompiledKernel> compileKernel(const GeneratedKernel &generated, const Target &target);

/// Whether a kernel compiled again to ask for its wanted blocks is served in
/// place of the first: its resources are known and it spills no more than
/// policy::kWantedBlocksMaxSpillBytes.
bool askedKernelKept(const KernelResources &asked);

/// The rules by which compileKernel() picks among a plan's compiles, as key
/// text: a kernel cached under other rules is compiled again, not served.
std::string compileRulesText();

} // namespace scanjit
