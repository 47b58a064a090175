#include "testing/Timing.h"
#include "testing/DeviceMemory.h"

#include <algorithm>
#include <vector>

namespace scanjit::detail {

double medianMillis(const std::function<void()> &enqueue, CUstream stream, const TimingOptions &o) {
  for (int i = 0; i < o.warmup; ++i)
    enqueue();
  EventTimer timer;
  std::vector<float> ms;
  for (int i = 0; i < std::max(1, o.iterations); ++i) {
    timer.start(stream);
    enqueue();
    ms.push_back(timer.stopMillis(stream));
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

double copyMillis(size_t bytes, CUstream stream, const TimingOptions &o) {
  DeviceBuffer src(bytes), dst(bytes);
  src.fill(0x3c, stream);
  return copyMillis(dst.get(), src.get(), bytes, stream, o);
}

double copyMillis(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream, const TimingOptions &o) {
  const DriverApi &api = *driver();
  return medianMillis([&] { checkCu(api.cuMemcpyDtoDAsync(dst, src, bytes, stream), "cuMemcpyDtoDAsync"); },
                      stream, o);
}

} // namespace scanjit::detail
