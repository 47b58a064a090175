// Random inputs generated on the GPU by a kernel JIT-compiled through the
// same compiler and caches as the scans (templates/scanjit/random_fill.cuh),
// value for value those of fillRandom / fillRandomMask: the host regenerates
// only the lines it checks. `scanjit run` and the demo fill their 1G-element
// tensors this way instead of on the host.
#pragma once

#include "testing/RandomData.h"
#include "runtime/DriverApi.h"

namespace scanjit::detail {

/// Fills `count` elements of `dtype` at `data` as fillRandom(data, dtype,
/// op, count, options) would (options.specialFraction must be 0), enqueued
/// on `stream`. Throws scanjit::Error.
void fillRandomOnDevice(CUdeviceptr data, DType dtype, ScanOp op, int64_t count, const RandomOptions &options,
                        CUstream stream = nullptr);

/// Fills `count` mask bytes as fillRandomMask(mask, count, seed, firstIndex).
void fillRandomMaskOnDevice(CUdeviceptr mask, int64_t count, uint64_t seed, int64_t firstIndex = 0,
                            CUstream stream = nullptr);

} // namespace scanjit::detail
