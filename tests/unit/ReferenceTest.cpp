// The CPU reference and the verifier, checked on hand-computed cases: they
// are what the GPU suite trusts.
#include "TestSpecs.h"

#include "testing/HostElements.h"
#include "testing/RandomData.h"
#include "testing/Reference.h"
#include "testing/Verify.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace scanjit;
using namespace scanjit::detail;
using scanjit::testing::mustParse;

namespace {

std::vector<double> refValues(const char *spec, const std::vector<float> &in,
                              const std::vector<uint8_t> &mask = {}, int64_t line = 0) {
  std::vector<double> out;
  for (const ReferenceValue &r : referenceLine(mustParse(spec), in.data(), mask.data(), line))
    out.push_back(r.value);
  return out;
}

TEST(Reference, InclusiveExclusiveReverseAndMask) {
  std::vector<float> x = {1, 2, 3, 4};
  EXPECT_EQ(refValues("sum f32[4] dim=0", x), (std::vector<double>{1, 3, 6, 10}));
  EXPECT_EQ(refValues("sum f32[4] dim=0 exclusive", x), (std::vector<double>{0, 1, 3, 6}));
  EXPECT_EQ(refValues("sum f32[4] dim=0 reverse", x), (std::vector<double>{10, 9, 7, 4}));
  EXPECT_EQ(refValues("sum f32[4] dim=0 reverse exclusive", x), (std::vector<double>{9, 7, 4, 0}));
  EXPECT_EQ(refValues("sum f32[4] dim=0 mask", x, {1, 0, 1, 0}), (std::vector<double>{1, 1, 4, 4}));
  EXPECT_EQ(refValues("prod f32[4] dim=0 exclusive", x), (std::vector<double>{1, 1, 2, 6}));
  EXPECT_EQ(refValues("max f32[4] dim=0 reverse", {3, 1, 4, 1}), (std::vector<double>{4, 4, 4, 1}));
  EXPECT_EQ(refValues("min f32[4] dim=0 exclusive", {3, 1, 4, 1}),
            (std::vector<double>{INFINITY, 3, 1, 1}));
}

std::vector<int64_t> refIndices(const char *spec, const std::vector<float> &in,
                                const std::vector<uint8_t> &mask = {}) {
  std::vector<int64_t> out;
  for (const ReferenceValue &r : referenceLine(mustParse(spec), in.data(), mask.data(), 0))
    out.push_back(r.index);
  return out;
}

TEST(Reference, IndicesFollowTorchsCummax) {
  // Ties take the later index; every NaN takes its own (torch's CPU rule).
  EXPECT_EQ(refIndices("max f32[5] dim=0 indices", {1, 3, 3, 2, 3}), (std::vector<int64_t>{0, 1, 2, 2, 4}));
  EXPECT_EQ(refIndices("min f32[5] dim=0 indices", {2, 1, 1, 3, 0}), (std::vector<int64_t>{0, 1, 2, 2, 4}));
  EXPECT_EQ(refIndices("max f32[4] dim=0 indices", {1, NAN, 2, NAN}), (std::vector<int64_t>{0, 1, 1, 3}));
  // -inf ties the running -inf: the later index.
  EXPECT_EQ(refIndices("max f32[3] dim=0 indices", {-INFINITY, -INFINITY, 0}), (std::vector<int64_t>{0, 1, 2}));
  // Reverse: the scan runs from the end, so ties take the smaller place.
  EXPECT_EQ(refIndices("max f32[4] dim=0 reverse indices", {3, 1, 3, 2}), (std::vector<int64_t>{0, 2, 2, 3}));
  // Exclusive: the index of the result before; -1 before any element.
  EXPECT_EQ(refIndices("max f32[4] dim=0 exclusive indices", {1, 3, 2, 4}), (std::vector<int64_t>{-1, 0, 1, 1}));
  // Masked elements never take the index; -1 until one is kept.
  EXPECT_EQ(refIndices("max f32[4] dim=0 mask indices", {5, 1, 7, 9}, {0, 1, 0, 1}),
            (std::vector<int64_t>{-1, 1, 1, 3}));
  // Without the flag, no index is reported.
  EXPECT_EQ(refIndices("max f32[2] dim=0", {1, 2}), (std::vector<int64_t>{-1, -1}));
}

TEST(Reference, WalksStridesAndLines) {
  // 2x3 stored transposed (column-major): rows are {1,2,3} and {4,5,6}.
  std::vector<float> x = {1, 4, 2, 5, 3, 6};
  EXPECT_EQ(refValues("sum f32[2,3] dim=1 strides=[1,2]", x, {}, 1), (std::vector<double>{4, 9, 15}));
  EXPECT_EQ(refValues("sum f32[2,3] dim=0 strides=[1,2]", x, {}, 2), (std::vector<double>{3, 9}));
}

TEST(Reference, NanIsStickyInMaxAndLogSumExpHandlesInfinities) {
  auto v = refValues("max f32[4] dim=0", {1, NAN, 5, 2});
  EXPECT_EQ(v[0], 1);
  EXPECT_TRUE(std::isnan(v[1]) && std::isnan(v[3]));
  auto l = refValues("logsumexp f32[3] dim=0", {-INFINITY, 0, INFINITY});
  EXPECT_EQ(l[0], -INFINITY);
  EXPECT_EQ(l[1], 0);
  EXPECT_EQ(l[2], INFINITY);
  EXPECT_NEAR(refValues("logsumexp f32[2] dim=0", {0, 0})[1], std::log(2.0), 1e-15);
}

TEST(Reference, IntegerSumsWrapAndConvertToTheOutputType) {
  std::vector<int64_t> big = {INT64_MAX, 1};
  auto r = referenceLine(mustParse("sum i64[2] dim=0"), big.data(), nullptr, 0);
  EXPECT_EQ(r[1].exact, INT64_MIN);
  std::vector<int8_t> bytes = {100, 100};
  auto s = referenceLine(mustParse("sum i8[2] dim=0 out=i8"), bytes.data(), nullptr, 0);
  EXPECT_EQ(s[1].exact, int8_t(200));
  std::vector<uint8_t> u = {7, 200};
  auto m = referenceLine(mustParse("max u8[2] dim=0 exclusive"), u.data(), nullptr, 0);
  EXPECT_EQ(m[0].exact, 0) << "the exclusive max of u8 starts at u8's lowest";
}

TEST(HostElements, HalfAndBf16Conversions) {
  EXPECT_EQ(doubleToHalfBits(1.0), 0x3c00);
  EXPECT_EQ(doubleToHalfBits(-2.0), 0xc000);
  EXPECT_EQ(doubleToHalfBits(65504.0), 0x7bff);
  EXPECT_EQ(doubleToHalfBits(1e6), 0x7c00);
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(doubleToHalfBits(1.0 + std::ldexp(1.0, -11)), 0x3c00) << "ties to even";
  EXPECT_EQ(doubleToHalfBits(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02) << "ties to even";
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double v = halfBitsToDouble(uint16_t(bits));
    if (!std::isnan(v)) {
      ASSERT_EQ(doubleToHalfBits(v), bits) << std::hex << bits;
    }
  }
  EXPECT_EQ(bf16BitsToDouble(0x3f80), 1.0);
  EXPECT_EQ(doubleToBf16Bits(1.0), 0x3f80);
  EXPECT_EQ(doubleToBf16Bits(-0.5), 0xbf00);
}

TEST(RandomData, ValuesAreExactInTheirDtype) {
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    std::vector<uint8_t> buf(1000 * 4);
    for (ScanOp op : {ScanOp::Sum, ScanOp::Prod, ScanOp::LogSumExp}) {
      fillRandom(buf.data(), t, op, 1000, {7, 0});
      for (int i = 0; i < 1000; ++i) {
        double v = loadAsDouble(buf.data(), t, i);
        std::vector<uint8_t> again(8);
        storeDouble(again.data(), t, 0, v);
        ASSERT_EQ(loadAsDouble(again.data(), t, 0), v);
        ASSERT_TRUE(std::isfinite(v));
      }
    }
  }
}

