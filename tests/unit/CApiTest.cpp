// The C API's calls that need no GPU: spec text from layouts, inspection,
// precompile into a folder, stats, the version, and the errors of each.
#include "scanjit/scanjit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <string>

TEST(CApiNoGpu, SpecForFromLayouts) {
  const int64_t sizes[] = {100, 200}, strides[] = {1, 100}, contiguous[] = {200, 1};
  scanjit_tensor in{SCANJIT_F32, 2, sizes, strides}, out{SCANJIT_F32, 2, sizes, contiguous};
  char text[128];
  size_t length = 0;
  ASSERT_EQ(scanjit_spec_for(SCANJIT_SUM, &out, &in, 1, nullptr, SCANJIT_REVERSE, text, sizeof text, &length),
            SCANJIT_OK);
  EXPECT_STREQ(text, "sum f32[100,200] dim=1 strides=[1,100] reverse");
  EXPECT_EQ(length, std::string(text).size());
  // Too small a buffer: the length still comes back, the buffer holds "".
  char small[8] = "xxxxxxx";
  ASSERT_EQ(scanjit_spec_for(SCANJIT_SUM, &out, &in, 1, nullptr, 0, small, sizeof small, &length), SCANJIT_OK);
  EXPECT_STREQ(small, "");
  EXPECT_EQ(length, std::string("sum f32[100,200] dim=1 strides=[1,100]").size());
  const int64_t maskStrides[] = {200, 1};
  scanjit_tensor mask{SCANJIT_BOOL, 2, sizes, maskStrides};
  scanjit_tensor ints{SCANJIT_I32, 2, sizes, contiguous}, longs{SCANJIT_I64, 2, sizes, contiguous};
  ASSERT_EQ(scanjit_spec_for(SCANJIT_MAX, &longs, &ints, 0, &mask, SCANJIT_EXCLUSIVE, text, sizeof text, nullptr),
            SCANJIT_OK);
  EXPECT_STREQ(text, "max i32[100,200] dim=0 out=i64 mask exclusive");
}

TEST(CApiNoGpu, SpecForErrorsNameWhatIsWrong) {
  const int64_t sizes[] = {4, 5}, strides[] = {5, 1}, other[] = {4, 6};
  scanjit_tensor in{SCANJIT_F32, 2, sizes, strides}, wrong{SCANJIT_F32, 2, other, strides};
  char text[64];
  EXPECT_EQ(scanjit_spec_for(SCANJIT_SUM, &wrong, &in, 1, nullptr, 0, text, sizeof text, nullptr),
            SCANJIT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(scanjit_last_error()).find("out has sizes [4,6]"), std::string::npos);
  EXPECT_EQ(scanjit_spec_for(SCANJIT_SUM, nullptr, &in, 1, nullptr, 0, text, sizeof text, nullptr),
            SCANJIT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(scanjit_last_error()).find("out is NULL"), std::string::npos);
  EXPECT_EQ(scanjit_spec_for(static_cast<scanjit_op>(9), &in, &in, 1, nullptr, 0, text, sizeof text, nullptr),
            SCANJIT_INVALID_ARGUMENT);
}

TEST(CApiNoGpu, InspectPrecompileStatsVersion) {
  scanjit_resources r{};
  ASSERT_EQ(scanjit_inspect("sum f32[64,3001] dim=1", "sm_90", &r), SCANJIT_OK) << scanjit_last_error();
  EXPECT_GT(r.registers, 0);
  EXPECT_EQ(r.spill_stores, 0);
  EXPECT_GT(r.dynamic_shared_bytes, 0);
  EXPECT_EQ(scanjit_inspect("sum f32[4 dim=0", nullptr, &r), SCANJIT_INVALID_SPEC);

  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("scanjit-capi", dir));
  const char *specs[] = {"sum f32[64,3001] dim=1", "max f16[100,37] dim=1"};
  const char *archs[] = {"sm_90"};
  size_t compiled = 0, cached = 0;
  ASSERT_EQ(scanjit_precompile(specs, 2, archs, 1, dir.c_str(), 2, &compiled, &cached), SCANJIT_OK)
      << scanjit_last_error();
  EXPECT_EQ(compiled, 2u);
  EXPECT_EQ(cached, 0u);
  ASSERT_EQ(scanjit_precompile(specs, 2, archs, 1, dir.c_str(), 0, &compiled, &cached), SCANJIT_OK);
  EXPECT_EQ(compiled, 0u);
  EXPECT_EQ(cached, 2u);
  const char *bad[] = {"sum f32[4] dim=3"};
  EXPECT_EQ(scanjit_precompile(bad, 1, archs, 1, dir.c_str(), 1, nullptr, nullptr), SCANJIT_INVALID_SPEC);
  EXPECT_NE(std::string(scanjit_last_error()).find("'sum f32[4] dim=3' (sm_90)"), std::string::npos);
  const char *badArch[] = {"sm_1"};
  EXPECT_NE(scanjit_precompile(specs, 2, badArch, 1, dir.c_str(), 1, nullptr, nullptr), SCANJIT_OK);
  llvm::sys::fs::remove_directories(dir);

  scanjit_stats stats{};
  EXPECT_EQ(scanjit_runtime_stats(&stats), SCANJIT_OK);
  EXPECT_EQ(scanjit_runtime_stats(nullptr), SCANJIT_INVALID_ARGUMENT);
  EXPECT_STREQ(scanjit_version(), "0.1.0");
}
