#include "TestSpecs.h"

using namespace scanjit;
using scanjit::testing::mustParse;

TEST(SpecParse, ReadsEveryField) {
  ScanSpec s = mustParse("sum f32[32768,32768] dim=1 mask reverse");
  EXPECT_EQ(s.op, ScanOp::Sum);
  EXPECT_EQ(s.in, DType::F32);
  EXPECT_EQ(s.out, DType::F32);
  EXPECT_EQ(s.shape, (Dims{32768, 32768}));
  EXPECT_EQ(s.dim, 1);
  EXPECT_EQ(s.inStrides, (Dims{32768, 1}));
  EXPECT_EQ(s.outStrides, (Dims{32768, 1}));
  EXPECT_EQ(s.maskStrides, (Dims{32768, 1}));
  EXPECT_TRUE(s.mask);
  EXPECT_TRUE(s.reverse);
  EXPECT_FALSE(s.exclusive);
}

TEST(SpecParse, DefaultOutputTypesFollowTorch) {
  EXPECT_EQ(mustParse("sum i32[4] dim=0").out, DType::I64);
  EXPECT_EQ(mustParse("prod bool[4] dim=0").out, DType::I64);
  EXPECT_EQ(mustParse("max i32[4] dim=0").out, DType::I32);
  EXPECT_EQ(mustParse("min bool[4] dim=0").out, DType::Bool);
  EXPECT_EQ(mustParse("sum bf16[4] dim=0").out, DType::BF16);
  EXPECT_EQ(mustParse("logsumexp f64[4] dim=0").out, DType::F64);
  EXPECT_EQ(mustParse("sum i8[4] dim=0 out=i32").out, DType::I32);
}

TEST(SpecParse, IndicesRoundTripAndNameTheirKernel) {
  const ScanSpec s = mustParse("max f16[8,100] dim=1 indices exclusive reverse");
  EXPECT_TRUE(s.indices);
  EXPECT_EQ(s.toString(), "max f16[8,100] dim=1 reverse exclusive indices");
  EXPECT_EQ(mustParse(s.toString()), s);
  EXPECT_FALSE(mustParse("max f16[8,100] dim=1") == s);
}

TEST(SpecParse, NegativeDimIsNormalized) {
  EXPECT_EQ(mustParse("sum f32[2,3,4] dim=-1").dim, 2);
  EXPECT_EQ(mustParse("sum f32[2,3,4] dim=-3").dim, 0);
  EXPECT_EQ(mustParse("sum f32[] dim=-1").dim, 0);
  EXPECT_EQ(mustParse("sum f32[2,3,4] dim=-1").toString(), "sum f32[2,3,4] dim=2");
}

TEST(SpecParse, FlagsInAnyOrderPrintCanonically) {
  EXPECT_EQ(mustParse("sum f32[8] exclusive reverse mask dim=0").toString(),
            "sum f32[8] dim=0 mask reverse exclusive");
  EXPECT_EQ(mustParse("  sum   f32[8]   dim=0  ").toString(), "sum f32[8] dim=0");
}

TEST(SpecParse, DefaultsAreOmittedFromTheCanonicalText) {
  EXPECT_EQ(mustParse("sum f32[2,3] dim=1 strides=[3,1] out=f32 out_strides=[3,1]").toString(),
            "sum f32[2,3] dim=1");
  EXPECT_EQ(mustParse("sum i32[2,3] dim=1 out=i64").toString(), "sum i32[2,3] dim=1");
}

TEST(SpecParse, RoundTripsEverySpecShape) {
  const char *texts[] = {
      "sum f32[32768,32768] dim=1 mask reverse",
      "sum f32[] dim=0",
      "prod i64[0] dim=0",
      "max f16[3,0,5] dim=2 exclusive",
      "min bool[7,1,9] dim=1 mask mask_strides=[0,9,1]",
      "logsumexp bf16[4,5] dim=0 strides=[1,4] out=f32 out_strides=[1,4] reverse exclusive",
      "sum u8[2,3,4,5,6,7,8,9] dim=7 out=f64",
      "sum i16[10,20] dim=1 strides=[40,2] mask mask_strides=[1,10]",
  };
  for (const char *text : texts) {
    ScanSpec first = mustParse(text);
    EXPECT_EQ(first.toString(), text) << "not canonical: " << text;
    ScanSpec second = mustParse(first.toString());
    EXPECT_EQ(first, second) << text;
  }
}

TEST(SpecParse, RoundTripsEveryOpDtypeAndFlag) {
  for (ScanOp op : kAllOps)
    for (DType t : kAllDTypes)
      for (int flags = 0; flags < 8; ++flags) {
        if (op == ScanOp::LogSumExp && !isFloating(t))
          continue;
        ScanSpec s;
        s.op = op;
        s.in = t;
        s.out = defaultOutputType(op, t);
        s.shape = {3, 5};
        s.dim = 1;
        s.mask = flags & 1;
        s.reverse = flags & 2;
        s.exclusive = flags & 4;
        ASSERT_FALSE(bool(validateSpec(s)));
        EXPECT_EQ(mustParse(s.toString()), s) << s.toString();
      }
}

TEST(SpecParse, ValidateFillsStridesForSpecsBuiltInCode) {
  ScanSpec s;
  s.shape = {4, 6};
  s.dim = -2;
  s.mask = true;
  ASSERT_FALSE(bool(validateSpec(s)));
  EXPECT_EQ(s.dim, 0);
  EXPECT_EQ(s.inStrides, (Dims{6, 1}));
  EXPECT_EQ(s.maskStrides, (Dims{6, 1}));
}

TEST(SpecText, ListTextIsTheSpecSyntaxForDims) {
  EXPECT_EQ(listText({}), "[]");
  EXPECT_EQ(listText({7}), "[7]");
  EXPECT_EQ(listText({4, 1, -8}), "[4,1,-8]");
}