// Runs of -Inf (log-sum-exp's identity) come whole: every element of a run
// or none, about a quarter of the runs, the same split or not.
TEST(RandomData, NegativeInfinityRunsComeWhole) {
  const int64_t count = 40000, run = 40;
  RandomOptions o{11, 0};
  o.negativeInfinityRuns = run;
  std::vector<double> all(count);
  fillRandom(all.data(), DType::F64, ScanOp::LogSumExp, count, o);
  int64_t infiniteRuns = 0;
  for (int64_t r = 0; r < count / run; ++r) {
    int64_t infinite = 0;
    for (int64_t i = r * run; i < (r + 1) * run; ++i)
      infinite += all[i] == -INFINITY;
    ASSERT_TRUE(infinite == 0 || infinite == run) << "run " << r;
    infiniteRuns += infinite == run;
  }
  EXPECT_GT(infiniteRuns, count / run / 8);
  EXPECT_LT(infiniteRuns, count / run / 2);
  std::vector<double> split(count);
  fillRandomParallel(split.data(), DType::F64, ScanOp::LogSumExp, count, o);
  EXPECT_EQ(std::memcmp(all.data(), split.data(), count * sizeof(double)), 0);
}

TEST(Verify, AcceptsTheReferenceAndRejectsAnUnwrittenOrWrongElement) {
  ScanSpec s = mustParse("sum f32[3,1000] dim=1 mask");
  std::vector<float> in(3000), out(3000);
  std::vector<uint8_t> mask(3000);
  fillRandom(in.data(), DType::F32, ScanOp::Sum, 3000, {11, 0});
  fillRandomMask(mask.data(), 3000, 11);
  for (int64_t line = 0; line < 3; ++line) {
    auto ref = referenceLine(s, in.data(), mask.data(), line);
    for (int i = 0; i < 1000; ++i)
      out[line * 1000 + i] = float(ref[i].value);
  }
  const int64_t lines[] = {0, 1, 2};
  EXPECT_TRUE(verifyLines(s, in.data(), mask.data(), out.data(), lines).ok());
  out[1500] = NAN; // a poisoned, unwritten element
  VerifyReport bad = verifyLines(s, in.data(), mask.data(), out.data(), lines);
  EXPECT_EQ(bad.mismatches, 1);
  EXPECT_NE(bad.firstMismatch.find("line 1 position 500"), std::string::npos) << bad.firstMismatch;
  out[1500] = out[1499] + 0.01f; // off by far more than rounding
  EXPECT_EQ(verifyLines(s, in.data(), mask.data(), out.data(), lines).mismatches,
            1);
}

