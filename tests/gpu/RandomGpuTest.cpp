// The GPU's random inputs (testing/DeviceRandom.h) are the host's, value for
// value, so `scanjit run` and the demo can check lines they regenerate on the
// host.
#include "GpuHarness.h"

#include "testing/DeviceMemory.h"
#include "testing/DeviceRandom.h"

#include <cstring>
#include <vector>

using namespace scanjit;
using namespace scanjit::detail;
using namespace scanjit::gpu_testing;

namespace {

TEST(Random, DeviceInputsAreTheHostsValueForValue) {
  SCANJIT_REQUIRE_GPU();
  const int64_t count = 100003, first = 12345;
  const DType dtypes[] = {DType::F16, DType::BF16, DType::F32, DType::F64, DType::U8,
                          DType::I8,  DType::I16,  DType::I32, DType::I64, DType::Bool};
  for (DType t : dtypes)
    for (ScanOp op : kAllOps) {
      const size_t bytes = size_t(count) * dtypeSize(t);
      RandomOptions o;
      o.seed = 0x5eed + uint64_t(op);
      o.firstIndex = first;
      o.logSumExpSpread = 8;
      std::vector<uint8_t> host(bytes), device(bytes);
      fillRandom(host.data(), t, op, count, o);
      DeviceBuffer d(bytes);
      fillRandomOnDevice(d.get(), t, op, count, o);
      d.download(device.data(), bytes);
      EXPECT_EQ(std::memcmp(host.data(), device.data(), bytes), 0) << dtypeName(t).str() << " " << opName(op).str();
    }
  std::vector<uint8_t> host(count), device(count);
  fillRandomMask(host.data(), count, 99, first);
  DeviceBuffer d(count);
  fillRandomMaskOnDevice(d.get(), count, 99, first);
  d.download(device.data(), count);
  EXPECT_EQ(host, device);
}

} // namespace
