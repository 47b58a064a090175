// The CUDA driver, opened with dlopen("libcuda.so.1") on first use: scanjit
// has no link-time dependency on it, so the library and the CLI load and
// compile on machines without a GPU.
#pragma once

#include <cuda.h>

#include "llvm/Support/Error.h"

namespace scanjit::detail {

#define SCANJIT_DRIVER_EXPAND(name, params) SCANJIT_DRIVER_MEMBER(name, params)
#define SCANJIT_DRIVER_MEMBER(name, params) CUresult(CUDAAPI *name) params = nullptr;

struct DriverApi {
#define SCANJIT_DRIVER_FN(name, params) SCANJIT_DRIVER_EXPAND(name, params)
#include "runtime/DriverFunctions.def"
#undef SCANJIT_DRIVER_FN
};

/// The loaded and initialized (cuInit) driver, or NoDriver / NoDevice /
/// DriverError saying what is missing. Loaded once per process.
llvm::Expected<const DriverApi &> driver();

/// Wraps a failed CUresult: "<what>: CUDA_ERROR_X (description)".
llvm::Error driverError(CUresult rc, llvm::StringRef what);

/// Compute capability (major*10+minor) of device 0, or 0 when no driver or
/// GPU is present. Never fails: used to pick a default arch.
int detectGpuSm();

} // namespace scanjit::detail
