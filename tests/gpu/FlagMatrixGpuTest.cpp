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

// Sums and products of integers of at most 4 bytes into integers of at
// most 4 bytes accumulate in i32 (accumulatorType): full-range random
// i16/i32 inputs wrap it at once, and every result must still match the i64
// reference's low bits exactly, in each family, off the grid and on it
// (i64 inputs, which keep i64, truncated into i32 beside them).
TEST(FlagMatrix, WrappingScansIntoNarrowIntegers) {
  SCANJIT_REQUIRE_GPU();
  expectCasesPass({"sum i32[4194304] dim=0 out=i32", "sum i32[3000003] dim=0 out=i32",
                   "sum u8[1000003] dim=0 out=u8 reverse", "sum u8[4096,8192] dim=1 out=u8",
                   "sum i16[2000,4097] dim=1 out=i16 mask", "prod i32[64,30001] dim=1 out=i32 reverse exclusive",
                   "sum i32[30000,333] dim=1 out=i32 exclusive", "sum u8[100000,13] dim=1 out=i8",
                   "sum i32[3001,1001] dim=0 out=i32 mask", "sum i16[500001,8] dim=0 out=i32",
                   "sum u8[1000001,4] dim=0 out=u8 reverse", "sum i64[2000003] dim=0 out=i32",
                   "sum bool[4000001] dim=0 out=i16", "prod i16[3,500001] dim=1 out=i16 mask"},
                  {offsets(1, 1, 1), offsets(3, 0, 2)});
}

} // namespace
