// NaN and +-Inf through max, min and logsumexp (and sums, where they spread).
#include "GpuHarness.h"

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

TEST(SpecialValues, NanAndInfinitiesPropagateLikeTorch) {
  SCANJIT_REQUIRE_GPU();
  CaseOptions specials;
  specials.specialFraction = 0.02;
  for (const char *op : {"max", "min", "logsumexp", "sum"})
    for (const char *t : {"f16", "bf16", "f32", "f64"})
      for (const char *shape : {"[64,3000] dim=1", "[100,37] dim=1", "[37,64] dim=0",
                                "[40,50] dim=1 strides=[1,40]"})
        for (const char *flags : {"", " reverse", " exclusive mask"})
          expectCasePasses(std::string(op) + " " + t + shape + flags, specials);
}

} // namespace
