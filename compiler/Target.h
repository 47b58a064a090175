// Target: the GPU architecture a kernel is compiled for (sm_XX).
#pragma once

#include "llvm/ADT/Optional.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace scanjit {

struct Target {
  int sm = 90; // compute capability major*10 + minor
  std::string name() const { return "sm_" + std::to_string(sm); }
  friend bool operator==(Target a, Target b) { return a.sm == b.sm; }
};

inline constexpr int kDefaultSm = 90;

/// Parses "sm_90" (or "90"); fails naming the text, or listing the
/// architectures this NVRTC supports when it cannot compile for it.
llvm::Expected<Target> parseTarget(llvm::StringRef text);

/// The architecture to compile for: an explicit choice, else $SCANJIT_ARCH,
/// else the GPU present (`detectedSm`, 0 if none), else sm_90.
llvm::Expected<Target> resolveTarget(llvm::StringRef explicitArch, int detectedSm);

/// Architectures this NVRTC can compile for, e.g. {75, 80, ..., 90, ...}.
std::vector<int> nvrtcSupportedSms();

} // namespace scanjit
