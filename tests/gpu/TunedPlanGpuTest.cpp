// Kernels the policy does not pick but a tuning (SCANJIT_PLAN_TUNE) can:
// they are still served to whoever tunes, so they must be right too.
#include "GpuHarness.h"

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

// "<op> <dtype><shape><flags>" for every op, each of `types` and of `flags`,
// in that order.
std::vector<std::string> everyOp(std::initializer_list<const char *> types, const std::string &shape,
                                 std::initializer_list<const char *> flags) {
  std::vector<std::string> specs;
  for (const char *op : {"sum", "prod", "max", "min", "logsumexp"})
    for (const char *type : types)
      for (const char *f : flags)
        specs.push_back(std::string(op) + " " + type + shape + f);
  return specs;
}

// Segmented rows through eight bulk-copy stages (tuned: the policy takes
// four, SegmentedPolicy::kStages, where they fit): rows of 48 straddle the
// tiles of a chunk. The shapes appear nowhere
// else in the suite, so the process's kernel registry holds no untuned
// kernel for these specs.
TEST(TunedPlans, StagedSegmentedRowsMatchTheReference) {
  ScopedTuning tune("stages=8");
  std::vector<std::string> specs = everyOp({"f32", "f16", "f64"}, "[6000,48] dim=1",
                                           {"", " mask", " reverse", " exclusive", " mask reverse exclusive"});
  for (const char *s : {"sum i32[6000,48] dim=1 mask", "sum u8[6000,64] dim=1 out=i32 reverse",
                        "max bf16[6000,48] dim=1 exclusive", "sum f32[16,1024] dim=1 mask reverse"})
    specs.push_back(s);
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    ASSERT_EQ(plan.family, KernelFamily::RowSegmented) << s;
    ASSERT_GT(plan.stages, 0) << s << ": the tuning did not stage it";
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs);
}

// Padded warp rows of every op, tuned (warp_rows=1): rows of 4 to 16 items
// a lane that do not tile a warp's run, among them rows the policy leaves in
// chunks (SegmentedPolicy::kPaddedWarpRow*: i32 rows of 129, 5 items a lane;
// masked f16 rows).
TEST(TunedPlans, PaddedWarpRowsOfEveryOpMatchTheReference) {
  ScopedTuning tune("warp_rows=1");
  std::vector<std::string> specs = everyOp({"f32", "f16", "f64"}, "[3001,301] dim=1",
                                           {"", " mask reverse", " exclusive"});
  for (const std::string &s : everyOp({"f32", "f64"}, "[3001,37] dim=1", {"", " mask reverse exclusive"}))
    specs.push_back(s); // (short rows: 8 lanes a row, 4 rows a warp)
  for (const char *s : {"sum i32[3001,129] dim=1 mask", "sum u8[2001,333] dim=1 out=i64 reverse",
                        "max bf16[4001,477] dim=1 exclusive", "min i8[2001,200] dim=1 mask reverse exclusive"})
    specs.push_back(s);
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    ASSERT_EQ(plan.family, KernelFamily::RowSegmented) << s;
    ASSERT_TRUE(plan.warpRows) << s << ": the tuning did not take warp rows";
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {CaseOptions(), offsets(1, 3, 2)});
}

// The look-back with one reading warp (thread 0 publishes before the block
// barrier) and with two (their totals cross it), the policy using four.
// Windows of 64 tiles, so the rows (over 70 tiles) also reach the base.
TEST(TunedPlans, LookbackWithOneAndTwoReadingWarpsMatchesTheReference) {
  SCANJIT_REQUIRE_GPU();
  struct Case {
    const char *tuning;
    int warps;
    const char *shape;
  };
  for (const Case &c : {Case{"lookback_warps=1,lookback=2", 1, "[3,300001]"},
                        Case{"lookback_warps=2,lookback=1", 2, "[3,300007]"}}) {
    ScopedTuning tune(c.tuning);
    const std::vector<std::string> specs =
        everyOp({"f32", "f64"}, std::string(c.shape) + " dim=1", {"", " mask reverse", " exclusive"});
    for (const std::string &s : specs) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(s, plan));
      ASSERT_EQ(plan.family, KernelFamily::RowLookback) << s;
      ASSERT_EQ(plan.lookbackWarps, c.warps) << s << ": the tuning did not apply";
    }
    expectCasesPass(specs);
  }
}

