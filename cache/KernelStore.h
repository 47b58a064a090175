// Where compiled kernels come from: the disk cache, else NVRTC (then
// published to the disk cache). Shared by the runtime and `scanjit precompile`.
#pragma once

#include "cache/DiskCache.h"

namespace scanjit {

struct StoredKernel {
  CompiledKernel kernel;
  bool fromDisk = false;
};

/// The disk entry for `key` if valid, else compiles `generated` for `target`
/// and stores it. Saves the source under $SCANJIT_DUMP_DIR when set.
llvm::Expected<StoredKernel> loadOrCompile(DiskCache &disk, const GeneratedKernel &generated,
                                           const Target &target, const CacheKey &key);

/// Any kernel source the same way (the tools' random-input generators).
struct SourceKernel {
  std::string source;
  std::string entry; // extern "C" name
  std::string what;  // names it in logs and errors
  std::string plan;  // stored with the entry
};
llvm::Expected<StoredKernel> loadOrCompileSource(DiskCache &disk, const SourceKernel &kernel, const Target &target,
                                                 const CacheKey &key);

/// The process's disk cache, configured from the environment on first use.
llvm::Expected<DiskCache &> processDiskCache();

} // namespace scanjit
