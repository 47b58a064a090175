// Every op x dtype x flag combination on each kernel family, on the GPU.
#include "GpuHarness.h"

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

const char *kFamilyShapes[] = {
    "[64,3000] dim=1",              // row
    "[100,37] dim=1",               // row_segmented: padded warp rows (2-byte sums: chunks)
    "[8000,48] dim=1",              // row_segmented: warp rows of 12 items (2-byte sums: chunks, rows straddling tiles)
    "[3001,32] dim=1",              // row_segmented, rows that tile a warp (warp_rows)
    "[3,40000] dim=1",              // row_lookback
    "[37,64] dim=0",                // column
    "[40,50] dim=1 strides=[1,40]", // strided
    "[400,64] dim=0",               // column cut into pieces along the scan
};

std::vector<std::string> specsFor(const char *shape) {
  std::vector<std::string> specs;
  for (ScanOp op : {ScanOp::Sum, ScanOp::Prod, ScanOp::Max, ScanOp::Min, ScanOp::LogSumExp})
    for (DType t : kAllDTypes) {
      if (op == ScanOp::LogSumExp && !isFloating(t))
        continue;
      for (int flags = 0; flags < 8; ++flags) {
        std::string s = opName(op).str() + " " + dtypeName(t).str() + shape;
        if (flags & 1) s += " mask";
        if (flags & 2) s += " reverse";
        if (flags & 4) s += " exclusive";
        specs.push_back(s);
      }
    }
  return specs;
}

class FlagMatrix : public ::testing::TestWithParam<const char *> {};

TEST_P(FlagMatrix, EveryOpDtypeAndFlagMatchesTheReference) {
  SCANJIT_REQUIRE_GPU();
  std::vector<std::string> specs = specsFor(GetParam());
  expectCasesPass(specs);
}

INSTANTIATE_TEST_SUITE_P(Families, FlagMatrix, ::testing::ValuesIn(kFamilyShapes));

TEST(FlagMatrix, OutputTypeOverrides) {
  SCANJIT_REQUIRE_GPU();
  for (const char *s : {"sum i32[64,3000] dim=1 out=f32", "sum u8[37,64] dim=0 out=i16",
                        "sum f16[100,37] dim=1 out=f64", "prod bf16[64,3000] dim=1 out=f32 reverse",
                        "max i64[40,50] dim=1 strides=[1,40] out=i8", "sum bool[64,3000] dim=1 out=i32",
                        "sum f64[100,37] dim=1 out=f32 exclusive", "min f32[37,64] dim=0 out=f16 mask"})
    expectCasePasses(s);
}

} // namespace