// Look-back blocks of more stages than a lazy start keeps in ticket order
// (LookbackPolicy::kLazyStartMaxStages): they issue all their stages at the
// start. Lazily, a block's tiles left ticket order, and where the end came
// first a tile was never scanned and the scans after it waited for ever
// (a tuned run of stages=6 and 8 did not finish on the H200). More tiles
// than blocks x stages, where a lazy start would be the policy's; two
// tiles late, five stages start lazily. Odd lengths: edges plans too.
TEST(TunedPlans, LookbackOfManyStagesKeepsTicketOrder) {
  struct Case {
    const char *tuning;
    int stages;
    bool lazy;
  };
  for (const Case &c : {Case{"threads=128,items=8,stages=6,held_shares=0", 6, false},
                        Case{"items=4,stages=8,held_shares=0", 8, false},
                        Case{"threads=128,items=8,stages=5,lookback_slack=2,held_shares=0", 5, true}}) {
    ScopedTuning tune(c.tuning);
    std::vector<std::string> specs = {"sum f32[4194304] dim=0", "sum f32[4000037] dim=0 reverse",
                                      "prod f64[4000037] dim=0 exclusive", "max f32[4,1048583] dim=1 mask"};
    if (c.lazy) // (two tiles late: contiguous tiles on the grid, outputs as wide as inputs)
      specs = {"sum f32[4194304] dim=0", "prod f32[4,1048576] dim=1 reverse exclusive"};
    for (const std::string &s : specs) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(s, plan));
      ASSERT_EQ(plan.family, KernelFamily::RowLookback) << s << " " << c.tuning;
      EXPECT_EQ(plan.stages, c.stages) << s << " " << c.tuning;
      EXPECT_EQ(plan.lazyStart, c.lazy) << s << " " << c.tuning;
    }
    if (!gpuSkipReason().empty())
      continue; // (the plans above need no GPU)
    expectCasesPass(specs, {CaseOptions(), offsets(1, 3, 2)});
  }
  SCANJIT_REQUIRE_GPU();
}

// Column scans cut into pieces along the scan, chained by published
// totals: the policy's pieces on few panels (a panel and a half a line, a
// short last stage), a tuned uneven split (the last piece shorter), and an
// input one element off alignment (stages filled without bulk copies).
TEST(TunedPlans, ColumnPiecesMatchTheReference) {
  SCANJIT_REQUIRE_GPU();
  struct Case {
    const char *tuning;
    const char *shape;
  };
  // (Whole rows tuned off: these contiguous rows would take tiles of them.)
  for (const Case &c : {Case{"whole_rows=0", "[8,1000,96]"}, Case{"whole_rows=0,pieces=7", "[3,3000,80]"}}) {
    ScopedTuning tune(c.tuning);
    const std::vector<std::string> specs = everyOp({"f32", "f64", "f16"}, std::string(c.shape) + " dim=1",
                                                   {"", " mask", " reverse exclusive", " mask reverse exclusive"});
    for (const std::string &s : specs) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(s, plan));
      ASSERT_EQ(plan.family, KernelFamily::Column) << s;
      ASSERT_GT(plan.pieces, 1) << s << ": not cut into pieces";
    }
    expectCasesPass(specs);
    CaseOptions unaligned;
    unaligned.inOffset = 1;
    expectCasePasses(std::string("sum f32") + c.shape + " dim=1 mask", unaligned);
  }
}

// A product of f16 items near 1 over 3000 steps can pass f16's largest
// value (65504): the kernel rounds it to +inf, as it must, and the check
// takes a reference past the range as its infinity. The seed is the one
// that found it (line 75 position 1824: 7.84e4, stored as +inf).
TEST(TunedPlans, F16ProductsPastTheRangeAreInfinite) {
  SCANJIT_REQUIRE_GPU();
  ScopedTuning tune("whole_rows=0,pieces=7");
  CaseOptions found;
  found.seed = 5675334233726838243ull;
  expectCasePasses("prod f16[3,3000,80] dim=1", found);
}

} // namespace
