// Timing on the device the way the benchmark method asks: CUDA events around
// each run, warm-up first, median of the runs; and the yardstick, a
// device-to-device copy moving the same bytes, timed the same way.
#pragma once

#include "runtime/DriverApi.h"

#include <functional>

namespace scanjit::detail {

struct TimingOptions {
  int warmup = 3;
  int iterations = 20;
};

/// Median milliseconds of `enqueue` (which enqueues work on `stream`).
double medianMillis(const std::function<void()> &enqueue, CUstream stream, const TimingOptions &o);

/// Median milliseconds of copying `bytesEachWay` bytes device to device
/// (reading and writing that many bytes), between buffers allocated for it.
double copyMillis(size_t bytesEachWay, CUstream stream, const TimingOptions &o);

/// The same between the caller's buffers (at least `bytesEachWay` each).
double copyMillis(CUdeviceptr dst, CUdeviceptr src, size_t bytesEachWay, CUstream stream, const TimingOptions &o);

} // namespace scanjit::detail
