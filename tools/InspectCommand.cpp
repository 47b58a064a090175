// scanjit inspect "<spec>" [--arch sm_XX] [--emit plan|source|ptx|sass|resources|key]
// Shows what scanjit generates for a spec. Needs no GPU.
#include "tools/Commands.h"

#include "cache/CacheKey.h"
#include "compiler/ArchPolicy.h"
#include "compiler/Diagnostics.h"
#include "compiler/Disassemble.h"
#include "compiler/KernelCompiler.h"
#include "compiler/Nvrtc.h"
#include "runtime/DriverApi.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace scanjit::tools {
namespace {

namespace cl = llvm::cl;

enum class Emit { Plan, Source, Ptx, Sass, Resources, Key };

cl::SubCommand Inspect("inspect", "Show the plan, source, PTX, SASS, resources or key for a spec");
cl::opt<std::string> SpecText(cl::Positional, cl::Required, cl::desc("<spec>"), cl::sub(Inspect));
cl::opt<std::string> Arch("arch", cl::desc("Target architecture, e.g. sm_90 (default: "
                                           "$SCANJIT_ARCH, else the GPU present, else sm_90)"),
                          cl::sub(Inspect));
cl::opt<Emit> What("emit", cl::desc("What to print"), cl::init(Emit::Plan),
                   cl::values(clEnumValN(Emit::Plan, "plan", "the canonical spec and the plan"),
                              clEnumValN(Emit::Source, "source", "the generated CUDA source"),
                              clEnumValN(Emit::Ptx, "ptx", "the PTX"),
                              clEnumValN(Emit::Sass, "sass", "the SASS (through nvdisasm)"),
                              clEnumValN(Emit::Resources, "resources",
                                         "registers, spills, shared memory (key=value)"),
                              clEnumValN(Emit::Key, "key", "the canonical spec and the cache key digest")),
                   cl::sub(Inspect));


llvm::Error runInspectOrError() {
  auto spec = parseSpec(SpecText);
  if (!spec)
    return spec.takeError();
  auto target = resolveTarget(Arch, Arch.empty() ? detail::detectGpuSm() : 0);
  if (!target)
    return target.takeError();
  auto generated = generateKernel(*spec, *target);
  if (!generated)
    return generated.takeError();
  llvm::outs() << (What == Emit::Plan || What == Emit::Key ? spec->toString() + "\n" : "");
  if (What == Emit::Plan) {
    llvm::outs() << generated->plan.toString() << "\n";
    const ArchPolicy &arch = archPolicy(*target);
    if (!arch.timed && generated->plan.family != KernelFamily::Empty)
      llvm::outs() << "note: " << arch.family
                   << " policy values are sm_90's timed ones, fitted to this arch's limits by occupancy "
                      "arithmetic (compiler/ArchPolicy.cpp); not timed on this arch\n";
    return llvm::Error::success();
  }
  if (What == Emit::Key) {
    CacheKey key = makeCacheKey(currentKeyFields(*generated, *target));
    llvm::outs() << "arch=" << target->name() << "\ndigest=" << key.digest << "\n";
    return llvm::Error::success();
  }
  if (generated->plan.family == KernelFamily::Empty)
    return detail::makeErrorF(ErrorCode::InvalidArgument,
                              "spec '{0}' has no elements: there is no kernel to show",
                              spec->toString());
  if (What == Emit::Source) {
    llvm::outs() << generated->source;
    return llvm::Error::success();
  }
  auto compiled = compileKernel(*generated, *target);
  if (!compiled)
    return compiled.takeError();
  switch (What) {
  case Emit::Ptx:
    llvm::outs() << compiled->ptx;
    break;
  case Emit::Resources:
    if (!compiled->resources.known())
      return detail::makeErrorF(ErrorCode::Internal,
                                "neither NVRTC's log nor the cubin of '{0}' gives its resources:\n{1}",
                                spec->toString(), compiled->log);
    llvm::outs() << "entry=" << compiled->entry << "\narch=" << target->name()
                 << "\nnvrtc=" << nvrtcVersion()
                 << "\nresources_from=" << compiled->resources.source() << "\n"
                 << compiled->resources.toString()
                 << "dynamic_shared_bytes=" << generated->plan.sharedBytes << "\n"
                 << llvm::formatv("compile_ms={0:f1}\n", compiled->compileMillis);
    break;
  case Emit::Sass: {
    auto sass = disassembleCubin(compiled->cubin);
    if (!sass)
      return sass.takeError();
    llvm::outs() << *sass;
    break;
  }
  default:
    break;
  }
  return llvm::Error::success();
}

int runInspect() {
  if (llvm::Error e = runInspectOrError())
    return reportError(std::move(e));
  return 0;
}

} // namespace

Command inspectCommand() { return {Inspect, runInspect}; }

} // namespace scanjit::tools
