#include "runtime/PointerCheck.h"

#include "runtime/DriverApi.h"
#include "runtime/Errors.h"

#include "llvm/Support/FormatVariadic.h"

#include <mutex>

namespace scanjit::detail {
namespace {

[[noreturn]] void refuse(const std::string &message) { throw Error(ErrorCode::InvalidArgument, message); }

// Whether the GPU of `ctx` reads pageable host memory (HMM, ATS): asked
// once per context.
bool readsPageableMemory(const DriverApi &api, CUcontext ctx) {
  static std::mutex lock;
  static llvm::SmallVector<std::pair<CUcontext, bool>, 2> known;
  std::lock_guard<std::mutex> guard(lock);
  for (const auto &[c, reads] : known)
    if (c == ctx)
      return reads;
  CUdevice device = 0;
  int reads = 0;
  if (api.cuCtxGetDevice(&device) != CUDA_SUCCESS ||
      api.cuDeviceGetAttribute(&reads, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, device) != CUDA_SUCCESS)
    reads = 0;
  known.push_back({ctx, reads != 0});
  return reads != 0;
}

} // namespace

uint64_t tensorSpanBytes(const ScanSpec &spec, const Dims &strides, DType dtype) {
  uint64_t lastElement = 0;
  for (size_t i = 0; i < spec.shape.size(); ++i) {
    if (spec.shape[i] == 0)
      return 0;
    if (strides[i] < 0)
      return 0;
    lastElement += uint64_t(spec.shape[i] - 1) * uint64_t(strides[i]);
  }
  return (lastElement + 1) * uint64_t(dtypeSize(dtype));
}

void checkDeviceAccessible(CUcontext ctx, const void *p, uint64_t bytes, const char *name, const ScanSpec &spec) {
  const DriverApi &api = *driver();
  unsigned memoryType = 0, isManaged = 0;
  CUdeviceptr rangeStart = 0;
  size_t rangeSize = 0;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                      CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE};
  void *values[] = {&memoryType, &isManaged, &rangeStart, &rangeSize};
  // (Unlike cuPointerGetAttribute, an unknown pointer is no error here: its
  // memory type reads 0.)
  if (CUresult rc = api.cuPointerGetAttributes(4, attributes, values, reinterpret_cast<CUdeviceptr>(p));
      rc != CUDA_SUCCESS)
    throwError(driverError(rc, llvm::formatv("cuPointerGetAttributes({0}, the {1} pointer)", p, name).str()));
  if (isManaged || memoryType == CU_MEMORYTYPE_HOST)
    return;
  if (memoryType != CU_MEMORYTYPE_DEVICE) {
    if (readsPageableMemory(api, ctx))
      return;
    refuse(llvm::formatv("{0} pointer {1} is not memory the GPU can access in the current context "
                                  "(pageable host memory, a freed allocation, or another process's pointer); "
                                  "pass device, managed or pinned host memory ({2})",
                                  name, p, spec.toString()));
  }
  const uint64_t offset = reinterpret_cast<uintptr_t>(p) - rangeStart;
  if (rangeSize > 0 && offset + bytes > rangeSize)
    refuse(llvm::formatv("{0} needs {1} bytes from {2}, but its allocation ends {3} bytes after it ({4})",
                                  name, bytes, p, rangeSize - offset, spec.toString()));
}

} // namespace scanjit::detail
