#include "testing/SampledLines.h"

#include "testing/DeviceMemory.h"
#include "testing/HostElements.h"
#include "testing/RandomData.h"
#include "testing/Reference.h"

namespace scanjit::detail {

SampledLines::SampledLines(const ScanSpec &spec, llvm::ArrayRef<int64_t> lines, uint64_t seed, CUdeviceptr dOut) {
  const int inSize = dtypeSize(spec.in), outSize = dtypeSize(spec.out);
  // (new[] of bytes leaves the pages untouched until written.)
  in.reset(new uint8_t[size_t(extentElements(spec.shape, spec.inStrides)) * inSize]);
  out.reset(new uint8_t[size_t(extentElements(spec.shape, spec.outStrides)) * outSize]);
  if (spec.mask)
    mask.reset(new uint8_t[size_t(extentElements(spec.shape, spec.maskStrides))]);
  const int64_t L = spec.scanLength();
  const bool rank0 = spec.rank() == 0;
  const int64_t sIn = rank0 ? 1 : spec.inStrides[spec.dim], sOut = rank0 ? 1 : spec.outStrides[spec.dim];
  const int64_t sMask = spec.mask && !rank0 ? spec.maskStrides[spec.dim] : 1;
  const DriverApi &api = *driver();
  for (int64_t line : lines) {
    const LineOffsets o = lineOffsets(spec, line);
    for (int64_t k = 0; k < L; ++k) {
      const int64_t at = o.in + k * sIn;
      fillRandom(in.get() + at * inSize, spec.in, spec.op, 1, {seed, 0, at});
      if (spec.mask)
        fillRandomMask(mask.get() + o.mask + k * sMask, 1, seed, o.mask + k * sMask);
    }
    // The line's elements, a stride apart, in one 2-D copy.
    CUDA_MEMCPY2D copy = {};
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = dOut + CUdeviceptr(o.out * outSize);
    copy.srcPitch = size_t(sOut * outSize);
    copy.dstMemoryType = CU_MEMORYTYPE_HOST;
    copy.dstHost = out.get() + o.out * outSize;
    copy.dstPitch = size_t(sOut * outSize);
    copy.WidthInBytes = size_t(outSize);
    copy.Height = size_t(L);
    if (sOut == 1) { // (contiguous: one run)
      copy.WidthInBytes = size_t(L * outSize);
      copy.Height = 1;
      copy.srcPitch = copy.dstPitch = copy.WidthInBytes;
    }
    checkCu(api.cuMemcpy2D(&copy), "cuMemcpy2D (a checked line of the output)");
  }
}

} // namespace scanjit::detail
