#include "runtime/DriverApi.h"
#include "compiler/Diagnostics.h"

#include <dlfcn.h>

#include <mutex>

namespace scanjit::detail {
namespace {

#define SCANJIT_STRINGIFY_EXPANDED(x) SCANJIT_STRINGIFY(x)
#define SCANJIT_STRINGIFY(x) #x

struct LoadResult {
  DriverApi api;
  ErrorCode code = ErrorCode::Ok;
  std::string message;
};

LoadResult loadDriver() {
  LoadResult r;
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    r.code = ErrorCode::NoDriver;
    r.message = std::string("no CUDA driver found (dlopen libcuda.so.1: ") + dlerror() + ")";
    return r;
  }
#define SCANJIT_DRIVER_FN(name, params)                                                             \
  r.api.name = reinterpret_cast<decltype(r.api.name)>(dlsym(handle, SCANJIT_STRINGIFY_EXPANDED(name))); \
  if (!r.api.name) {                                                                                \
    r.code = ErrorCode::NoDriver;                                                                   \
    r.message = "the CUDA driver lacks " SCANJIT_STRINGIFY_EXPANDED(name) " (driver too old?)";     \
    return r;                                                                                       \
  }
#include "runtime/DriverFunctions.def"
#undef SCANJIT_DRIVER_FN
  CUresult rc = r.api.cuInit(0);
  if (rc != CUDA_SUCCESS) {
    const char *name = nullptr;
    r.api.cuGetErrorName(rc, &name);
    r.code = rc == CUDA_ERROR_NO_DEVICE ? ErrorCode::NoDevice : ErrorCode::DriverError;
    r.message = std::string("the CUDA driver found no usable GPU (cuInit: ") + (name ? name : "?") + ")";
    return r;
  }
  int count = 0;
  if (r.api.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    r.code = ErrorCode::NoDevice;
    r.message = "the CUDA driver loaded but reports no GPU";
  }
  return r;
}

const LoadResult &loaded() {
  static const LoadResult result = loadDriver();
  return result;
}

} // namespace

llvm::Expected<const DriverApi &> driver() {
  const LoadResult &r = loaded();
  if (r.code != ErrorCode::Ok)
    return makeError(r.code, r.message);
  return r.api;
}

llvm::Error driverError(CUresult rc, llvm::StringRef what) {
  const char *name = nullptr, *text = nullptr;
  const LoadResult &r = loaded();
  if (r.api.cuGetErrorName)
    r.api.cuGetErrorName(rc, &name);
  if (r.api.cuGetErrorString)
    r.api.cuGetErrorString(rc, &text);
  return makeErrorF(ErrorCode::DriverError, "{0}: {1} ({2})", what, name ? name : "CUDA error",
                    text ? text : "no description");
}

int detectGpuSm() {
  auto api = driver();
  if (!api) {
    llvm::consumeError(api.takeError());
    return 0;
  }
  CUdevice dev;
  int major = 0, minor = 0;
  if (api->cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      api->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) != CUDA_SUCCESS ||
      api->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) != CUDA_SUCCESS)
    return 0;
  return major * 10 + minor;
}

} // namespace scanjit::detail
