#include "scanjit/Inspect.h"
#include "scanjit/Error.h"

#include "cache/CacheKey.h"
#include "compiler/Diagnostics.h"
#include "compiler/Disassemble.h"
#include "compiler/KernelCompiler.h"
#include "runtime/DriverApi.h"
#include "runtime/Errors.h"

namespace scanjit {

KernelReport inspectKernel(const std::string &specText, const std::string &arch) {
  ScanSpec spec = detail::unwrap(parseSpec(specText));
  Target target = detail::unwrap(resolveTarget(arch, arch.empty() ? detail::detectGpuSm() : 0));
  GeneratedKernel generated = detail::unwrap(generateKernel(spec, target));
  KernelReport report;
  report.spec = spec.toString();
  report.plan = generated.plan.toString();
  report.arch = target.name();
  report.source = generated.source;
  report.key = makeCacheKey(currentKeyFields(generated, target)).digest;
  if (generated.plan.family == KernelFamily::Empty)
    return report;
  CompiledKernel compiled = detail::unwrap(compileKernel(generated, target));
  report.entry = compiled.entry;
  report.ptx = compiled.ptx;
  report.cubin = compiled.cubin;
  report.resourcesReported = compiled.resources.known();
  report.resourcesFrom = compiled.resources.source();
  report.registers = compiled.resources.registers;
  report.spillStores = compiled.resources.spillStores;
  report.spillLoads = compiled.resources.spillLoads;
  report.sharedBytes = compiled.resources.sharedBytes;
  report.dynamicSharedBytes = generated.plan.sharedBytes;
  report.compileMillis = compiled.compileMillis;
  return report;
}

std::string disassemble(const KernelReport &report) {
  if (report.cubin.empty())
    throw Error(ErrorCode::InvalidArgument, "spec '" + report.spec + "' has no elements: there is no kernel to show");
  return detail::unwrap(disassembleCubin(report.cubin));
}

bool gpuAvailable() { return gpuUnavailableReason().empty(); }

std::string gpuUnavailableReason() {
  auto api = detail::driver();
  if (api)
    return "";
  return llvm::toString(api.takeError());
}

} // namespace scanjit
