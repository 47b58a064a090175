// The NVRTC wrapper: CUDA source -> CompiledKernel for one target, with the
// embedded templates handed over as in-memory headers.
#pragma once

#include "compiler/CompiledKernel.h"

namespace scanjit {

/// The options every compile uses for `target`; they are part of the cache key.
std::vector<std::string> nvrtcOptions(const Target &target);

/// "13.0" for the NVRTC this process loaded.
std::string nvrtcVersion();

/// Compiles `source`, whose kernel is `entry`. A failure carries the NVRTC
/// log and `what` (the spec text) so the report says which kernel broke.
llvm::Expected<CompiledKernel> compileWithNvrtc(llvm::StringRef source, llvm::StringRef entry,
                                                const Target &target, llvm::StringRef what);

} // namespace scanjit
