// The emitted source is a thin instantiation carrying the plan's constants.
#include "TestSpecs.h"

#include "compiler/Emitter.h"
#include "compiler/Planner.h"
#include "compiler/Templates.h"

using namespace scanjit;
using scanjit::testing::mustParse;

namespace {

std::string emit(llvm::StringRef text) {
  ScanSpec s = mustParse(text);
  auto source = emitKernelSource(s, planKernel(s));
  if (!source) {
    ADD_FAILURE() << llvm::toString(source.takeError());
    return "";
  }
  return *source;
}

bool has(const std::string &text, const std::string &piece) {
  return text.find(piece) != std::string::npos;
}

TEST(Emitter, InstantiatesTheFamilyTemplateWithTheSpecConstants) {
  std::string src = emit("sum f32[32768,32768] dim=1 mask reverse");
  // Only the plan's family header (and the launch bounds): NVRTC parses no other family's.
  EXPECT_TRUE(has(src, "#include \"scanjit/launch_bounds.cuh\"\n#include \"scanjit/row_scan.cuh\"\n"));
  EXPECT_FALSE(has(src, "kernel.cuh"));
  EXPECT_TRUE(has(src, "extern \"C\" __global__ void __launch_bounds__(128, scanjit::ArchMinBlocks<1, 128>::value)"));
  EXPECT_TRUE(has(src, "scanjit_row_sum_f32_f32_mask_rev("));
  EXPECT_TRUE(has(src, "scanjit::row_scan<Problem, Plan>"));
  EXPECT_TRUE(has(src, "typedef scanjit::SumOp<In, Acc> Op;"));
  EXPECT_TRUE(has(src, "static constexpr bool kMask = true;"));
  EXPECT_TRUE(has(src, "static constexpr bool kReverse = true;"));
  EXPECT_TRUE(has(src, "static constexpr bool kExclusive = false;"));
  EXPECT_TRUE(has(src, "static constexpr long long kLength = 32768LL;"));
  // The row count is the launch's batch (size 0 here), not a constant.
  EXPECT_TRUE(has(src, "scanjit::DimList<scanjit::Dim<0LL, 32768LL, 32768LL, 32768LL>>"));
  EXPECT_TRUE(has(src, "// shape class: sum f32[*,32768] dim=1 mask reverse"));
  EXPECT_TRUE(has(src, "static_assert(Problem::Lines::count(1) == 1LL"));
  EXPECT_TRUE(has(src, "void *__restrict__ workspace, long long batch)"));
  EXPECT_TRUE(has(src, "const long long lines = Problem::Lines::count(batch);"));
  EXPECT_FALSE(has(src, "{{")) << "unfilled placeholder";
}

TEST(Emitter, AFixedBatchIsACompiledConstant) {
  // Narrow columns' lanes shape the code: their count stays compiled in.
  std::string src = emit("sum f32[1048576,2] dim=0");
  EXPECT_TRUE(has(src, "scanjit::DimList<scanjit::Dim<2LL, 1LL, 1LL, 0LL>>"));
  EXPECT_TRUE(has(src, "static_assert(Problem::Lines::count(1) == 2LL"));
  EXPECT_TRUE(has(src, "// shape class: sum f32[1048576,2] dim=0"));
}

TEST(Emitter, SpecsOfOneClassEmitOneSource) {
  EXPECT_EQ(emit("sum f32[7,4096,64] dim=1 reverse"), emit("sum f32[12,4096,64] dim=1 reverse"));
  EXPECT_EQ(emit("max f16[9,3001] dim=1 mask"), emit("max f16[3,3,3001] dim=2 mask"));
  EXPECT_NE(emit("sum f32[7,4096] dim=1"), emit("sum f32[1,4096] dim=1"));
}

TEST(Emitter, MapsDtypesToDeviceTypes) {
  EXPECT_TRUE(has(emit("sum f16[4] dim=0"), "typedef scanjit::f16 In;"));
  EXPECT_TRUE(has(emit("sum bf16[4] dim=0 out=f32"), "typedef float Out;"));
  EXPECT_TRUE(has(emit("sum i32[4] dim=0"), "typedef long long Out;"));
  EXPECT_TRUE(has(emit("max bool[4] dim=0"), "typedef scanjit::boolean Out;"));
  EXPECT_TRUE(has(emit("logsumexp f64[4] dim=0"), "typedef scanjit::LogSumExpOp<In, Acc> Op;"));
  EXPECT_TRUE(has(emit("prod u8[4] dim=0"), "typedef long long Acc;"));
}

TEST(Emitter, EachFamilyCallsItsTemplate) {
  EXPECT_TRUE(has(emit("sum f32[1000,32] dim=1"), "scanjit::segmented_scan<"));
  EXPECT_TRUE(has(emit("sum f32[1000,32] dim=0"), "scanjit::column_scan<"));
  EXPECT_TRUE(has(emit("sum f32[10,20] dim=1 strides=[1,10]"), "scanjit::strided_scan<"));
}

TEST(Emitter, AnEmptySpecHasNoKernel) {
  ScanSpec s = mustParse("sum f32[0] dim=0");
  auto source = emitKernelSource(s, planKernel(s));
  ASSERT_FALSE(bool(source));
  std::string message;
  EXPECT_EQ(detail::takeErrorCode(source.takeError(), &message), ErrorCode::InvalidArgument);
  EXPECT_NE(message.find("no elements"), std::string::npos);
}

TEST(Templates, AreEmbeddedWithADigest) {
  auto files = detail::embeddedTemplates();
  ASSERT_FALSE(files.empty());
  bool haveKernel = false;
  for (const auto &f : files) {
    EXPECT_TRUE(f.name.startswith("scanjit/")) << f.name.str();
    EXPECT_FALSE(f.contents.empty()) << f.name.str();
    haveKernel |= f.name == "scanjit/kernel.cuh";
  }
  EXPECT_TRUE(haveKernel);
  EXPECT_EQ(detail::templatesDigest().size(), 64u);
}

} // namespace
