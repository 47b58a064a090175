#include "runtime/Context.h"
#include "compiler/Diagnostics.h"

#include <mutex>

namespace scanjit::detail {

llvm::Expected<CUcontext> currentContextHandle() {
  auto api = driver();
  if (!api)
    return api.takeError();
  CUcontext ctx = nullptr;
  if (CUresult rc = api->cuCtxGetCurrent(&ctx); rc != CUDA_SUCCESS)
    return driverError(rc, "cuCtxGetCurrent");
  if (ctx)
    return ctx;
  // No context: use device 0's primary context, retained for the process.
  static std::mutex lock;
  static CUcontext primary = nullptr;
  std::lock_guard<std::mutex> guard(lock);
  if (!primary) {
    CUdevice dev;
    if (CUresult rc = api->cuDeviceGet(&dev, 0); rc != CUDA_SUCCESS)
      return driverError(rc, "cuDeviceGet(0)");
    if (CUresult rc = api->cuDevicePrimaryCtxRetain(&primary, dev); rc != CUDA_SUCCESS)
      return driverError(rc, "cuDevicePrimaryCtxRetain");
  }
  if (CUresult rc = api->cuCtxSetCurrent(primary); rc != CUDA_SUCCESS)
    return driverError(rc, "cuCtxSetCurrent");
  return primary;
}

llvm::Expected<ContextInfo> currentContext() {
  auto ctx = currentContextHandle();
  if (!ctx)
    return ctx.takeError();
  const DriverApi &api = *driver();
  // The device and arch of this thread's last context, by the context's
  // process-unique ID (a handle may come back for another context): one
  // driver call per scan() instead of three.
  thread_local unsigned long long lastId = 0;
  thread_local ContextInfo last;
  unsigned long long id = 0;
  if (CUresult rc = api.cuCtxGetId(*ctx, &id); rc != CUDA_SUCCESS)
    return driverError(rc, "cuCtxGetId");
  if (id == lastId && last.context == *ctx)
    return last;
  ContextInfo info;
  info.context = *ctx;
  if (CUresult rc = api.cuCtxGetDevice(&info.device); rc != CUDA_SUCCESS)
    return driverError(rc, "cuCtxGetDevice");
  int major = 0, minor = 0;
  if (CUresult rc = api.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                             info.device);
      rc != CUDA_SUCCESS)
    return driverError(rc, "cuDeviceGetAttribute(compute capability)");
  api.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, info.device);
  info.sm = major * 10 + minor;
  lastId = id;
  last = info;
  return info;
}

} // namespace scanjit::detail