TEST(Verify, ManyLinesCheckedInSlicesReportAsOne) {
  // Two million elements: checked in slices of lines on all cores, whose
  // reports merge into the one a single pass over the lines gives, the first
  // mismatch being the first in the lines' order.
  ScanSpec s = mustParse("sum f32[2048,1024] dim=1");
  const int64_t rows = 2048, length = 1024;
  std::vector<float> in(rows * length), out(rows * length);
  fillRandom(in.data(), DType::F32, ScanOp::Sum, rows * length, {5, 0});
  std::vector<int64_t> lines;
  for (int64_t line = 0; line < rows; ++line) {
    auto ref = referenceLine(s, in.data(), nullptr, line);
    for (int64_t i = 0; i < length; ++i)
      out[line * length + i] = float(ref[i].value);
    lines.push_back(line);
  }
  out[1900 * length + 7] += 1.0f;
  out[300 * length + 1000] = NAN;
  out[300 * length + 1001] += 1.0f;
  const VerifyReport all = verifyLines(s, in.data(), nullptr, out.data(), lines);
  EXPECT_EQ(all.checked, rows * length);
  EXPECT_EQ(all.mismatches, 3);
  EXPECT_NE(all.firstMismatch.find("line 300 position 1000"), std::string::npos) << all.firstMismatch;
  VerifyReport single;
  for (int64_t line : lines) {
    const VerifyReport one = verifyLines(s, in.data(), nullptr, out.data(), llvm::ArrayRef<int64_t>(line));
    single.checked += one.checked;
    single.mismatches += one.mismatches;
    single.maxError = std::max(single.maxError, one.maxError);
    single.maxErrorRatio = std::max(single.maxErrorRatio, one.maxErrorRatio);
  }
  EXPECT_EQ(all.checked, single.checked);
  EXPECT_EQ(all.mismatches, single.mismatches);
  EXPECT_EQ(all.maxError, single.maxError);
  EXPECT_EQ(all.maxErrorRatio, single.maxErrorRatio);
  EXPECT_GE(all.maxError, 1.0); // the two elements off by 1
  const int64_t reversed[] = {1900, 300};
  EXPECT_NE(verifyLines(s, in.data(), nullptr, out.data(), reversed).firstMismatch.find("line 1900 position 7"),
            std::string::npos);
}

