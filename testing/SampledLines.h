// Host copies of the lines a check reads, of tensors that live on the GPU:
// the input and mask regenerated from the seed they were drawn with on the
// GPU (DeviceRandom.h), the output downloaded line by line. The arrays span
// the tensors' extents but only the lines' elements are written, so only
// their pages are touched: checking 64 lines of a 1G-element tensor costs
// 64 lines, not 4 GB.
#pragma once

#include "compiler/ScanSpec.h"
#include "runtime/DriverApi.h"

#include <cstdint>
#include <memory>

namespace scanjit::detail {

struct SampledLines {
  std::unique_ptr<uint8_t[]> in, out, mask;

  /// `spec`'s `lines`: input and mask as fillRandomOnDevice /
  /// fillRandomMaskOnDevice drew them with `seed` (element i of a tensor is
  /// index i from its first element), the output read from `out`.
  SampledLines(const ScanSpec &spec, llvm::ArrayRef<int64_t> lines, uint64_t seed, CUdeviceptr out);
};

} // namespace scanjit::detail
