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

/// The arch a GPU of compute capability `deviceSm` runs its kernels as:
/// its own, or $SCANJIT_RUN_ARCH (a testing knob), an older arch whose plans
/// and code paths then run on this GPU from their PTX, which the driver
/// compiles for it (sm_80's on an H100). Fails on bad text or an arch newer
/// than the GPU's.
llvm::Expected<Target> runTarget(int deviceSm);

/// Whether $SCANJIT_RUN_ARCH is set: kernels then load from their PTX, and
/// the disk cache, which keeps cubins, is off.
bool runsAsAnotherArch();

/// Architectures this NVRTC can compile for, e.g. {75, 80, ..., 90, ...}.
std::vector<int> nvrtcSupportedSms();

} // namespace scanjit
