#include "compiler/KernelCompiler.h"
#include "compiler/ArchPolicy.h"
#include "compiler/Diagnostics.h"
#include "compiler/Emitter.h"
#include "compiler/Nvrtc.h"
#include "compiler/Planner.h"
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

llvm::Expected<CompiledKernel> compileKernel(const GeneratedKernel &generated, const Target &target) {
  return compileWithNvrtc(generated.source, generated.plan.entry, target,
                          shapeClassText(generated.spec, generated.plan));
}

} // namespace scanjit
