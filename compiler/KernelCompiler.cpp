#include "compiler/KernelCompiler.h"
#include "compiler/Emitter.h"
#include "compiler/Nvrtc.h"
#include "compiler/Planner.h"
#include "compiler/ShapeClass.h"

namespace scanjit {

llvm::Expected<KernelPlan> planForTarget(const ScanSpec &spec, const Target &target, bool offGrid) {
  auto tuning = planTuningFromEnvironment();
  if (!tuning)
    return tuning.takeError();
  if (offGrid)
    tuning->offGrid = 1;
  return planKernel(spec, *tuning, target);
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
