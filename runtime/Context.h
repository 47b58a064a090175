// The CUDA context a call runs in: the caller's current one, or device 0's
// primary context (retained once, made current) when none is current.
#pragma once

#include "runtime/DriverApi.h"

namespace scanjit::detail {

struct ContextInfo {
  CUcontext context = nullptr;
  CUdevice device = 0;
  int sm = 0; // compute capability major*10+minor
};

/// The current context, making device 0's primary context current if none is.
llvm::Expected<ContextInfo> currentContext();

/// Just the current context handle (making the primary one current if
/// needed): the cheap query the launch path makes.
llvm::Expected<CUcontext> currentContextHandle();

} // namespace scanjit::detail
