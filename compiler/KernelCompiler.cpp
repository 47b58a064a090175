#include "compiler/KernelCompiler.h"
#include "compiler/ArchPolicy.h"
#include "compiler/Diagnostics.h"
#include "compiler/Emitter.h"
#include "compiler/Log.h"
#include "compiler/Nvrtc.h"
#include "compiler/Planner.h"
#include "compiler/PlannerPolicy.h"
#include "compiler/ShapeClass.h"

namespace scanjit {

llvm::Expected<KernelPlan> planForTarget(const ScanSpec &spec, const Target &target, bool offGrid) {
  auto tuning = planTuningFromEnvironment();
  if (!tuning)
    return tuning.takeError();
  const bool tuned = !tuning->empty();
  if (offGrid)
    tuning->offGrid = 1;
  KernelPlan plan = planKernel(spec, *tuning, target);
  // A tuning can ask for more shared memory than a block may have
  // (threads=512 over 16 f32 lanes: 262224 bytes): said here, by name,
  // rather than by the driver at the first launch.
  const int64_t most = archPolicy(target).maxDynamicSharedBytes;
  if (plan.sharedBytes > most)
    return tuned ? detail::makeErrorF(ErrorCode::InvalidArgument,
                                      "SCANJIT_PLAN_TUNE '{0}': the plan needs {1} bytes of shared memory a block, "
                                      "over {2}'s {3}",
                                      tuning->toString(), plan.sharedBytes, target.name(), most)
                 : detail::makeErrorF(ErrorCode::Internal,
                                      "the plan of '{0}' needs {1} bytes of shared memory a block, over {2}'s {3} "
                                      "(a planner bug: please report it)",
                                      spec.toString(), plan.sharedBytes, target.name(), most);
  return plan;
}

llvm::Expected<GeneratedKernel> generateKernel(const ScanSpec &spec, const Target &target) {
  auto plan = planForTarget(spec, target);
  if (!plan)
    return plan.takeError();
  GeneratedKernel g{spec, std::move(*plan), ""};
  if (g.plan.family == KernelFamily::Empty)
    return g;
  auto source = emitKernelSource(spec, g.plan);
  if (!source)
    return source.takeError();
  g.source = std::move(*source);
  return g;
}

std::string compileRulesText() {
  return "asked_max_spill_bytes=" + std::to_string(policy::kWantedBlocksMaxSpillBytes);
}

bool askedKernelKept(const KernelResources &asked) {
  // (Its stack frame holds the spills: no larger either.)
  const int limit = policy::kWantedBlocksMaxSpillBytes;
  return asked.known() && asked.spillStores <= limit && asked.stackBytes <= limit;
}

llvm::Expected<CompiledKernel> compileKernel(const GeneratedKernel &generated, const Target &target) {
  const KernelPlan &plan = generated.plan;
  const std::string what = shapeClassText(generated.spec, plan);
  auto compiled = compileWithNvrtc(generated.source, plan.entry, target, what);
  if (!compiled || plan.wantedBlocksPerSm <= plan.minBlocksPerSm || !compiled->resources.known() ||
      policy::blocksByRegisters(compiled->resources.registers, plan.threads) >= plan.wantedBlocksPerSm)
    return compiled;
  // ptxas's own registers hold fewer blocks an SM than the plan wants: the
  // kernel again, its __launch_bounds__ asking for them.
  KernelPlan asked = plan;
  asked.minBlocksPerSm = plan.wantedBlocksPerSm;
  auto source = emitKernelSource(generated.spec, asked);
  if (!source)
    return source.takeError();
  auto again = compileWithNvrtc(*source, plan.entry, target, what);
  if (!again) { // (the first kernel is whole: it is served; SCANJIT_LOG=1 says why)
    detail::warnOnce("asked-blocks-" + plan.entry, "'" + what + "': compiled again asking for " +
                                                       std::to_string(asked.minBlocksPerSm) +
                                                       " blocks an SM, it failed (the first kernel is kept): " +
                                                       llvm::toString(again.takeError()));
    return compiled;
  }
  if (!askedKernelKept(again->resources)) {
    compiled->compileMillis += again->compileMillis;
    return compiled;
  }
  again->compileMillis += compiled->compileMillis;
  again->resources.askedBlocks = asked.minBlocksPerSm;
  again->resources.firstRegisters = compiled->resources.registers;
  return again;
}

} // namespace scanjit
