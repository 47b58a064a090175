#include "testing/DeviceMemory.h"
#include "runtime/Context.h"
#include "runtime/Errors.h"

#include <utility>

namespace scanjit::detail {

static const DriverApi &api() {
  static const DriverApi &d = unwrap(driver());
  return d;
}

void checkCu(CUresult rc, const char *what) {
  if (rc != CUDA_SUCCESS)
    throwError(driverError(rc, what));
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  unwrap(currentContextHandle());
  if (bytes)
    checkCu(api().cuMemAlloc(&ptr_, bytes), "cuMemAlloc");
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_)
    api().cuMemFree(ptr_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : ptr_(std::exchange(o.ptr_, 0)), bytes_(std::exchange(o.bytes_, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  std::swap(ptr_, o.ptr_);
  std::swap(bytes_, o.bytes_);
  return *this;
}

void DeviceBuffer::upload(const void *host, size_t bytes, size_t off) {
  if (bytes)
    checkCu(api().cuMemcpyHtoD(ptr_ + off, host, bytes), "cuMemcpyHtoD");
}

void DeviceBuffer::download(void *host, size_t bytes, size_t off) const {
  if (bytes)
    checkCu(api().cuMemcpyDtoH(host, ptr_ + off, bytes), "cuMemcpyDtoH");
}

void DeviceBuffer::fill(uint8_t byte, CUstream stream) {
  if (bytes_)
    checkCu(api().cuMemsetD8Async(ptr_, byte, bytes_, stream), "cuMemsetD8Async");
}

EventTimer::EventTimer() {
  unwrap(currentContextHandle());
  checkCu(api().cuEventCreate(&begin_, CU_EVENT_DEFAULT), "cuEventCreate");
  checkCu(api().cuEventCreate(&end_, CU_EVENT_DEFAULT), "cuEventCreate");
}

EventTimer::~EventTimer() {
  api().cuEventDestroy(begin_);
  api().cuEventDestroy(end_);
}

void EventTimer::start(CUstream stream) { checkCu(api().cuEventRecord(begin_, stream), "cuEventRecord"); }

float EventTimer::stopMillis(CUstream stream) {
  checkCu(api().cuEventRecord(end_, stream), "cuEventRecord");
  checkCu(api().cuEventSynchronize(end_), "cuEventSynchronize");
  float ms = 0;
  checkCu(api().cuEventElapsedTime(&ms, begin_, end_), "cuEventElapsedTime");
  return ms;
}

std::string deviceName() {
  const DriverApi &d = api();
  CUdevice dev;
  checkCu(d.cuDeviceGet(&dev, 0), "cuDeviceGet");
  char name[256] = {};
  checkCu(d.cuDeviceGetName(name, sizeof(name), dev), "cuDeviceGetName");
  return name;
}

} // namespace scanjit::detail
