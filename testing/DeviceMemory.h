// Small RAII helpers over the driver for scanjit's own tools and tests
// (the CLI's `run`, the GPU tests, the benchmark): device buffers, events,
// copies. Errors throw scanjit::Error.
#pragma once

#include "runtime/DriverApi.h"

#include <cstdint>
#include <string>

namespace scanjit::detail {

/// Throws scanjit::Error for a failed driver call.
void checkCu(CUresult rc, const char *what);

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  CUdeviceptr get() const { return ptr_; }
  size_t size() const { return bytes_; }
  void *at(size_t byteOffset) const { return reinterpret_cast<void *>(ptr_ + byteOffset); }
  void upload(const void *host, size_t bytes, size_t byteOffset = 0);
  void download(void *host, size_t bytes, size_t byteOffset = 0) const;
  void fill(uint8_t byte, CUstream stream = nullptr);

private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

/// Milliseconds of `fn` (enqueued on `stream`), timed with CUDA events.
class EventTimer {
public:
  EventTimer();
  ~EventTimer();
  void start(CUstream stream);
  float stopMillis(CUstream stream); // synchronizes

private:
  CUevent begin_ = nullptr, end_ = nullptr;
};

/// Name of device 0 (e.g. "NVIDIA H200").
std::string deviceName();

} // namespace scanjit::detail
