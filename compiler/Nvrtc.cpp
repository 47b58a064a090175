#include "compiler/Nvrtc.h"
#include "compiler/Diagnostics.h"
#include "compiler/Templates.h"

#include <nvrtc.h>

#include <chrono>
#include <cstdlib>
#include <memory>

namespace scanjit {
namespace {

struct ProgramDeleter {
  void operator()(nvrtcProgram p) const { nvrtcDestroyProgram(&p); }
};
using ProgramPtr = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

std::string programLog(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1)
    return "";
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  log.resize(size - 1);
  return log;
}

template <class SizeFn, class GetFn>
std::string fetch(nvrtcProgram program, SizeFn sizeFn, GetFn getFn) {
  size_t size = 0;
  if (sizeFn(program, &size) != NVRTC_SUCCESS || size == 0)
    return "";
  std::string bytes(size, '\0');
  if (getFn(program, bytes.data()) != NVRTC_SUCCESS)
    return "";
  return bytes;
}

} // namespace

std::vector<std::string> nvrtcOptions(const Target &target) {
  // 177: the plan's constants are echoed into every source, used or not.
  // --minimal: no implicit CUDA runtime headers (the templates use only
  // built-ins): the front end's 60 ms a small kernel became 36, the SASS
  // byte for byte the same (BENCHMARKS.md).
  std::vector<std::string> options = {"--gpu-architecture=" + target.name(), "--std=c++17", "--ptxas-options=-v",
                                      "--diag-suppress=177", "--minimal"};
  // SCANJIT_NVRTC_OPTIONS: more options, space-separated, for measuring
  // compile time against kernel time (they enter the cache key with the rest).
  if (const char *extra = std::getenv("SCANJIT_NVRTC_OPTIONS")) {
    llvm::SmallVector<llvm::StringRef, 4> tokens;
    llvm::StringRef(extra).split(tokens, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef t : tokens)
      options.push_back(t.str());
  }
  return options;
}

std::string nvrtcVersion() {
  int major = 0, minor = 0;
  ::nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

llvm::Expected<CompiledKernel> compileWithNvrtc(llvm::StringRef source, llvm::StringRef entry,
                                                const Target &target, llvm::StringRef what) {
  auto start = std::chrono::steady_clock::now();
  llvm::ArrayRef<detail::EmbeddedFile> headers = detail::embeddedTemplates();
  std::vector<std::string> headerText, headerNames;
  for (const detail::EmbeddedFile &f : headers) {
    headerText.push_back(f.contents.str());
    headerNames.push_back(f.name.str());
  }
  std::vector<const char *> textPtrs, namePtrs;
  for (size_t i = 0; i < headers.size(); ++i) {
    textPtrs.push_back(headerText[i].c_str());
    namePtrs.push_back(headerNames[i].c_str());
  }
  std::string sourceText = source.str();
  nvrtcProgram raw = nullptr;
  nvrtcResult rc = nvrtcCreateProgram(&raw, sourceText.c_str(), (entry + ".cu").str().c_str(),
                                      static_cast<int>(headers.size()), textPtrs.data(),
                                      namePtrs.data());
  if (rc != NVRTC_SUCCESS)
    return detail::makeErrorF(ErrorCode::Internal, "nvrtcCreateProgram failed for '{0}': {1}",
                              what, nvrtcGetErrorString(rc));
  ProgramPtr program(raw);

  std::vector<std::string> options = nvrtcOptions(target);
  std::vector<const char *> optionPtrs;
  for (const std::string &o : options)
    optionPtrs.push_back(o.c_str());
  rc = nvrtcCompileProgram(program.get(), static_cast<int>(optionPtrs.size()), optionPtrs.data());
  CompiledKernel kernel;
  kernel.log = programLog(program.get());
  if (rc != NVRTC_SUCCESS)
    return detail::makeErrorF(ErrorCode::CompileFailed,
                              "NVRTC failed to compile the kernel for '{0}' ({1}, {2}); this is a "
                              "scanjit bug. NVRTC log:\n{3}",
                              what, target.name(), nvrtcGetErrorString(rc), kernel.log);
  kernel.entry = entry.str();
  kernel.target = target;
  kernel.cubin = fetch(program.get(), nvrtcGetCUBINSize, nvrtcGetCUBIN);
  kernel.ptx = fetch(program.get(), nvrtcGetPTXSize, nvrtcGetPTX);
  if (!kernel.ptx.empty() && kernel.ptx.back() == '\0')
    kernel.ptx.pop_back();
  if (kernel.cubin.empty())
    return detail::makeErrorF(ErrorCode::Internal, "NVRTC produced no cubin for '{0}' ({1})", what,
                              target.name());
  // Seen on GPU machines: NVRTC's log may lack the ptxas report although the
  // cubin is fine. The resources are then read off the cubin.
  auto resources = parsePtxasReport(kernel.log, entry);
  if (resources)
    kernel.resources = *resources;
  else
    llvm::consumeError(resources.takeError());
  completeResources(kernel);
  kernel.compileMillis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return kernel;
}

} // namespace scanjit
