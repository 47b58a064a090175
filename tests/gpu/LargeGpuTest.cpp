// The seed workloads at full size and long rows, checked on sampled lines.
#include "GpuHarness.h"

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

CaseOptions sampled() {
  CaseOptions o;
  o.maxLines = 48;
  o.twice = true; // two runs compared bitwise: look-back plans must be reproducible too
  return o;
}

TEST(Large, SeedWorkloads32768Squared) {
  SCANJIT_REQUIRE_GPU();
  for (const char *s : {"sum f32[32768,32768] dim=1", "sum f32[32768,32768] dim=1 reverse",
                        "sum f32[32768,32768] dim=1 mask", "sum f32[32768,32768] dim=1 exclusive",
                        "sum f32[32768,32768] dim=0"})
    expectCasePasses(s, sampled());
}

// The seed sliced one element in (x[:, 1:]): 32768 rows of 32767 off the
// 16-byte grid, a block a row (LookbackPolicy::kEdgesDenseMaxRows), the
// input one element past its buffer's start.
TEST(Large, SeedSlicedOneElementIn) {
  SCANJIT_REQUIRE_GPU();
  CaseOptions o = sampled();
  o.inOffset = 1;
  for (const char *s : {"sum f32[32768,32767] dim=1 strides=[32768,1]",
                        "sum f32[32768,32767] dim=1 strides=[32768,1] reverse exclusive"})
    expectCasePasses(s, o);
}

TEST(Large, LongRowsAndFewColumns) {
  SCANJIT_REQUIRE_GPU();
  for (const char *s : {"sum f32[1,16777216] dim=1", "sum f32[8,2097152] dim=1 reverse mask",
                        "max f32[4,1000003] dim=1 exclusive", "sum f32[1000000,3] dim=0",
                        "sum f64[2000000,32] dim=1", "sum i32[4096,4096] dim=1",
                        "sum f32[1,1073741824] dim=1", "logsumexp f32[64,4194304] dim=1 reverse exclusive mask"})
    expectCasePasses(s, sampled());
}

// The lean look-back plan (sums and products of f32: three blocks an SM,
// every warp reading a tile of the 512-tile window) on rows long enough for
// tiles to take their base from the window's far end, staged and direct
// (rows of an odd length take the edges plan instead).
TEST(Large, LeanLookbackReachesItsWindowsBase) {
  SCANJIT_REQUIRE_GPU();
  ScopedTuning tileByTile("held_shares=0"); // (two rows of 3000000 would hold their shares)
  for (const char *s : {"sum f32[2,3000000] dim=1 reverse exclusive", "sum f32[3500001] dim=0 exclusive",
                        "prod f32[2,2400000] dim=1", "sum f32[5,2200000] dim=1 reverse"}) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    ASSERT_EQ(plan.family, KernelFamily::RowLookback) << s;
    // Rows of an odd length take the edges plan (wide tiles, two blocks an SM):
    // 3500001 floats reach past its window of 512 tiles of 256 x 24.
    ASSERT_EQ(plan.minBlocksPerSm, plan.edges ? 2 : 3) << s << ": not the lean (or edges) plan";
    const int64_t window = int64_t(plan.lookbackWarps) * 32 * plan.lookbackPerLane * plan.threads * plan.items;
    ASSERT_GT(plan.geometry.scan.size, window) << s << ": rows end inside the window";
    expectCasePasses(s, sampled());
  }
}

} // namespace
