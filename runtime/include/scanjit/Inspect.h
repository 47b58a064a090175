// Inspecting what scanjit generates for a spec, without a GPU.
#pragma once

#include <string>

namespace scanjit {

struct KernelReport {
  std::string spec;   // canonical spec text
  std::string plan;   // canonical plan text
  std::string arch;   // "sm_90"
  std::string entry;  // kernel name ("" when the spec has no elements)
  std::string source; // generated CUDA source
  std::string ptx;
  std::string key;    // the cache key's digest for this spec and arch
  std::string cubin;  // the compiled binary
  bool resourcesReported = false; // the counts below are known (-1: a count only ptxas reports)
  std::string resourcesFrom;      // "ptxas" (its report in NVRTC's log), else "cubin" (read off it)
  int registers = 0;
  int spillStores = 0, spillLoads = 0; // bytes
  int sharedBytes = 0;            // static, as ptxas reports it
  long long dynamicSharedBytes = 0; // launched with (the plan's stages)
  double compileMillis = 0;
};

/// Plans, generates and compiles `spec` (canonical text, see docs/specs.md) for
/// `arch` ("" = $SCANJIT_ARCH, else the GPU present, else sm_90). Throws
/// scanjit::Error naming what is wrong for a bad spec or arch. A spec with no
/// elements is planned but not compiled (entry stays empty).
KernelReport inspectKernel(const std::string &spec, const std::string &arch = "");

/// The SASS of a report's cubin, through nvdisasm ($SCANJIT_NVDISASM, else
/// PATH, else the toolkit's). Throws scanjit::Error (Unsupported) naming
/// what to install when there is none.
std::string disassemble(const KernelReport &report);

/// True when a CUDA driver and at least one GPU are present.
bool gpuAvailable();

/// Why no GPU can be used ("" when one can), e.g. "no CUDA driver found (...)".
std::string gpuUnavailableReason();

} // namespace scanjit
