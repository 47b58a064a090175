// CompiledKernel: what NVRTC produced for one generated source, plus the
// resource usage ptxas reported. A plain value: the cache stores it, the
// runtime loads its cubin.
#pragma once

#include "compiler/Target.h"

#include <string>
#include <vector>

namespace scanjit {

struct KernelResources {
  static constexpr int kUnknown = -1; // a figure only ptxas's report gives, and it was missing
  bool reported = false;  // from ptxas's report in NVRTC's log
  bool fromCubin = false; // else read off the cubin (see readCubinResources)
  int registers = 0;
  int spillStores = 0; // bytes
  int spillLoads = 0;  // bytes
  int stackBytes = 0;
  int sharedBytes = 0; // static shared memory
  int barriers = 0;
  // Where the plan's wanted blocks an SM were asked of ptxas in a second
  // compile (KernelPlan::wantedBlocksPerSm): them, and the registers the
  // first compile took; 0 where the plan's own source was kept.
  int askedBlocks = 0;
  int firstRegisters = 0;
  bool known() const { return reported || fromCubin; }
  /// Where the figures came from: "ptxas", "cubin", or "" (unknown).
  const char *source() const { return reported ? "ptxas" : fromCubin ? "cubin" : ""; }
  /// "registers=32 spill_stores=0 ..." one key=value per line; kUnknown
  /// prints as "unknown".
  std::string toString() const;
};

/// Parses the ptxas verbose report (--ptxas-options=-v) for `entry`.
/// Fails when the report has no "Used N registers" line for it.
llvm::Expected<KernelResources> parsePtxasReport(llvm::StringRef log, llvm::StringRef entry);

/// Reads registers, stack frame and static shared memory of `entry` off its
/// cubin. Spills are 0 where the stack frame is (nothing can spill without
/// one), else unknown, as are barriers.
llvm::Expected<KernelResources> readCubinResources(llvm::StringRef cubin, llvm::StringRef entry);

struct CompiledKernel {
  std::string entry;   // extern "C" kernel name
  Target target;
  std::string cubin;   // binary for target (bytes)
  std::string ptx;
  std::string log;     // NVRTC program log (includes the ptxas report)
  KernelResources resources; // from the ptxas report, else the cubin; see known()
  double compileMillis = 0;
};

/// Fills kernel.resources from the cubin where ptxas's report was missing
/// (also for cache entries written before the cubin was read). Leaves them
/// unknown only if the cubin cannot be read.
void completeResources(CompiledKernel &kernel);

} // namespace scanjit