TEST(Verify, AResultBeyondTheOutputsRangeIsItsInfinity) {
  // A product of f16 runs in f32 and rounds to f16 at the end: 2^15 * 3 =
  // 98304 is past f16's largest (65504), so f16 holds it as +inf, and only
  // +inf; 2^15 * 1.5 = 49152 stays finite.
  ScanSpec s = mustParse("prod f16[3] dim=0");
  std::vector<uint16_t> in(3), out(3);
  storeDouble(in.data(), DType::F16, 0, 32768);
  storeDouble(in.data(), DType::F16, 1, 1.5);
  storeDouble(in.data(), DType::F16, 2, 2);
  storeDouble(out.data(), DType::F16, 0, 32768);
  storeDouble(out.data(), DType::F16, 1, 49152);
  storeDouble(out.data(), DType::F16, 2, INFINITY);
  const int64_t lines[] = {0};
  EXPECT_TRUE(verifyLines(s, in.data(), nullptr, out.data(), lines).ok());
  storeDouble(out.data(), DType::F16, 2, -INFINITY); // the wrong sign
  EXPECT_EQ(verifyLines(s, in.data(), nullptr, out.data(), lines).mismatches, 1);
  storeDouble(out.data(), DType::F16, 2, 65504); // finite, far from 98304
  EXPECT_EQ(verifyLines(s, in.data(), nullptr, out.data(), lines).mismatches, 1);
  storeDouble(out.data(), DType::F16, 2, INFINITY);
  storeDouble(out.data(), DType::F16, 1, INFINITY); // 49152 is within f16's range
  EXPECT_EQ(verifyLines(s, in.data(), nullptr, out.data(), lines).mismatches, 1);
}

TEST(Verify, ToleranceFollowsTheDocumentedBounds) {
  ScanSpec s = mustParse("sum f32[1280] dim=0");
  ReferenceValue r;
  r.value = 3;
  r.scale = 100; // sum of |x|
  double want = (64 + 1280 / 128.0) * std::ldexp(1.0, -24) * 100 + std::ldexp(1.0, -24) * 3 +
                std::ldexp(1.0, -149);
  EXPECT_DOUBLE_EQ(tolerance(s, r), want);
  EXPECT_EQ(tolerance(mustParse("max f32[8] dim=0"), r), 0);
  EXPECT_EQ(tolerance(mustParse("sum i32[8] dim=0"), r), 0);
}

TEST(Verify, StrayOutputBytesBeforeTheTensorAndInItsGaps) {
  // f32[2,3] with rows 4 elements apart, placed 2 elements in: elements 0-1
  // lie before it, and each row's 4th element is a gap (the last row ends
  // the buffer, so 2 + 4 + 3 elements).
  const ScanSpec s = mustParse("sum f32[2,3] dim=1 out_strides=[4,1]");
  std::vector<uint8_t> buffer(9 * 4, 0xff);
  auto wrote = [&](int element) { buffer[size_t(element) * 4 + 1] = 0; };
  for (int e : {2, 3, 4, 6, 7, 8}) // every element of the tensor: no stray byte
    wrote(e);
  EXPECT_EQ(firstStrayOutputByte(s, buffer, 2, 0xff), -1);
  wrote(5); // the gap after row 0
  EXPECT_EQ(firstStrayOutputByte(s, buffer, 2, 0xff), 5 * 4 + 1);
  buffer[5 * 4 + 1] = 0xff;
  wrote(1); // the element before the tensor
  EXPECT_EQ(firstStrayOutputByte(s, buffer, 2, 0xff), 1 * 4 + 1);
  EXPECT_EQ(firstStrayOutputByte(s, buffer, 2, 0x5a), 0); // another poison: the first byte already differs
  // Contiguous, no offset: nothing lies outside.
  const ScanSpec flat = mustParse("sum u8[6] dim=0");
  const std::vector<uint8_t> elements = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(firstStrayOutputByte(flat, elements, 0, 0xff), -1);
}

} // namespace
