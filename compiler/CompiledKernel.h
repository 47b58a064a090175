// CompiledKernel: what NVRTC produced for one generated source, plus the
// resource usage ptxas reported. A plain value: the cache stores it, the
// runtime loads its cubin.
#pragma once

#include "compiler/Target.h"

#include <string>
#include <vector>

namespace scanjit {

struct KernelResources {
  bool reported = false; // false when NVRTC's log carried no ptxas report
  int registers = 0;
  int spillStores = 0; // bytes
  int spillLoads = 0;  // bytes
  int stackBytes = 0;
  int sharedBytes = 0; // static shared memory
  int barriers = 0;
  /// "registers=32 spill_stores=0 ..." one key=value per line.
  std::string toString() const;
};

/// Parses the ptxas verbose report (--ptxas-options=-v) for `entry`.
/// Fails when the report has no "Used N registers" line for it.
llvm::Expected<KernelResources> parsePtxasReport(llvm::StringRef log, llvm::StringRef entry);

struct CompiledKernel {
  std::string entry;   // extern "C" kernel name
  Target target;
  std::string cubin;   // binary for target (bytes)
  std::string ptx;
  std::string log;     // NVRTC program log (includes the ptxas report)
  KernelResources resources; // from the ptxas report; see resources.reported
  double compileMillis = 0;
};

} // namespace scanjit
