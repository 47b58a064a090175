// Planner choices on representative shapes: family, normalization, sizes.
#include "TestSpecs.h"

#include "compiler/Planner.h"

using namespace scanjit;
using scanjit::testing::mustParse;

namespace {

KernelPlan plan(llvm::StringRef text) { return planKernel(mustParse(text)); }

TEST(Planner, LongContiguousRowsUseTheRowFamily) {
  KernelPlan p = plan("sum f32[32768,32768] dim=1 mask reverse");
  EXPECT_EQ(p.family, KernelFamily::Row);
  EXPECT_EQ(p.threads, 256);
  EXPECT_EQ(p.items, 8); // 32 bytes of f32 per thread
  EXPECT_EQ(p.grid, 32768);
  EXPECT_EQ(p.geometry.scan.size, 32768);
  ASSERT_EQ(p.geometry.lines.size(), 1u);
  EXPECT_EQ(p.geometry.lines[0].size, 32768);
  EXPECT_EQ(p.geometry.lines[0].mask, 32768);
}

TEST(Planner, ItemsFollowTheInputWidth) {
  EXPECT_EQ(plan("sum f64[1024,65536] dim=1").items, 4);
  EXPECT_EQ(plan("sum f16[1024,65536] dim=1").items, 16);
  EXPECT_EQ(plan("sum u8[1024,65536] dim=1").items, 8); // capped by its 8-byte i64 accumulator
  EXPECT_EQ(plan("max bool[1024,65536] dim=1").items, 8);
}

TEST(Planner, FewLongRowsAreChainedByLookback) {
  KernelPlan p = plan("sum f32[8,16777216] dim=1");
  EXPECT_EQ(p.family, KernelFamily::RowLookback);
  EXPECT_EQ(p.items, 16);
  EXPECT_EQ(p.grid, 8 * 16777216 / 4096);
  EXPECT_EQ(p.lookbackPerLane, 8);
  EXPECT_EQ(p.workspaceBytes, 16 + p.grid * 4 + 2 * p.grid * 4);
  EXPECT_EQ(plan("sum f32[100003] dim=0").family, KernelFamily::RowLookback);
  EXPECT_EQ(plan("sum f64[1,1000000] dim=1 reverse").workspaceBytes, 16 + 489 * 4 + 12 + 2 * 489 * 8);
  EXPECT_EQ(plan("sum f32[4096,4096] dim=1").family, KernelFamily::Row);   // enough rows
  EXPECT_EQ(plan("sum f32[64,3000] dim=1").family, KernelFamily::Row);     // rows too short
  EXPECT_EQ(plan("sum f32[4096,4096] dim=1").workspaceBytes, 0);
}

TEST(Planner, ShortContiguousRowsAreSegmented) {
  KernelPlan p = plan("sum f32[1048576,32] dim=1");
  EXPECT_EQ(p.family, KernelFamily::RowSegmented);
  EXPECT_GT(p.rowsPerChunk, 1);
  EXPECT_EQ(p.grid, (1048576 + p.rowsPerChunk - 1) / p.rowsPerChunk);
}

TEST(Planner, ShortRowsThatAreNotContiguousUseFewerThreads) {
  KernelPlan p = plan("sum f32[1000,40] dim=1 strides=[64,1]");
  EXPECT_EQ(p.family, KernelFamily::Row);
  EXPECT_EQ(p.threads, 32);
}

TEST(Planner, ScanningTheOuterDimUsesColumns) {
  KernelPlan p = plan("sum f32[32768,32768] dim=0");
  EXPECT_EQ(p.family, KernelFamily::Column);
  EXPECT_EQ(p.geometry.inner.size, 32768);
  EXPECT_TRUE(p.geometry.lines.empty());
  // 32768 columns cannot fill the GPU four to a thread: one each, 16 steps ahead.
  EXPECT_EQ(p.vector, 1);
  EXPECT_EQ(p.unroll, 16);
  KernelPlan wide = plan("sum f32[512,64,4096] dim=1");
  EXPECT_EQ(wide.vector, 4);
  EXPECT_EQ(wide.unroll, 4);
}

TEST(Planner, MiddleDimOf3dMergesNothingAcrossTheScan) {
  KernelPlan p = plan("sum f32[64,4096,256] dim=1");
  EXPECT_EQ(p.family, KernelFamily::Column);
  EXPECT_EQ(p.geometry.scan.size, 4096);
  EXPECT_EQ(p.geometry.scan.in, 256);
  EXPECT_EQ(p.geometry.inner.size, 256);
  ASSERT_EQ(p.geometry.lines.size(), 1u);
  EXPECT_EQ(p.geometry.lines[0].size, 64);
}

TEST(Planner, ContiguousOuterDimsMergeAndSizeOneDimsDrop) {
  KernelPlan p = plan("sum f32[4,1,8,16,1,100] dim=5");
  EXPECT_EQ(p.family, KernelFamily::RowSegmented);
  ASSERT_EQ(p.geometry.lines.size(), 1u);
  EXPECT_EQ(p.geometry.lines[0].size, 4 * 8 * 16);
  EXPECT_EQ(p.geometry.lines[0].in, 100);
}

TEST(Planner, ColumnVectorShrinksToTheStrides) {
  // Enough columns that parallelism does not narrow the vector.
  EXPECT_EQ(plan("sum f32[33,1000000] dim=0 strides=[1000001,1]").vector, 1);
  EXPECT_EQ(plan("sum f32[33,1000000] dim=0 strides=[1000002,1]").vector, 2);
  EXPECT_EQ(plan("sum i32[33,1000000] dim=0").vector, 4); // 16 B in, 32 B out
  EXPECT_EQ(plan("sum u8[33,1000000] dim=0").vector, 4);  // limited by the i64 output
}

TEST(Planner, TransposedInputFallsBackToStrided) {
  KernelPlan p = plan("sum f32[100,200] dim=1 strides=[1,100]");
  EXPECT_EQ(p.family, KernelFamily::Strided);
  EXPECT_EQ(p.grid, (100 + 7) / 8);
}

TEST(Planner, ABroadcastMaskIsNeverVectorized) {
  // The mask has stride 0 along the scan: not a contiguous row.
  EXPECT_NE(plan("sum f32[64,1024] dim=1 mask mask_strides=[1,0]").family, KernelFamily::Row);
}

TEST(Planner, EmptyAndScalarSpecs) {
  EXPECT_EQ(plan("sum f32[0,5] dim=1").family, KernelFamily::Empty);
  EXPECT_EQ(plan("sum f32[5,0] dim=1").family, KernelFamily::Empty);
  KernelPlan scalar = plan("sum f32[] dim=0");
  EXPECT_EQ(scalar.family, KernelFamily::Row);
  EXPECT_EQ(scalar.geometry.scan.size, 1);
}

TEST(Planner, IndexWidthFollowsTheExtent) {
  EXPECT_FALSE(plan("sum f32[4096,4096] dim=1").index64);
  EXPECT_TRUE(plan("sum f32[32768,32768] dim=1").index64);
  EXPECT_TRUE(plan("sum f32[2,8] dim=1 strides=[2000000000,1]").index64);
}

TEST(Planner, PlansAreDeterministicAndPrintable) {
  ScanSpec s = mustParse("max bf16[7,9,11] dim=1 mask exclusive");
  EXPECT_EQ(planKernel(s).toString(), planKernel(s).toString());
  EXPECT_NE(planKernel(s).toString().find("family=column"), std::string::npos);
}

} // namespace
