// Filling a disk cache ahead of time, on machines without a GPU: a process
// whose specs were all precompiled for its GPU's arch compiles nothing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace scanjit {

struct PrecompileResult {
  size_t compiled = 0; // kernels compiled and stored: one per shape class, however many specs share it
  size_t cached = 0;   // specs whose kernel was in the cache, or another spec's of this run (or with no elements)
  std::vector<std::string> failures; // "<label>: '<spec>' (sm_XX): why", sorted
};

/// Compiles each spec for each arch ("sm_90"; none: $SCANJIT_ARCH, else the
/// GPU present, else sm_90) into the disk cache under `cacheDir` ("": the
/// $SCANJIT_* settings), `jobs` at a time (0: every core). `labels[i]` names
/// specs[i] in failures ("spec i+1" when absent). Throws scanjit::Error for a
/// bad arch or a cache it cannot write; a spec that fails is listed.
PrecompileResult precompile(const std::vector<std::string> &specs, const std::vector<std::string> &archs = {},
                            const std::string &cacheDir = "", unsigned jobs = 0,
                            const std::vector<std::string> &labels = {});

} // namespace scanjit
