// Rows off the 16-byte grid (edges=1 plans): odd row lengths (4k+1..3 and
// primes), pointers a few elements in, inputs, masks and outputs each on
// their own place in a 16-byte word, in every family that stages rows
// (columns too), both
// directions, with and without masks, and every element size.
#include "GpuHarness.h"
#include "scanjit/Scan.h"

#include <algorithm>

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

// The plan of each spec is an edges plan of the family named.
void expectEdgesPlan(const std::string &spec, KernelFamily family) {
  KernelPlan plan;
  ASSERT_TRUE(planOf(spec, plan));
  EXPECT_TRUE(plan.edges) << spec;
  EXPECT_GT(plan.stages, 0) << spec;
  EXPECT_EQ(plan.family, family) << spec;
}

// The plan of `spec` is of `family` and has `flag` set (wholeRows, heldShares).
void expectPlanWith(const std::string &spec, KernelFamily family, bool KernelPlan::*flag) {
  KernelPlan plan;
  ASSERT_TRUE(planOf(spec, plan));
  EXPECT_EQ(plan.family, family) << spec;
  EXPECT_TRUE(plan.*flag) << spec;
}

// `plan` is the plan of `spec`, a column plan with pieces.
void expectColumnPieces(const std::string &spec, KernelPlan &plan) {
  ASSERT_TRUE(planOf(spec, plan));
  EXPECT_EQ(plan.family, KernelFamily::Column) << spec;
  EXPECT_GT(plan.pieces, 1) << spec;
}

// The plan of each spec is the look-back's, loaded by each thread (no stages).
void expectUnstagedLookback(const std::string &spec) {
  KernelPlan plan;
  ASSERT_TRUE(planOf(spec, plan));
  EXPECT_EQ(plan.family, KernelFamily::RowLookback) << spec;
  EXPECT_EQ(plan.stages, 0) << spec;
}

// Each (tuning, spec)'s plan under its tuning, checked by `check(plan,
// what)` (no GPU needed).
template <class Check>
void checkTunedPlans(const std::vector<std::pair<std::string, std::string>> &cases, Check check) {
  for (const auto &[tuning, spec] : cases) {
    ScopedTuning tune(tuning.c_str());
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    check(plan, tuning + " " + spec);
  }
}

// Each (tuning, spec) plans lane threads with stages, of words of lanes or
// of one lane each as `words` says (no GPU needed).
void expectLaneThreadPlans(const std::vector<std::pair<std::string, std::string>> &cases, bool words) {
  checkTunedPlans(cases, [&](const KernelPlan &plan, const std::string &what) {
    EXPECT_TRUE(plan.laneThreads) << what;
    EXPECT_EQ(plan.laneWidth > 1, words) << what;
    EXPECT_GT(plan.stages, 0) << what;
  });
}

// Each (tuning, spec) case passes, under its tuning, at each placement.
void expectTunedCasesPass(const std::vector<std::pair<std::string, std::string>> &cases,
                          const std::vector<CaseOptions> &placements) {
  for (const auto &[tuning, spec] : cases) {
    ScopedTuning tune(tuning.c_str());
    expectCasesPass({spec}, placements);
  }
}

TEST(Edges, RowFamilyOddLengthsAndOffsets) {
  const std::vector<std::string> specs = {
      "sum f32[64,4097] dim=1",         "sum f32[64,4098] dim=1 reverse",
      "sum f32[64,4099] dim=1 mask",    "sum f32[40,9001] dim=1 mask reverse exclusive",
      "sum f16[64,3001] dim=1 mask",    "sum bf16[32,5003] dim=1 reverse",
      "max f64[32,2049] dim=1",         "sum i32[32,4093] dim=1 mask reverse",
      "sum u8[32,8191] dim=1",          "logsumexp f32[32,3333] dim=1 exclusive",
      "min i16[32,3333] dim=1 mask",    "sum f32[2100,1101] dim=1 reverse exclusive",
      "sum f32[64,1025] dim=1 strides=[1031,1] out_strides=[1029,1]",
  };
  for (const std::string &s : specs)
    expectEdgesPlan(s, KernelFamily::Row);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(1, 3, 0),    // input and mask in, output aligned
                          offsets(3, 0, 2),    // all three apart
                          offsets(2, 2, 2)});  // all three together
}

TEST(Edges, LookbackOddLengthsAndOffsets) {
  const std::vector<std::string> specs = {
      "sum f32[3,500003] dim=1",           "sum f32[2,300001] dim=1 mask reverse",
      "sum f16[2,400001] dim=1 exclusive", "max f32[3,300007] dim=1 mask",
      "sum i32[2,300005] dim=1 reverse",   "logsumexp f64[2,200001] dim=1 mask reverse exclusive",
      "sum f32[1000003] dim=0",            "prod bf16[2,262147] dim=1",
  };
  for (const std::string &s : specs)
    expectEdgesPlan(s, KernelFamily::RowLookback);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(1, 5, 0), offsets(3, 0, 1)});
}

// Wide look-back tiles (LookbackPolicy::kWideTileAccBytes): 24 items a
// thread in blocks of 256 (12 of 8-byte accumulators, 8 for masked integer
// products), for edges plans and tiles of narrow types, where the scan
// holds 128 of them or more.
TEST(Edges, WideLookbackTiles) {
  const std::vector<std::pair<std::string, int>> wide = {
      {"sum f16[1048576] dim=0", 24},                         {"sum bf16[1000003] dim=0 mask reverse exclusive", 24},
      {"sum f32[1048573] dim=0 mask exclusive", 20},          {"max u8[3,1000001] dim=1 reverse", 24},
      {"min bf16[2,700001] dim=1 mask", 24},                  {"logsumexp bf16[3,500003] dim=1 reverse", 24},
      {"max i32[2,700001] dim=1 mask reverse", 20},
      {"sum f64[400007] dim=0 reverse exclusive", 12},        {"sum i32[2,300001] dim=1 mask", 12},
      {"prod f64[400003] dim=0 mask", 12},                    {"prod i16[2,300001] dim=1 mask", 8},
  };
  std::vector<std::string> specs;
  for (const auto &[spec, items] : wide) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << spec;
    EXPECT_EQ(plan.threads, 256) << spec;
    EXPECT_EQ(plan.items, items) << spec;
    specs.push_back(spec);
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// More than 2048 rows off the 16-byte grid take the row family
// (LookbackPolicy::kEdgesDenseMaxRows), masked or not, 2048 the look-back;
// integer sums widened to 8 bytes from 961 rows: odd lengths, both
// directions, offsets.
TEST(Edges, ManyRowsOffTheGridByRows) {
  const std::vector<std::string> byRows = {"sum f32[2049,16411] dim=1", "prod f32[2049,16411] dim=1 reverse exclusive",
                                           "sum f32[2049,16411] dim=1 mask reverse", "sum f64[2050,8209] dim=1",
                                           "sum u8[1000,40001] dim=1 exclusive", "sum i32[961,30001] dim=1 reverse"};
  for (const std::string &spec : byRows) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Row) << spec;
    EXPECT_TRUE(plan.edges) << spec;
  }
  for (const char *spec : {"sum f32[2048,16411] dim=1", "sum f64[2048,8209] dim=1 mask", "sum i32[960,30001] dim=1"}) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(byRows, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// More than 512 long dense rows take the look-back too (LookbackPolicy::
// kDenseRowsUncapped; masked up to 8192), but max and min, which stay a
// block a row (kDenseMaxMinUncapped): odd lengths, offsets, both directions.
TEST(Edges, ManyLongRowsByLookback) {
  const std::vector<std::string> byLookback = {"sum f32[700,20011] dim=1", "sum f64[600,16001] dim=1 reverse exclusive",
                                               "sum u8[500,40001] dim=1 reverse", "sum f32[600,21001] dim=1 mask exclusive"};
  const std::vector<std::string> byRows = {"max i32[800,17003] dim=1", "min f64[530,9001] dim=1 mask reverse"};
  std::vector<std::string> specs;
  for (const auto &[list, family] : {std::pair{&byLookback, KernelFamily::RowLookback}, {&byRows, KernelFamily::Row}})
    for (const std::string &spec : *list) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(spec, plan));
      EXPECT_EQ(plan.family, family) << spec;
      specs.push_back(spec);
    }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// Windows fitted to the row (LookbackPolicy::kWindowFitsTheRow) at their
// edges: a row of exactly the window's tiles, one tile more (a warp more),
// three reading warps, two tiles a lane (and log-sum-exp's own window);
// masks, edges, both directions.
TEST(Edges, LookbackWindowFitsTheRow) {
  const std::vector<std::pair<std::string, int>> specs = {
      {"sum f32[100,131072] dim=1", 1},           {"sum f32[100,135168] dim=1 reverse", 2},
      {"sum f32[64,266240] dim=1 exclusive", 3},  {"sum f32[64,270000] dim=1 mask", 3},
      {"sum f64[64,614400] dim=1 reverse", 4},    {"logsumexp f32[64,300000] dim=1", 4},
      {"sum f16[64,500001] dim=1 mask", 3},       {"sum u8[600,100000] dim=1 reverse exclusive", 2},
  };
  std::vector<std::string> list;
  for (const auto &[spec, warps] : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << spec;
    EXPECT_EQ(plan.lookbackWarps, warps) << spec;
    list.push_back(spec);
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(list, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

TEST(Edges, SegmentedOddRowsAndOffsets) {
  SCANJIT_REQUIRE_GPU();
  // The direct segmented kernel tiles each chunk on its 16-byte grid; the
  // staged one (stages=N) is an edges plan, as are chunks of every width
  // launched off the grid. 8-byte results of byte rows leave through the
  // warp's scratch. (Short rows are padded warp rows by default: tuned out
  // of them, Edges.PaddedShortRowsOfEveryOp has those.)
  ScopedTuning chunks("warp_rows=0");
  const std::vector<std::string> specs = {"sum f32[7777,333] dim=1", "sum f32[5000,37] dim=1 mask reverse",
                                          "max f16[3000,101] dim=1 exclusive",
                                          "sum i32[4001,63] dim=1 mask reverse exclusive",
                                          "sum i8[3001,520] dim=1 mask reverse", "sum u8[2000,1000] dim=1",
                                          // Launched off the grid: edges plans of every width (kOffGridChunksStaged).
                                          "min f64[3001,120] dim=1 reverse", "sum f64[2001,42] dim=1 mask exclusive",
                                          "max f32[3001,100] dim=1 mask", "max u8[4001,150] dim=1 reverse"};
  expectCasesPass(specs, {offsets(1, 3, 2)});
}

// Each spec's plan: warp rows, padded or tiling (row_segmented, warp_rows=1), `rows`
// rows a warp where rows > 0. (Plans need no GPU.)
void expectWarpRowPlans(const std::vector<std::string> &specs, int64_t rows) {
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowSegmented) << s;
    EXPECT_TRUE(plan.warpRows) << s;
    if (rows > 0) {
      EXPECT_EQ(plan.rowsPerChunk, rows) << s << ": rows a warp";
    }
  }
}

// Where the warp-row tests place their tensors: aligned, the output an
// element in (results off their words), every pointer off the grid.
std::vector<CaseOptions> warpRowPlacements() { return {CaseOptions(), offsets(0, 0, 1), offsets(1, 3, 2)}; }

// Rows that fit a warp's run without tiling it: a warp a row, the lanes
// past the row's end holding the identity (padded warp rows), 7 to 16 items
// a lane, results leaving through the warp's scratch to any place; pointers
// off every grid.
TEST(Edges, PaddedWarpRows) {
  const std::vector<std::string> specs = {
      "logsumexp f64[3001,300] dim=1",          "logsumexp f64[2001,197] dim=1 mask reverse",
      "logsumexp f64[1501,383] dim=1 exclusive", "logsumexp f64[1001,257] dim=1 mask reverse exclusive",
      "logsumexp f32[4001,333] dim=1 mask",     "logsumexp f32[3001,230] dim=1 reverse exclusive",
      "logsumexp bf16[5001,333] dim=1",         "logsumexp f16[3001,511] dim=1 mask exclusive",
      "sum f32[6001,333] dim=1 mask reverse",   "max f16[4001,445] dim=1 exclusive",
      "sum u8[3001,301] dim=1 reverse",         "min i32[2001,509] dim=1 mask",
      // Rows of exactly 32 x items padded with one item more
      // (SegmentedPolicy::kPaddedOneMoreItem): lanes past the row's end.
      "sum f16[3001,480] dim=1",                "sum bf16[2001,480] dim=1 reverse",
      "sum f32[3001,224] dim=1 exclusive",      "min i32[2001,288] dim=1 reverse exclusive",
      "max f32[3001,224] dim=1 mask reverse",   "max i32[2001,480] dim=1 mask exclusive",
  };
  expectWarpRowPlans(specs, 1);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, warpRowPlacements());
}

// Rows that tile a warp's run with lane runs of 8 or more narrow words
// (1 or 2 bytes, up to 32 bytes a lane): results leave through the warp's
// scratch, not word by word from the registers (store_by_warp_run); 2-byte
// log-sum-exp rows with twice the items (20-24); several rows a warp, a
// partial last warp of rows; pointers off every grid.
TEST(Edges, TilingWarpRowsOfManyNarrowWords) {
  const std::vector<std::string> specs = {
      "logsumexp f16[3001,480] dim=1",           "min i8[2001,416] dim=1 reverse",
      "max u8[4001,288] dim=1 exclusive",        "logsumexp bf16[2001,60] dim=1 mask reverse",
      "logsumexp f16[3001,52] dim=1 mask exclusive", "logsumexp f16[4001,22] dim=1 mask reverse exclusive",
      "logsumexp f16[3001,96] dim=1 reverse",    "logsumexp bf16[2001,352] dim=1 exclusive",
      "logsumexp f16[5001,40] dim=1",
  };
  expectWarpRowPlans(specs, 0);
  for (const std::string &s : specs) { // (tiling: a row's lanes hold exactly its elements)
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_EQ(plan.geometry.scan.size, int64_t(32 / plan.rowsPerChunk) * plan.items) << s;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, warpRowPlacements());
}

// Padded rows of 1- and 2-byte elements of fewer than 10 items a lane of a
// whole warp (193 to 288 elements): half a warp a row, twice the items,
// two rows a warp (SegmentedPolicy::kPaddedHalfWarp*), a partial last warp
// of rows (odd row counts); every op but log-sum-exp (its own items);
// pointers off every grid. Wider elements keep a warp a row, as do rows
// that half-warp rows would tile with a lane's items in registers.
TEST(Edges, PaddedHalfWarpRows) {
  const std::vector<std::string> specs = {
      "min i16[3001,257] dim=1",          "sum bf16[2001,210] dim=1 reverse",
      "max u8[3001,250] dim=1 reverse",   "prod f16[2001,260] dim=1 exclusive",
      "min f16[1501,277] dim=1 reverse exclusive", "max bf16[2001,263] dim=1 exclusive",
      "max i8[4001,201] dim=1 mask reverse", "sum f16[3001,230] dim=1",
      "sum bf16[1001,225] dim=1 reverse exclusive", "min u8[2001,287] dim=1 exclusive",
  };
  expectWarpRowPlans(specs, 2);
  expectWarpRowPlans({"max f32[3001,214] dim=1 mask", "min i32[2001,250] dim=1", "max i8[2001,240] dim=1 mask"}, 1);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, warpRowPlacements());
}

// Warp rows of 1- and 2-byte elements whose items, doubled, still number at
// most 26 a lane take half the lanes (SegmentedPolicy::kNarrowRowsDoubled):
// a warp's rows go from 1 to 2 (padded, or tiling the run: 352 = 16 x 22),
// 2 to 4, 4 to 8 and 8 to 16, masked 2-byte rows (tiling) among them, every op but
// log-sum-exp, a partial last warp of rows; pointers off every grid.
// Masked byte rows, byte rows that would tile the run, and byte rows whose
// half lanes would meet in the span's banks keep their lanes.
TEST(Edges, NarrowRowsTakeHalfTheLanes) {
  struct Case {
    const char *spec;
    int64_t rows; // a warp's rows, doubled
  };
  const std::vector<Case> cases = {
      {"max bf16[2001,333] dim=1", 2},          {"sum bf16[1001,352] dim=1 reverse", 2},
      {"min i8[3001,379] dim=1 reverse", 2},    {"prod f16[2001,359] dim=1 exclusive", 2},
      {"max i8[3001,201] dim=1 reverse", 4},    {"max i16[2001,150] dim=1 reverse exclusive", 4},
      {"sum f16[1501,202] dim=1 reverse", 4},   {"min u8[4001,91] dim=1", 8},
      {"max f16[3001,96] dim=1 mask exclusive", 8}, {"sum bf16[5001,48] dim=1 mask", 16},
      {"max u8[2001,53] dim=1 reverse", 8},
  };
  std::vector<std::string> specs;
  for (const Case &c : cases) {
    expectWarpRowPlans({c.spec}, c.rows);
    specs.push_back(c.spec);
  }
  // Kept: a masked byte row, a byte row the doubled items would tile, 27
  // items; and byte rows whose half lanes would meet in the span's banks
  // (kDoubledByteRowsBankWays), which run too.
  expectWarpRowPlans({"max i8[2001,201] dim=1 mask reverse", "sum bf16[2001,210] dim=1"}, 2);
  expectWarpRowPlans({"max u8[2001,224] dim=1"}, 0);
  const std::vector<std::pair<std::string, int64_t>> bankBound = {
      {"min u8[4001,101] dim=1", 4}, {"max u8[3001,408] dim=1 reverse", 1}, {"min i8[5001,51] dim=1 exclusive", 8}};
  for (const auto &[s, rows] : bankBound) {
    expectWarpRowPlans({s}, rows);
    specs.push_back(s);
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, warpRowPlacements());
}

// Rows of the other ops too short for 7 items a lane of a whole warp:
// padded rows of the fewest lanes that hold them, several a warp, every
// width (SegmentedPolicy::kPaddedShortRows), tiling rows among them (48 in
// 4 lanes of 12, 56 in 4 of 14, 20 in 2 of 10, 7 f32 in a lane: runs of
// seven 2- and 4-byte words leave through the warp's scratch); 2-byte sums
// and masked 2-byte rows keep their chunks on the grid and pad off it
// (their off-grid plans) but for rows that tile a warp's run and unmasked
// exclusive sums (kShortTwoByteSumsTiling, kShortTwoByteMaskedChunks); a
// partial last warp of rows; pointers off every grid.
TEST(Edges, PaddedShortRowsOfEveryOp) {
  const std::vector<std::string> specs = {
      "sum f32[5000,37] dim=1 mask reverse", "max f16[3001,96] dim=1",
      "min f16[3001,48] dim=1 exclusive",    "prod f16[2001,56] dim=1",
      "max u8[3001,100] dim=1 exclusive",    "min i8[2001,146] dim=1 mask",
      "sum i32[3001,20] dim=1 mask reverse", "prod i32[2001,24] dim=1 reverse",
      "sum f64[2001,180] dim=1 mask",        "min f64[1001,100] dim=1 reverse",
      "max f64[3001,20] dim=1 reverse exclusive", "sum u8[3001,77] dim=1 exclusive",
      "min f32[3001,11] dim=1",              "prod bf16[2001,112] dim=1 exclusive mask",
      "min f32[3001,7] dim=1 exclusive",     "max bf16[2001,28] dim=1 reverse",
  };
  expectWarpRowPlans(specs, 0);
  const std::vector<std::string> twoByteChunks = {"sum f16[2001,86] dim=1 reverse", "sum i16[2001,163] dim=1 reverse",
                                                  "sum bf16[2001,86] dim=1 mask exclusive",
                                                  "prod bf16[2001,111] dim=1 exclusive mask", "sum f16[3001,79] dim=1 mask"};
  const std::vector<std::string> twoByteTilingSums = {
      "sum bf16[3001,48] dim=1 mask", "sum bf16[4001,12] dim=1 exclusive", "sum f16[2001,56] dim=1 mask",
      "sum f16[3001,28] dim=1 reverse", "sum bf16[2001,77] dim=1 exclusive"};
  for (const std::string &s : twoByteChunks) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_FALSE(plan.warpRows) << s << ": chunks on the grid";
  }
  expectWarpRowPlans(twoByteTilingSums, 0);
  {
    ScopedTuning offGrid("off_grid=1");
    expectWarpRowPlans(twoByteChunks, 0);
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, warpRowPlacements());
  expectCasesPass(twoByteChunks, warpRowPlacements());
  expectCasesPass(twoByteTilingSums, warpRowPlacements());
}

// Unmasked 2-byte warp rows copy each warp's rows into shared memory by
// 16-byte words (warp_span.cuh): the span's first element at every place in
// its word (inputs 0-7 elements in), partial words at both ends, a partial
// last warp of rows whose span ends at the tensor's last element; padded
// rows, tiling rows of 1, 2 and 4 lanes, half-warp rows; 2-byte sums of
// short rows in their off-grid plans (padded ones are warp rows only there);
// padded rows whose lanes' runs are whole 16-byte words (16 items), which
// load their own vectors where the input lies on the grid (0 in) and by
// words elsewhere.
TEST(Edges, WarpRowsLoadedByWordsAtEveryPlace) {
  const std::vector<std::string> specs = {
      "max f16[3001,86] dim=1 reverse",     "min f16[1001,20] dim=1 exclusive",
      "sum bf16[1001,230] dim=1",           "prod i16[999,163] dim=1",
      "max bf16[2001,5] dim=1 reverse exclusive", "sum f16[777,333] dim=1 exclusive",
      "min bf16[1501,52] dim=1 reverse",    "sum f16[1001,480] dim=1 reverse",
      "max bf16[999,496] dim=1 exclusive",
  };
  expectWarpRowPlans(specs, 0);
  const std::vector<std::string> sums = {"sum bf16[2001,12] dim=1", "sum f16[1001,86] dim=1 reverse"};
  {
    ScopedTuning offGrid("off_grid=1");
    expectWarpRowPlans(sums, 0);
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  std::vector<CaseOptions> places;
  for (int in = 0; in < 8; ++in)
    places.push_back(offsets(in, 0, (in * 3) % 8));
  expectCasesPass(specs, places);
  expectCasesPass(sums, places);
}

// Masked 1- and 2-byte warp rows copy their mask bytes into shared memory
// by words beside their elements (load_lifted_warp_span): input and mask at
// different places in their words (0-7 and 0-15 elements in), so the two
// spans' partial words differ; 2-byte padded rows (their off-grid plans:
// on the grid they keep their chunks), rows that tile a warp's run off the
// grid, byte rows padded on and off it; several rows a warp and a warp a
// row, a partial last warp of rows, tensors of 2-3 rows; 2-byte max and
// min padded on the grid.
TEST(Edges, MaskedNarrowWarpRowsLoadedByWords) {
  const std::vector<std::string> padded = {
      "sum f16[3001,163] dim=1 mask",          "prod bf16[2001,99] dim=1 mask reverse",
      "max f16[2001,190] dim=1 mask exclusive", "min i16[1001,77] dim=1 mask reverse exclusive",
      "sum bf16[3,157] dim=1 mask",            "max f16[2,29] dim=1 mask",
      "sum f16[2001,443] dim=1 mask",          "prod f16[1001,347] dim=1 mask exclusive",
  };
  // Masked 2-byte max and min pad on the grid too (kMaskedTwoByteRowsPadded).
  const std::vector<std::string> maxMinOnTheGrid = {"max f16[2001,351] dim=1 mask exclusive",
                                                    "min bf16[3001,79] dim=1 mask reverse", "max i16[1001,268] dim=1 mask"};
  const std::vector<std::string> bytes = {
      "min u8[3001,163] dim=1 mask",      "max i8[2001,201] dim=1 mask reverse",
      "sum u8[2001,250] dim=1 mask exclusive", "prod i8[1001,18] dim=1 mask",
      "min i8[2,77] dim=1 mask reverse",
  };
  const std::vector<std::string> tiling = {"max bf16[2001,48] dim=1 mask", "min f16[3001,28] dim=1 mask reverse"};
  {
    ScopedTuning offGrid("off_grid=1");
    expectWarpRowPlans(padded, 0);
    expectWarpRowPlans(tiling, 0);
  }
  expectWarpRowPlans(bytes, 0);
  expectWarpRowPlans(maxMinOnTheGrid, 0);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  std::vector<CaseOptions> places;
  for (int in = 0; in < 8; ++in)
    places.push_back(offsets(in, (in * 5 + 3) % 16, (in * 3) % 8));
  expectCasesPass(padded, places);
  expectCasesPass(bytes, places);
  expectCasesPass(tiling, places);
  expectCasesPass(maxMinOnTheGrid, warpRowPlacements());
}

// Warp rows of 1- and 2-byte elements that load their own runs and put
// their results into the warp's scratch item by item: each input, mask and
// output 0-3 elements in, so runs and rows start at every byte of a word; a
// warp a row, two, four, eight and 32 rows a warp, a partial last warp;
// rows whose last lane holds a byte; 2-byte log-sum-exp rows; tensors of
// 2-5 rows. (Written for runs moved as 4-byte words, which lost:
// BENCHMARKS.md, eighty-eighth pass.)
TEST(Edges, NarrowWarpRowsAtEveryPlace) {
  const std::vector<std::string> specs = {
      "max i8[4001,201] dim=1 reverse",     "min u8[2001,300] dim=1",
      "max u8[3001,100] dim=1 mask exclusive", "sum i8[3001,201] dim=1 mask",
      "max i8[2001,196] dim=1",             "min i8[2001,13] dim=1 reverse exclusive",
      "max u8[2001,45] dim=1 reverse",      "logsumexp f16[3001,129] dim=1 reverse",
      "min i8[3,77] dim=1 mask",            "max i8[3,201] dim=1 reverse",
      "min u8[5,300] dim=1 exclusive",      "max u8[2,100] dim=1 mask",
  };
  expectWarpRowPlans(specs, 0);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  std::vector<CaseOptions> places;
  for (int in = 0; in < 4; ++in)
    places.push_back(offsets(in, (in + 1) % 4, (in * 3) % 4));
  places.push_back(offsets(0, 0, 1));
  expectCasesPass(specs, places);
}

// Log-sum-exp rows too short for 7 items a lane of a whole warp: padded
// rows of fewer lanes, several a warp (2 to 32), stored as the warp's run
// of rows through its scratch; a partial last warp of rows; pointers off
// every grid.
TEST(Edges, PaddedShortRowsOfLogSumExp) {
  const std::vector<std::string> specs = {
      "logsumexp f32[3001,100] dim=1",          "logsumexp f64[2001,60] dim=1 mask reverse",
      "logsumexp f16[3001,129] dim=1 exclusive", "logsumexp f32[1001,37] dim=1 mask reverse exclusive",
      "logsumexp bf16[4001,12] dim=1",          "logsumexp f64[1001,30] dim=1 mask",
      "logsumexp f32[3003,65] dim=1 reverse",   "logsumexp f64[999,37] dim=1 exclusive",
  };
  expectWarpRowPlans(specs, 0);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, warpRowPlacements());
}

// Segmented rows of odd lengths, every width, staged in chunks of whole
// 16-byte words (SegmentedPolicy::kChunksOfWholeWords): the aligned
// pipeline, whose last tile ends inside a word (its input, mask and output
// copied by a thread or the lanes); outputs off the grid; pointers off it
// (the off-grid plan: 2-byte rows' edges plan, other widths' registers).
// Rows of 193 to 512 elements would be padded warp rows: tuned out of them.
TEST(Edges, OddStagedRowsInChunksOfWholeWords) {
  ScopedTuning chunks("warp_rows=0");
  const std::vector<std::string> specs = {
      "sum f16[6001,295] dim=1",           "max bf16[9001,333] dim=1 mask reverse",
      "sum f16[5003,101] dim=1 reverse exclusive", "prod i16[7001,63] dim=1 mask",
      "min f16[4500,1003] dim=1 exclusive", "sum bf16[3000,326] dim=1 mask",
      "sum f32[9001,333] dim=1",           "max i32[8001,301] dim=1 mask reverse",
      "sum u8[20001,77] dim=1 exclusive",  "prod f64[6001,129] dim=1 reverse",
      "min i8[30001,45] dim=1 mask",       "sum f32[4500,1001] dim=1 mask reverse exclusive",
      // The last chunk's 4 rows end in a tile of 4 elements: no whole word.
      "sum f16[8196,1025] dim=1 mask",     "max f16[8196,1025] dim=1 reverse",
  };
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowSegmented) << s;
    EXPECT_GT(plan.stages, 0) << s;
    EXPECT_FALSE(plan.edges) << s;
    EXPECT_GE(plan.rowsPerChunk, 8) << s;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {CaseOptions(), offsets(0, 0, 1), offsets(0, 0, 3), offsets(1, 3, 2)});
}

TEST(Edges, ColumnOddCountsAndOffsets) {
  // Panel rows off the grid are bulk-copied as the words holding them; the
  // tensor's last word is copied by a lane (the harness allocates each
  // tensor to its last element, so the sanitizer sees any read past it).
  const std::vector<std::string> specs = {
      "sum f32[4001,1001] dim=0",          "sum f32[3000,333] dim=0 mask reverse",
      "sum f16[2001,4097] dim=0 exclusive", "max bf16[3001,77] dim=0 mask",
      "sum f64[1001,333] dim=0 reverse",   "sum i32[2001,1001] dim=0 mask reverse exclusive",
      "logsumexp f32[1500,555] dim=0 mask", "sum u8[3001,1003] dim=0",
      "sum f32[16,1001,33] dim=1 reverse",
  };
  for (const std::string &s : specs)
    expectEdgesPlan(s, KernelFamily::Column);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(1, 3, 0), offsets(3, 1, 2)});
}

TEST(Edges, TwoColumnsAThreadPairTheirFlags) {
  // Edges panels of two columns a thread, in pieces: a thread publishes and
  // reads its two columns' flags as one 16-byte access (a column past the
  // panel's end is read, never waited on, and its flag is never written).
  // 2-, 4- and 8-byte outputs; odd column counts end panels part way and put
  // every other row off the grid; the offsets move every base.
  const std::vector<std::string> specs = {
      "sum f32[20011,1001] dim=0 out=f64", "sum bf16[20011,707] dim=0 reverse",
      "max f16[20011,1001] dim=0 exclusive", "sum i32[20011,801] dim=0 mask",
      "prod f32[9001,2001] dim=0 mask reverse",
  };
  for (const std::string &spec : specs) {
    expectEdgesPlan(spec, KernelFamily::Column);
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.vector, 2) << spec;
    EXPECT_GT(plan.pieces, 1) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 1), offsets(2, 1, 3)});
}

TEST(Edges, EightByteColumnSumsTakeAColumnAThread) {
  // Sums and products of f64 through the column pipeline: a column a
  // thread, four threads to a column, blocks of 256
  // (ColumnPolicy::kEightByteSums*), with pieces, a panel's last columns
  // few, masked rows off the grid (unmasked ones off the grid keep two
  // columns a thread).
  const std::vector<std::string> specs = {
      "sum f64[100003,258] dim=0",      "prod f64[30001,300] dim=0 mask reverse",
      "sum f64[4096,4096] dim=0 reverse exclusive", "sum f64[8,1000,64] dim=1 mask",
  };
  for (const std::string &spec : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Column) << spec;
    EXPECT_EQ(plan.vector, 1) << spec;
    EXPECT_EQ(plan.groups, 4) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// Column panels on the 16-byte grid read their rows from the stage 8
// (2-byte elements) or 4 at a time ahead of their scan instead of holding
// the whole slice in registers (ColumnPolicy::kRowsAhead*): groups whose
// slice is not a multiple of that, short last chunks, resident pieces and
// none, max and min, every flag; then odd counts ahead, tuned.
TEST(Edges, ColumnPanelsReadTheirRowsAhead) {
  const std::vector<std::string> specs = {
      "sum f16[8197,4096] dim=0",        "sum bf16[3001,512] dim=0 mask reverse",
      "max f16[4099,1024] dim=0 exclusive", "min bf16[20001,256] dim=0 reverse exclusive",
      "sum f32[4101,2048] dim=0",        "prod f32[777,4096] dim=0 mask exclusive",
      "sum f64[2051,1024] dim=0 reverse", "sum f16[3,5003,256] dim=1 mask",
      "sum f32[300,1003,64] dim=1 exclusive", "sum f16[300,1003,128] dim=1 reverse", // (a block a panel: no pieces)
  };
  for (const std::string &spec : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Column) << spec;
    EXPECT_FALSE(plan.edges) << spec;
    EXPECT_LT(plan.unroll, (plan.rowsPerChunk + plan.groups - 1) / plan.groups) << spec; // not the whole slice
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0)});
  for (const char *tuning : {"unroll=3", "unroll=5,groups=2"}) {
    ScopedTuning tune(tuning);
    expectCasesPass({"sum f16[8197,4096] dim=0 reverse", "max f32[4101,2048] dim=0 mask", "sum f64[2051,1024] dim=0 exclusive"},
                    {offsets(0, 0, 0)});
  }
}

// Tall panels of a few columns, with the window of 8: at most 2048 pieces a
// panel (ColumnPolicy::kMaxPieces), each longer than the stages, so it
// streams its rows twice; at most 32 columns take a column a thread in
// panels of 32 (kFewColumns).
// 2-byte integers summed in 8 bytes, rows off the 16-byte grid: 8 rows
// read ahead, not a group's whole slice (ColumnPolicy::
// kRowsAheadTwoByteIntoWideEdges), in panels of 64 and fitted ones.
TEST(Edges, TwoByteIntegersIntoEightBytesOffTheGridReadEightRowsAhead) {
  const std::vector<std::string> specs = {"sum i16[3,20011,150] dim=1", "prod i16[2,30011,150] dim=1 mask reverse",
                                          "sum i16[50003,150] dim=0 exclusive", "prod i16[20011,1000] dim=0 mask",
                                          "sum i16[3,10007,333] dim=1 reverse exclusive"};
  for (const std::string &spec : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Column) << spec;
    EXPECT_TRUE(plan.edges) << spec;
    EXPECT_EQ(plan.unroll, 8) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

TEST(Edges, LongColumnScansStreamTheirPiecesTwice) {
  // (Contiguous rows of 17 or more columns take tiles of whole rows, and
  // pieces that look back over span totals stay as long as the stages up to
  // kMaxSpanPieces: the tests around. Here the column pipeline's pieces,
  // with the window of 8, tuned so.)
  ScopedTuning pipeline("whole_rows=0,piece_spans=0");
  const std::vector<std::string> specs = {"sum f32[400003,20] dim=0 mask reverse", "max bf16[700001,20] dim=0 exclusive",
                                          "sum f64[600007,24] dim=0", "sum f64[1200003,12] dim=0 mask",
                                          "min i32[1300001,32] dim=0 reverse", "sum f32[800001,40] dim=0 exclusive"};
  for (const std::string &spec : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Column) << spec;
    EXPECT_LE(plan.pieces, 2048) << spec;
    EXPECT_GT(plan.geometry.scan.size, int64_t(plan.pieces) * plan.stages * plan.rowsPerChunk) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

TEST(Edges, ColumnPiecesLookBackOverSpanTotals) {
  // Pieces that look back over span totals (column_pieces.cuh), tuned onto
  // shapes small enough for a test: past 65 pieces (the inclusive prefix
  // 65 back), between 9 and 65 (spans from piece 0), and under 9 (only
  // aggregates); resident pieces and pieces that stream twice (the first
  // publishing last); 4-byte values a window for all columns, 8-byte ones
  // a column at a time (f64, integer sums); rows off the grid. Each case
  // runs twice, compared bit for bit.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"piece_spans=1,pieces=1100,whole_rows=0", "sum f32[100003,100] dim=0 mask reverse"},
      {"piece_spans=1,pieces=200,whole_rows=0", "max f64[60001,40] dim=0 exclusive"},
      {"piece_spans=1,pieces=430,whole_rows=0", "sum f64[80000,64] dim=0 mask"},
      {"piece_spans=1,pieces=420", "prod bf16[50001,300] dim=0 mask"},
      {"piece_spans=1,pieces=40", "sum i32[20000,70] dim=0 reverse exclusive"},
      {"piece_spans=1,pieces=7,whole_rows=0", "min f16[5003,33] dim=0"},
      {"piece_spans=1,pieces=27,whole_rows=0", "sum f16[5003,33] dim=0 reverse"},
      {"piece_spans=1,pieces=420,whole_rows=0", "sum u8[60000,96] dim=0 mask"},
  };
  int resident = 0;
  for (const auto &[tuning, spec] : cases) {
    ScopedTuning tune(tuning.c_str());
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Column) << spec;
    EXPECT_TRUE(plan.pieceSpans) << spec;
    EXPECT_GT(plan.pieces, 1) << spec;
    resident += plan.pieces * int64_t(plan.stages) * plan.rowsPerChunk >= plan.geometry.scan.size;
  }
  EXPECT_GT(resident, 0) << "resident pieces and pieces that stream twice";
  EXPECT_LT(resident, int(cases.size())) << "resident pieces and pieces that stream twice";
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// Pieces look back over span totals by the policy, however few, where every
// SM holds a block of each of at most 4 panels: 105-209 pieces of one
// panel, 62-183 pieces of 2-4 panels, two lines; on and off the grid,
// masks, both directions, exclusive, 1-, 2-, 4- and 8-byte elements.
TEST(Edges, PiecesLookBackOverSpanTotalsWhereSmsHoldEveryPanel) {
  const std::vector<std::string> specs = {
      "sum f32[20000,100] dim=0",               "sum f16[30000,150] dim=0 mask reverse",
      "min i16[20000,139] dim=0 exclusive",     "prod i32[30001,100] dim=0 mask",
      "sum f64[30001,52] dim=0 reverse",        "max bf16[25000,120] dim=0",
      "min bf16[12855,256] dim=0 reverse",      "min u8[23352,130] dim=0 mask reverse",
      "prod i16[26226,191] dim=0 mask reverse", "min i16[11850,237] dim=0 reverse exclusive",
      "prod f32[2,20000,150] dim=1",            "max i8[30001,215] dim=0",
  };
  for (const std::string &spec : specs) {
    KernelPlan plan;
    expectColumnPieces(spec, plan);
    const int64_t panels = plan.grid / plan.pieces;
    EXPECT_LE(panels, 4) << spec;
    EXPECT_GE(plan.minBlocksPerSm, panels) << spec;
    EXPECT_GT(plan.pieces, 60) << spec;
    EXPECT_TRUE(plan.pieceSpans) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// Column pipeline stages filled by each thread's 16-byte copies (the
// policy's with pieces: word_copies=1) or by a bulk copy a row (its
// without), each tuned the other way too: rows on and off the grid, a
// tensor whose last word is partly past its end (the copies read only its
// elements there), masks, both directions, every element size.
TEST(Edges, ColumnStagesByWordsOrBulkCopies) {
  const std::vector<std::string> withPieces = {
      "sum f32[3001,333] dim=0 mask reverse", "max f16[2049,1025] dim=0 exclusive",
      "sum f64[4001,258] dim=0",              "prod i32[1001,4097] dim=0 mask",
      "logsumexp f32[2001,1001] dim=0",       "min i8[5003,508] dim=0 reverse",
  };
  const std::vector<std::string> withoutPieces = {
      "sum f32[300,20001] dim=0 mask", "max bf16[200,40000] dim=0 reverse exclusive",
      "sum u8[100,70001] dim=0",       "sum f32[8,1000,4096] dim=1 mask",
  };
  std::vector<std::pair<std::string, std::string>> cases;
  for (const std::string &spec : withPieces)
    cases.push_back({"", spec});
  for (const std::string &spec : withoutPieces)
    cases.push_back({"", spec});
  for (const char *spec : {"sum f32[3001,333] dim=0 mask reverse", "sum f64[4001,258] dim=0", "min i8[5003,508] dim=0 reverse"})
    cases.push_back({"word_copies=0", spec});
  for (const char *spec : {"sum f32[300,20001] dim=0 mask", "max bf16[200,40000] dim=0 reverse exclusive", "sum u8[100,70001] dim=0"})
    cases.push_back({"word_copies=1", spec});
  for (const auto &[tuning, spec] : cases) {
    ScopedTuning tune(tuning.c_str());
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Column) << tuning << " " << spec;
    EXPECT_GT(plan.stages, 0) << tuning << " " << spec;
    EXPECT_FALSE(plan.wholeRows) << tuning << " " << spec;
    const bool pieces = plan.pieces > 1;
    EXPECT_EQ(pieces, std::find(withPieces.begin(), withPieces.end(), spec) != withPieces.end()) << spec;
    EXPECT_EQ(plan.wordCopies, tuning.empty() ? pieces : tuning == "word_copies=1") << tuning << " " << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(1, 3, 2), offsets(3, 0, 0)});
}

// Edges stages lay their rows at a pitch that matches the tensor's modulo
// 16 bytes, each row r pitches past its chunk's first: every residue of the
// input's and the mask's row pitch off the grid (u8 rows of 1009-1023
// columns, f16 of odd counts), by word copies and by a bulk copy a row,
// scan strides of their own, and lines of a 3-D tensor.
TEST(Edges, ColumnStageRowsAtEveryPlaceInAWord) {
  std::vector<std::pair<std::string, std::string>> cases;
  for (int columns = 1009; columns <= 1023; ++columns)
    cases.push_back({columns % 2 ? "" : "word_copies=0",
                     (columns % 4 < 2 ? "max u8[700," : "sum u8[700,") + std::to_string(columns) + "] dim=0 mask" +
                         (columns % 3 == 0 ? " reverse" : "")});
  for (const char *spec : {"sum f16[900,1003] dim=0 mask exclusive", "min bf16[900,1005] dim=0 reverse"}) {
    cases.push_back({"", spec});
    cases.push_back({"word_copies=0", spec});
  }
  cases.push_back({"", "sum f32[600,300] dim=0 strides=[307,1] mask mask_strides=[301,1]"});
  cases.push_back({"word_copies=0", "sum f32[600,300] dim=0 strides=[309,1] reverse"});
  cases.push_back({"", "prod f64[5,600,333] dim=1 reverse"});
  cases.push_back({"", "sum i32[7,500,203] dim=1 mask"});
  for (const auto &[tuning, spec] : cases) {
    ScopedTuning tune(tuning.c_str());
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Column) << tuning << " " << spec;
    EXPECT_TRUE(plan.edges) << tuning << " " << spec;
    EXPECT_GT(plan.stages, 0) << tuning << " " << spec;
    EXPECT_FALSE(plan.wholeRows) << tuning << " " << spec;
    EXPECT_EQ(plan.wordCopies, tuning.empty()) << tuning << " " << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(1, 3, 2), offsets(3, 2, 1)});
}

// Look-back tiles finished two tiles late (lookback_slack=2 with four
// stages: items scanned again from their stages): 1-D and rows, a tile or
// two a block and many, masks, both directions, exclusive, 2- and 4-byte
// elements, sums, products, max and min, the output on the input's grid
// and three elements off it.
TEST(Edges, LookbackTilesFinishedTwoLate) {
  const std::vector<std::string> specs = {
      "sum f32[16777216] dim=0",           "sum f32[20000] dim=0",
      "sum f32[1048576] dim=0 mask",       "min bf16[1048576] dim=0 reverse",
      "max f32[4,2000000] dim=1 mask",     "sum f32[64,131072] dim=1 exclusive",
      "sum f32[2,1000000] dim=1 reverse",  "sum bf16[3,1000000] dim=1 mask reverse exclusive",
      "prod f32[2,300000] dim=1 exclusive", "sum f32[8,16777216] dim=1 mask reverse",
  };
  ScopedTuning tune("lookback_slack=2,stages=4");
  for (const std::string &spec : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << spec;
    EXPECT_EQ(plan.lookbackSlack, 2) << spec;
    EXPECT_GE(plan.stages, 4) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {CaseOptions{}, offsets(0, 0, 3)});
}

// A lazy start (lazy_start=1: a pipelined block issues its stages past the
// first one a tile in its tile loop) and its absence, each where the
// policy would pick the other: few blocks (many tiles each) made lazy, and
// large scans issuing every stage at the start. Each case runs twice and at
// every placement: 1-D and rows, on the grid and off it (edges), packed
// lanes, masks, both directions, exclusive, log-sum-exp's four stages,
// 1-, 2-, 4- and 8-byte elements.
TEST(Edges, LazyStartAndEagerStart) {
  const std::vector<std::string> specs = {
      "sum f32[1000003] dim=0",           "max f32[4,200001] dim=1 mask",
      "sum f32[64,131072] dim=1 exclusive", "max u8[1048576,16] dim=0",
      "sum f32[524288,4] dim=0 reverse",  "min u8[104857,16] dim=0 reverse",
      "prod f64[2,300001] dim=1",         "logsumexp f32[3,400003] dim=1",
      "sum i32[16777216] dim=0",          "min bf16[2000003] dim=0 reverse",
  };
  struct Start {
    const char *tuning;
    bool lazy;
  };
  for (const Start &start : {Start{"lazy_start=1,blocks=24", true}, Start{"lazy_start=0", false}}) {
    const char *tuning = start.tuning;
    ScopedTuning tune(tuning);
    int lazyPlans = 0;
    for (const std::string &spec : specs) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(spec, plan));
      EXPECT_EQ(plan.family, KernelFamily::RowLookback) << tuning << " " << spec;
      lazyPlans += plan.lazyStart;
    }
    // (at 24 blocks the 2-byte one is held shares, which take one ticket)
    EXPECT_EQ(lazyPlans, start.lazy ? int(specs.size()) - 1 : 0) << tuning;
    if (!::scanjit::gpu_testing::gpuSkipReason().empty())
      continue;
    expectCasesPass(specs, {CaseOptions{}, offsets(0, 0, 3)});
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
}

// Look-back tiles finished one tile late and scanned again from their
// stages (reread_tiles=1): 1-D and rows, on the grid and off it (edges
// plans, masks off the input's grid), a tile or two a block and many,
// both directions, exclusive, 1-, 2-, 4- and 8-byte elements, sums,
// products, max and min, the policy's tiles and 512 x 24; the output on the
// input's grid and off it. Untuned, 2-byte sums and products read their
// 512 x 24 tiles again (LookbackPolicy::kRereadWideTiles).
TEST(Edges, TilesRereadFromTheirStages) {
  const std::vector<std::string> specs = {
      "sum bf16[16777216] dim=0",           "sum f16[16777213] dim=0 reverse",
      "max bf16[1048576] dim=0 mask",       "sum f32[8,2000003] dim=1 mask reverse exclusive",
      "min i16[4,4194305] dim=1 exclusive", "prod f64[2000001] dim=0",
      "max u8[40000001] dim=0 reverse",     "sum bf16[3,1000001] dim=1 mask",
      "sum f16[60000] dim=0",               "prod f16[4,4194301] dim=1 reverse exclusive",
  };
  const char *tunings[] = {"", "reread_tiles=1", "reread_tiles=1,threads=512,items=24"};
  std::vector<std::string> reread[3]; // each tuning's specs that read their tiles again
  for (int t = 0; t < 3; ++t) {
    ScopedTuning tune(tunings[t]);
    for (const std::string &spec : specs) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(spec, plan));
      EXPECT_EQ(plan.family, KernelFamily::RowLookback) << tunings[t] << " " << spec;
      if (plan.rereadTiles)
        reread[t].push_back(spec);
    }
  }
  EXPECT_EQ(reread[0], (std::vector<std::string>{"sum bf16[16777216] dim=0", "sum f16[16777213] dim=0 reverse",
                                                 "prod f16[4,4194301] dim=1 reverse exclusive"}));
  EXPECT_EQ(reread[1].size(), specs.size());
  EXPECT_GE(reread[2].size(), 5u); // (512 x 24 leaves some too few stages to read tiles again)
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  for (int t = 0; t < 3; ++t) {
    ScopedTuning tune(tunings[t]);
    expectCasesPass(reread[t], {CaseOptions{}, offsets(1, 3, 2), offsets(0, 0, 3)});
  }
}

// Archs with cp.async but no bulk copies (sm_80/86/89) take the column
// pipeline by word copies (ColumnPolicy::kWordPipelineWithoutBulkCopies):
// sm_80's plans and code
// (test_wait, no bulk copies) run here from their PTX (SCANJIT_RUN_ARCH),
// with pieces and without, on the grid and off it, every element size.
TEST(Edges, ColumnWordPipelineOfSm80) {
  const std::vector<std::string> specs = {
      "sum f32[30001,100] dim=0 mask reverse", "max f16[2049,1025] dim=0 exclusive",
      "sum f64[4001,258] dim=0",               "prod i32[1001,4097] dim=0 mask",
      "logsumexp f32[2001,333] dim=0",         "min i8[5003,508] dim=0 reverse",
      "sum f32[300,20001] dim=0 mask",         "sum bf16[8,1000,4096] dim=1 reverse exclusive",
  };
  for (const std::string &text : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(text, plan, Target{80}));
    EXPECT_EQ(plan.family, KernelFamily::Column) << text;
    EXPECT_GT(plan.stages, 0) << text;
    EXPECT_TRUE(plan.wordCopies) << text;
    EXPECT_EQ(plan.policy, "sm_80/86/89") << text;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  ScopedRunArch asSm80("sm_80");
  expectCasesPass(specs, {CaseOptions{}, offsets(1, 3, 2)});
}

// Rows without stages (sm_75/80/86/89; row_scan_direct) whose input or mask
// lies off their runs' vector grid load each warp's run lane by lane and
// unstripe it through shared memory; outputs off the grid leave through it
// too. sm_80's plans and code run here from their PTX (SCANJIT_RUN_ARCH):
// odd lengths of every element size, rows shorter and longer than a tile,
// masks, both directions, exclusive, i64 results, each pointer on the grid
// and off it, and input and output off it apart.
TEST(Edges, RowRunsByLanesOfSm80) {
  const std::vector<std::string> specs = {
      "sum f16[600,32769] dim=1",          "max bf16[600,20001] dim=1 mask reverse",
      "sum f32[500,10003] dim=1 exclusive", "min i16[1000,4097] dim=1 reverse exclusive",
      "sum i32[400,4097] dim=1 mask",       "sum u8[300,10001] dim=1 reverse",
      "prod f64[200,3001] dim=1 mask",      "logsumexp f32[100,20001] dim=1",
      "sum f32[300,4096] dim=1",            "max i8[600,30001] dim=1 mask exclusive",
  };
  for (const std::string &text : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(text, plan, Target{80}));
    EXPECT_EQ(plan.family, KernelFamily::Row) << text;
    EXPECT_EQ(plan.stages, 0) << text;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  ScopedRunArch asSm80("sm_80");
  expectCasesPass(specs, {CaseOptions{}, offsets(1, 3, 2), offsets(0, 0, 1), offsets(2, 1, 0)});
}

// Look-back tiles without stages whose input or mask lies off their runs'
// vector grid load each warp's run lane by lane (the policy's:
// LookbackPolicy::kLaneRunsWithoutStages); results off the grid leave
// through the warp's scratch. sm_80's plans and code run here
// from their PTX (SCANJIT_RUN_ARCH): few long odd rows and odd 1-D sizes of
// every element size, masks, both directions, exclusive, i64 results, each
// pointer on the grid and off it, and input and output off it apart. Each
// tile looks back on its own (reread_shares=0: few rows otherwise take
// shares read twice, RereadSharesOfSm80; many rows still look back a tile
// at a time).
TEST(Edges, LookbackLaneRunsOfSm80) {
  ScopedTuning tileByTile("reread_shares=0");
  const std::vector<std::string> specs = {
      "sum f32[3,500003] dim=1",          "max bf16[2,1000001] dim=1 mask reverse",
      "sum i32[4,300001] dim=1 exclusive", "logsumexp f16[3,300001] dim=1",
      "sum u8[2,900001] dim=1 mask",       "prod f64[2,200001] dim=1 reverse exclusive",
      "min i16[5,400003] dim=1 mask",      "sum f32[1000003] dim=0",
      "sum f16[2000001] dim=0 reverse",    "sum f32[2,1048576] dim=1",
  };
  for (const std::string &text : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(text, plan, Target{80}));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << text;
    EXPECT_EQ(plan.stages, 0) << text;
    EXPECT_TRUE(plan.laneRuns) << text;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  ScopedRunArch asSm80("sm_80");
  expectCasesPass(specs, {CaseOptions{}, offsets(1, 3, 2), offsets(0, 0, 1), offsets(2, 1, 0)});
}

// Without stages, narrow columns packed as Lanes items whose warp runs (and
// their masks' items) load and store by lanes (packed_direct=1 packs every
// group here; the policy, ColumnPolicy::kPackedWithoutStages, a power of
// two of lanes in groups of up to 16 bytes, and unmasked wider ones of
// 4-byte accumulators in tiles of their own). sm_80's plans and code run
// here from their PTX: 2 to 16 lanes (16 published in two parts) of every
// element size, an outer line dim, every op but log-sum-exp, masks, both
// directions, exclusive, i64 results, on the grid and off it; a masked one
// whose runs on the grid would not go by lanes stays unpacked.
TEST(Edges, PackedLanesWithoutStagesOfSm80) {
  const std::vector<std::string> specs = {
      "sum f32[1000003,3] dim=0",           "sum f32[8,100003,4] dim=1 mask",
      "prod f64[300001,2] dim=0 reverse",    "max u8[200003,16] dim=0 exclusive",
      "min i8[300001,8] dim=0 reverse mask", "sum i32[500001,4] dim=0",
      "sum f16[700001,4] dim=0 reverse exclusive mask", "max bf16[400001,8] dim=0",
      "sum f32[150001,16] dim=0 mask",      "min f32[300001,6] dim=0",
      "max u8[200003,16] dim=0 mask reverse", "sum f32[300001,8] dim=0 reverse",
      "max i32[200001,8] dim=0 exclusive",    "min i8[4,100003,16] dim=1 reverse",
      "sum f16[300001,16] dim=0 reverse",      "max f32[100003,16] dim=0 exclusive",
      "min i16[100001,16] dim=0 exclusive",
  };
  ScopedTuning tune("packed_direct=1");
  for (const std::string &text : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(text, plan, Target{80}));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << text;
    EXPECT_EQ(plan.stages, 0) << text;
    EXPECT_GT(plan.packedLanes, 1) << text;
    EXPECT_TRUE(plan.laneRuns) << text;
  }
  {
    ScopedTuning vectors("packed_direct=1,lanes_on_grid=0");
    KernelPlan masked;
    ASSERT_TRUE(planOf("sum f32[1000003,4] dim=0 mask", masked, Target{80}));
    EXPECT_EQ(masked.packedLanes, 0);
  }
  ScopedTuning again("packed_direct=1");
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  ScopedRunArch asSm80("sm_80");
  expectCasesPass(specs, {CaseOptions{}, offsets(1, 3, 2), offsets(0, 1, 3)});
}

// Look-back tiles by lanes in shares read twice (reread_shares=1, the
// policy's: LookbackPolicy::kRereadShares): each block totals its share,
// looks back once over the shares before it, and reads its tiles again to
// scan them, each tile's loads issued a tile early where every run goes by
// lanes (the policy's lanes_on_grid; a few cases also without). sm_80's
// plans and code run here from their PTX: 1-D and few rows of every element
// size, shares of one tile and of many, masks, both directions, exclusive,
// i64 results, on the grid and off it; each case runs twice, so the blocks'
// count resets the workspace across launches.
TEST(Edges, RereadSharesOfSm80) {
  const std::vector<std::string> specs = {
      "sum f32[4194304] dim=0",            "sum f32[1048573] dim=0 reverse",
      "max bf16[4,1000003] dim=1 mask reverse", "sum i32[2,3000001] dim=1 exclusive",
      "prod f64[2097152] dim=0 mask",      "sum u8[8388608] dim=0 mask reverse exclusive",
      "min i16[3,2000001] dim=1",          "sum f16[6000001] dim=0 exclusive",
  };
  const std::vector<std::string> byVectors = {specs[0], specs[2], specs[4]};
  for (const char *tuning : {"reread_shares=1", "reread_shares=1,lanes_on_grid=0"}) {
    ScopedTuning tune(tuning);
    for (const std::string &text : specs) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(text, plan, Target{80}));
      EXPECT_EQ(plan.family, KernelFamily::RowLookback) << text;
      EXPECT_TRUE(plan.laneRuns) << text;
      EXPECT_GT(plan.rereadShare, 0) << text;
    }
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  ScopedRunArch asSm80("sm_80");
  {
    ScopedTuning tune("reread_shares=1");
    expectCasesPass(specs, {CaseOptions{}, offsets(1, 3, 2), offsets(0, 0, 1)});
  }
  ScopedTuning vectors("reread_shares=1,lanes_on_grid=0");
  expectCasesPass(byVectors, {CaseOptions{}, offsets(1, 3, 2)});
}

// Runs on their vector grid by lanes too (lanes_on_grid=1, the policy's but
// for few rows and log-sum-exp of 4-byte elements): rows without stages and
// look-back tiles by lanes, sm_80's plans and code run here from their PTX,
// of every element size, masks, both directions, exclusive, i64 results, on
// the grid (what the knob changes) and off it.
TEST(Edges, RunsOnTheGridByLanesOfSm80) {
  const std::vector<std::string> specs = {
      "sum f32[300,4096] dim=1",           "max bf16[600,20000] dim=1 mask reverse",
      "sum i32[400,4096] dim=1 exclusive", "logsumexp f32[100,20001] dim=1",
      "sum u8[300,10000] dim=1 mask",      "prod f64[2,200000] dim=1 reverse exclusive",
      "sum f32[1048576] dim=0",            "sum f16[2000000] dim=0 reverse",
      "min i16[5,400000] dim=1 mask",      "sum i32[3,300000] dim=1 mask",
  };
  ScopedTuning tune("lanes_on_grid=1");
  for (const std::string &text : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(text, plan, Target{80}));
    EXPECT_EQ(plan.stages, 0) << text;
    EXPECT_TRUE(plan.lanesOnGrid) << text;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  ScopedRunArch asSm80("sm_80");
  expectCasesPass(specs, {CaseOptions{}, offsets(1, 3, 2), offsets(0, 0, 1)});
}

// Without stages (sm_75; sm_80 without the word pipeline) few columns take
// pieces of their register plan, as many as the policy gives (the first
// two) or pieces=N asks: sm_75's plans and code run here from their PTX
// (SCANJIT_RUN_ARCH), a few pieces and many, a window of 8 and span totals,
// every element size, masks, both directions, exclusive, on the grid and
// off it.
TEST(Edges, ColumnRegisterPiecesOfSm75) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "sum f32[200003,100] dim=0"},
      {"", "max f16[4097,1000] dim=0 mask"},
      {"pieces=7", "sum f32[100003,100] dim=0 mask reverse"},
      {"pieces=64", "prod f64[60001,40] dim=0 exclusive"},
      {"pieces=300", "max bf16[50001,333] dim=0"},
      {"pieces=1000", "sum f32[65536,336] dim=0"},
      {"pieces=200,piece_spans=1", "min i8[60000,96] dim=0 mask"},
      {"pieces=500,piece_spans=1", "logsumexp f32[20001,33] dim=0 reverse exclusive"},
      {"pieces=40", "sum i32[20000,70] dim=0 reverse exclusive"},
      {"pieces=3", "sum f16[5003,4097] dim=0 mask"},
  };
  for (const auto &[tuning, text] : cases) {
    ScopedTuning tune(tuning.c_str());
    KernelPlan plan;
    ASSERT_TRUE(planOf(text, plan, Target{75}));
    EXPECT_EQ(plan.family, KernelFamily::Column) << text;
    EXPECT_EQ(plan.stages, 0) << text;
    EXPECT_GT(plan.pieces, 1) << text;
    EXPECT_EQ(plan.pieceSpans, tuning.find("piece_spans=1") != std::string::npos) << text;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  ScopedRunArch asSm75("sm_75");
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(1, 3, 2)});
}

// A single line's 33 to 160 columns of 2- and 4-byte elements with pieces,
// and several lines' where it leaves fewer columns idle (blocks asking two
// an SM of ptxas): one panel as wide as the columns, a column a thread
// (ColumnPolicy::kFittedPanelMaxColumns): blocks of 5 and 6 warps a group,
// groups halved so that two blocks fit an SM (4 -> 2), a panel's last warp
// part idle, rows on and off the grid (on it, from 64 columns, in place of
// tiles of whole rows: ColumnPolicy::kTilesOnGridMaxColumns), every op and flag.
TEST(Edges, ColumnsTakeOnePanelFittedToThem) {
  const std::vector<std::string> specs = {
      // Several lines, where the fitted panel leaves fewer columns idle.
      "sum f16[6,20001,150] dim=1 mask reverse", "max bf16[5,12001,136] dim=1 exclusive",
      "min i32[4,9001,141] dim=1 mask",          "prod f32[3,10007,159] dim=1 reverse exclusive",
      "min i16[7,5003,155] dim=1",
      // A single line.
      "sum f16[60001,128] dim=0",                  "sum bf16[50003,159] dim=0 mask reverse",
      "max f16[40001,150] dim=0 exclusive",        "prod f32[20011,150] dim=0 mask",
      "sum f32[70001,123] dim=0 reverse exclusive", "max f32[30001,96] dim=0 mask",
      "sum i32[50001,80] dim=0 exclusive",         "min i16[40003,147] dim=0",
      "sum i16[30001,140] dim=0 mask reverse",     "prod f16[10007,160] dim=0 mask exclusive",
      "sum f32[100003,64] dim=0 mask reverse",     "max bf16[70001,96] dim=0", // (on the grid: not tiles)
      // Asked for two blocks an SM, kept with a few bytes of spills (ptxas 13.0).
      "sum i32[50003,133] dim=0",                  "prod i32[40001,158] dim=0 mask exclusive",
  };
  for (const std::string &spec : specs) {
    KernelPlan plan;
    expectColumnPieces(spec, plan);
    EXPECT_EQ(plan.vector, 1) << spec;
    EXPECT_EQ(plan.threads / plan.groups, (plan.geometry.inner.size + 31) / 32 * 32) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// f16/bf16 sums and products on one line of at most two panels of 256
// that would leave more columns idle than panels of 64 take those
// (ColumnPolicy::kWidePanelsMaxIdlePanels), on and off the grid.
TEST(Edges, TwoByteSumsTakeNarrowPanelsWhereWideOnesLeaveColumnsIdle) {
  const std::vector<std::string> specs = {"prod f16[30011,280] dim=0 mask reverse", "sum bf16[40009,179] dim=0 exclusive",
                                          "sum f16[20011,320] dim=0 reverse"};
  for (const std::string &spec : specs) {
    KernelPlan plan;
    expectColumnPieces(spec, plan);
    EXPECT_EQ(plan.threads / plan.groups * plan.vector, 64) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// The column panels' H200 block shapes (ColumnPolicy): unmasked max and min
// of f16 and bf16 in panels of 128, two threads a column;
// masked 4-byte sums with pieces keeping four threads a column; f16/bf16
// sums on the grid with pieces in f32's panels of 64 (blocks of 64). On and
// off the grid, both directions, exclusive.
TEST(Edges, ColumnBlockShapesOfTheH200) {
  struct Shape {
    std::string spec;
    int threads, groups;
  };
  const std::vector<Shape> shapes = {
      {"max bf16[6001,1024] dim=0", 128, 2},        {"min bf16[8009,1500] dim=0 reverse", 128, 2},
      {"max f16[4001,2048] dim=0 exclusive", 128, 2}, {"min f16[5003,1000] dim=0 reverse exclusive", 128, 2},
      {"sum f32[8009,1024] dim=0 mask reverse", 128, 4}, {"prod f32[6001,1001] dim=0 mask", 128, 4},
      {"sum f32[5003,333] dim=0 mask exclusive", 128, 4}, {"sum f16[8192,1024] dim=0", 64, 2},
      {"prod bf16[6001,2048] dim=0 mask exclusive", 64, 2}, {"sum bf16[4001,1000] dim=0 reverse", 64, 2},
  };
  std::vector<std::string> specs;
  for (const Shape &shape : shapes) {
    KernelPlan plan;
    expectColumnPieces(shape.spec, plan);
    EXPECT_EQ(plan.threads, shape.threads) << shape.spec;
    EXPECT_EQ(plan.groups, shape.groups) << shape.spec;
    specs.push_back(shape.spec);
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

// Max and min of 1-byte elements in panels of 128, two threads a column,
// 16 rows ahead (ColumnPolicy::kTwoThreadColumnsByte*): on the grid, masked
// or not, by the policy; off it (unmasked, from 2^26 elements on) tuned
// onto shapes small enough for a test. Short last chunks, both directions,
// exclusive, and offset pointers (which the runtime plans off the grid).
TEST(Edges, ByteMaxMinColumnsTakeTwoThreads) {
  const std::vector<std::string> specs = {"max u8[6001,1024] dim=0", "min i8[8009,2048] dim=0 reverse exclusive",
                                          "max i8[5003,1536] dim=0 exclusive mask",
                                          "min u8[3001,4096] dim=0 mask reverse"};
  for (const std::string &spec : specs) {
    KernelPlan plan;
    expectColumnPieces(spec, plan);
    EXPECT_FALSE(plan.edges) << spec;
    EXPECT_EQ(plan.threads, 128) << spec;
    EXPECT_EQ(plan.groups, 2) << spec;
    EXPECT_EQ(plan.unroll, 16) << spec;
  }
  KernelPlan large;
  expectColumnPieces("min u8[4000000,130] dim=0", large);
  EXPECT_TRUE(large.edges);
  EXPECT_EQ(large.groups, 2);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
  const std::string offGrid = "threads=128,groups=2,unroll=16";
  expectTunedCasesPass({{offGrid, "min u8[40001,130] dim=0"},
                        {offGrid, "max i8[30001,150] dim=0 reverse exclusive"},
                        {offGrid, "max u8[2001,2521] dim=0"}},
                       {offsets(0, 0, 0), offsets(3, 1, 0)});
}

// A single line of 129 to 192 such byte columns in one panel of 192, blocks
// of 192 (ColumnPolicy::kTwoThreadColumnsByteOnePanelThreads): three warps a
// group, the last partly idle; on the grid by the policy, off it tuned onto
// shapes small enough for a test; both directions, exclusive, masks and
// offset pointers.
TEST(Edges, ByteMaxMinColumnsOfAPanelAndAHalfTakeOnePanel) {
  const std::vector<std::string> specs = {"max i8[3000,144] dim=0", "min i8[2001,176] dim=0 mask reverse exclusive",
                                          "max u8[3001,160] dim=0 exclusive", "min u8[4003,192] dim=0 reverse"};
  for (const std::string &spec : specs) {
    KernelPlan plan;
    expectColumnPieces(spec, plan);
    EXPECT_FALSE(plan.edges) << spec;
    EXPECT_EQ(plan.threads, 192) << spec;
    EXPECT_EQ(plan.groups, 2) << spec;
    EXPECT_EQ(plan.grid, plan.pieces) << spec << ": one panel";
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
  const std::string offGrid = "threads=192,groups=2,unroll=16";
  expectTunedCasesPass({{offGrid, "min u8[40001,130] dim=0"},
                        {offGrid, "max i8[30001,150] dim=0 reverse exclusive"},
                        {offGrid, "min i8[20001,191] dim=0 mask"}},
                       {offsets(0, 0, 0), offsets(3, 1, 0)});
}

// Unmasked pipelined rows of 2-byte elements take blocks of 256
// (StagePolicy::kNarrowUnmaskedRowThreads), fitted to rows of a few tiles.
TEST(Edges, TwoByteRowsInBlocksOf256) {
  const std::vector<std::string> wide = {"sum bf16[600,20000] dim=1", "max i16[800,12000] dim=1 exclusive",
                                         "sum f16[520,8192] dim=1 reverse"};
  for (const std::string &spec : wide) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.family, KernelFamily::Row) << spec;
    EXPECT_GT(plan.stages, 0) << spec;
    EXPECT_EQ(plan.threads, 256) << spec;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  std::vector<std::string> specs = wide;
  specs.insert(specs.end(), {"prod f16[1000,10001] dim=1 reverse", "min bf16[700,9001] dim=1 exclusive"});
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

TEST(Edges, TallPanelsByWholeRowTiles) {
  // Tiles of whole contiguous rows, one bulk copy each at any alignment,
  // chained by look-back per column (column_tiles.cuh): every op, element
  // size and flag, several lines, short last tiles, scans shorter than a
  // tile, pointers each apart in their 16-byte words.
  const std::vector<std::string> specs = {
      "sum f32[400003,20] dim=0 mask reverse", "max bf16[700001,23] dim=0 exclusive",
      "sum f64[300007,17] dim=0",              "prod f64[200003,17] dim=0 mask reverse exclusive",
      "min i32[300001,32] dim=0 reverse",      "sum i32[250001,45] dim=0 mask",
      "sum u8[300001,40] dim=0 exclusive",     "sum f16[200003,33] dim=0 mask",
      "logsumexp f32[200003,20] dim=0 mask reverse", "logsumexp f32[100001,48] dim=0 exclusive",
      "sum f32[6,30001,21] dim=1 reverse",     "max f32[100003,79] dim=0 mask",
      "sum f32[257,40] dim=0 mask exclusive",  "sum bf16[3,1000,72] dim=1",
      // Windows shorter than 128 tiles (small pipeline copies): 96 and 64.
      "prod i16[300007,52] dim=0 mask reverse", "sum i8[400001,49] dim=0",
      "max f64[200003,40] dim=0 mask exclusive", "sum i32[100003,78] dim=0 mask reverse",
      "logsumexp f64[100003,33] dim=0 mask",
      // Past 80 columns where the pipeline's copies would be small.
      "sum f16[100003,98] dim=0 mask reverse", "max bf16[50001,100] dim=0 mask exclusive",
      "sum bool[100000,127] dim=0",            "sum f16[100003,81] dim=0",
      // 1-byte elements masked: shorter tiles, so that their stages fit.
      "sum i8[200003,20] dim=0 mask reverse",  "max u8[100003,33] dim=0 mask exclusive",
      "min bool[100003,100] dim=0 mask",       "prod i16[50001,62] dim=0 mask reverse",
      // Tiles of 64 KB (more than 32 columns, unmasked).
      "sum f32[200003,63] dim=0 reverse exclusive", "max i32[150001,56] dim=0",
  };
  for (const std::string &spec : specs)
    expectPlanWith(spec, KernelFamily::Column, &KernelPlan::wholeRows);
  for (const auto &[spec, perLane] : {std::pair<const char *, int>{"prod i16[300007,52] dim=0 mask reverse", 3},
                                      {"max f64[200003,40] dim=0 mask exclusive", 2}}) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_EQ(plan.lookbackPerLane, perLane) << spec;
  }
  // 32 slices a column (blocks of 1024, tuned): every lane of a warp's
  // scan of a column's slice totals holds one.
  const std::vector<std::string> sliced = {"sum f32[400003,20] dim=0 mask reverse",
                                           "logsumexp f32[200003,21] dim=0 exclusive"};
  {
    ScopedTuning wide("threads=1024");
    for (const std::string &spec : sliced) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(spec, plan));
      EXPECT_TRUE(plan.wholeRows && plan.groups == 32) << spec;
    }
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2), offsets(3, 1, 0)});
  ScopedTuning wide("threads=1024");
  expectCasesPass(sliced, {offsets(0, 0, 0), offsets(1, 3, 2)});
}

TEST(Edges, WholeRowTilesLookBackOverSpanTotals) {
  // Tiles of whole rows whose windows read span totals (piece_spans=1,
  // column_tiles.cuh; tuned only so far): lines of hundreds of tiles (the
  // base 129 tiles back), of a few dozen (spans cut at the line's start),
  // batches of lines, masks, both directions, exclusive, log-sum-exp, 8-,
  // 2- and 1-byte elements; small tiles (tile_rows) make many of them.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"piece_spans=1,tile_rows=50", "sum f32[30001,20] dim=0"},
      {"piece_spans=1,tile_rows=40", "max f64[3,9001,21] dim=1 mask reverse"},
      {"piece_spans=1,tile_rows=64", "logsumexp f32[20001,30] dim=0 exclusive"},
      {"piece_spans=1,tile_rows=30", "sum i32[5,1003,37] dim=1 reverse exclusive"},
      {"piece_spans=1", "sum f16[200003,33] dim=0"},
      {"piece_spans=1,tile_rows=24", "min u8[40001,24] dim=0 mask"},
      {"piece_spans=1,tile_rows=48", "prod f32[20000,17] dim=0 reverse"},
  };
  checkTunedPlans(cases, [](const KernelPlan &plan, const std::string &what) {
    EXPECT_TRUE(plan.wholeRows) << what;
    EXPECT_TRUE(plan.pieceSpans) << what;
    EXPECT_EQ(plan.lookbackPerLane, 1) << what;
  });
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(1, 1, 1), offsets(0, 0, 3)});
}

TEST(Edges, MiddleSizedScansHoldTheirShares) {
  SCANJIT_REQUIRE_GPU();
  // Scans of a few rows whose tiles all fit the SMs' shared memory: each
  // block holds its share of a row in its stages and looks back once
  // (lookback_shares.cuh). 1-D and 2 to 48 rows, shares of 3 to 8 tiles, a
  // short last tile, a row's short last share, a last block with stages
  // left empty, every op but log-sum-exp, every flag; outputs on and off
  // the input's grid, and an input a whole word in. Each case runs twice
  // (the second launch finds the ticket counter reset by the first) and
  // must match bit for bit.
  const std::vector<std::string> specs = {
      "sum f32[4194304] dim=0",          "sum f32[3000004] dim=0 reverse exclusive",
      "max bf16[4194304] dim=0 mask",    "min f16[5000000] dim=0 reverse",
      "prod f64[2097152] dim=0 mask reverse exclusive", "min i32[4194304] dim=0 exclusive",
      "sum f16[8388608] dim=0 exclusive", "max u8[6000000] dim=0",
      "sum f32[4194304] dim=0 mask reverse", "sum bf16[12000000] dim=0",
      "sum f32[4,1000000] dim=1 mask reverse", "max bf16[16,524288] dim=1 exclusive",
      "prod f64[4,524288] dim=1 mask",   "sum f32[2,2097152] dim=1 reverse exclusive",
      "sum f32[5,1048576] dim=1 mask",   "sum f32[3,1000004] dim=1 exclusive",
      // 40 and 48 rows in shares of 5 tiles: one kernel, two grids.
      "sum f32[40,100000] dim=1 mask",   "sum f32[48,100000] dim=1 mask",
  };
  for (const std::string &spec : specs)
    expectPlanWith(spec, KernelFamily::RowLookback, &KernelPlan::heldShares);
  expectCasesPass(specs, {offsets(0, 0, 1), offsets(16, 16, 0)});
  // Rows off the 16-byte grid (odd lengths; pointers a few elements in,
  // which take the off-grid plan): tiles on the input's grid, the edges
  // copied by warp 0's lanes, a row's spare last tile empty. 2- and 1-byte
  // elements by the policy, 4- and 8-byte ones tuned.
  auto expectHeldEdges = [](const std::vector<std::string> &specs) {
    for (const std::string &spec : specs) {
      expectEdgesPlan(spec, KernelFamily::RowLookback);
      expectPlanWith(spec, KernelFamily::RowLookback, &KernelPlan::heldShares);
    }
    expectCasesPass(specs, {offsets(0, 0, 0), offsets(1, 3, 2), offsets(3, 1, 0)});
  };
  expectHeldEdges({"sum bf16[10000001] dim=0 reverse", "max f16[4,2097151] dim=1 exclusive",
                   "max u8[6000001] dim=0 mask", "sum f16[40,200001] dim=1 mask reverse"});
  expectCasesPass({"sum bf16[4,2097152] dim=1 reverse exclusive", "min f16[8388608] dim=0 mask"},
                  {offsets(1, 2, 0), offsets(3, 0, 3)});
  {
    ScopedTuning held("held_shares=1");
    expectHeldEdges({"sum f32[4194303] dim=0", "sum f32[3,1000003] dim=1 mask",
                     "prod f64[2097151] dim=0 mask reverse exclusive", "min i32[4194301] dim=0 exclusive"});
  }
  // Shares of one or two tiles (tuned): results leave from registers.
  ScopedTuning held("held_shares=1,blocks=128");
  const std::vector<std::string> small = {"sum f32[1048576] dim=0 mask", "max f32[400000] dim=0 reverse exclusive"};
  for (const std::string &spec : small)
    expectPlanWith(spec, KernelFamily::RowLookback, &KernelPlan::heldShares);
  expectCasesPass(small, {offsets(0, 0, 1)});
}

TEST(Edges, HeldSharesOutnumberingTheResidentBlocks) {
  // A grid of 1024 shares of one tile, four blocks an SM at most (512
  // threads each): early blocks end before late ones start, and the late
  // ones must still find their own shares (LookbackWorkspace::end_block).
  // Each case runs twice: the second launch finds the header reset.
  ScopedTuning held("held_shares=1,blocks=1024");
  const std::vector<std::string> specs = {"sum f32[4194304] dim=0 mask", "max f32[4194304] dim=0 reverse exclusive"};
  for (const std::string &spec : specs) {
    expectPlanWith(spec, KernelFamily::RowLookback, &KernelPlan::heldShares);
    KernelPlan plan;
    ASSERT_TRUE(planOf(spec, plan));
    EXPECT_GT(plan.grid, 4 * 132) << spec << ": the grid must outnumber an H100's or H200's resident blocks";
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 0)});
}

TEST(Edges, NarrowColumnsAreLinesOfTheLookback) {
  // Rows of at most 16 bytes: each column a line of the look-back, a block
  // loading a tile step of all of a group's columns together through
  // shared memory (lookback_lanes.cuh). No stages, any alignment: costly
  // combines, and in problems of too few tiles for one block an SM, groups
  // of 33-64 bytes of accumulators that no lane threads tile a warp for
  // (f32 x 9-15, f64 x 5-7; many tiles pack them: WideLanesInUnevenParts).
  // Byte sums x 8, once among them, take packed lane threads on the timed
  // arch, few tiles too (checked here as such, and in
  // PackedLanesPublishedInParts). (Log-sum-exp lanes that tile a warp are packed:
  // LogSumExpLanesAThreadALane; cheap combines of narrower groups too:
  // the next test; groups in parts: PackedLanesPublishedInParts. A view
  // with no contiguous dim at a stride of 16 bytes or less stages its dense
  // spans: LinesAtAStrideOfTheirOwn.)
  const std::vector<std::string> specs = {
      "logsumexp f32[300001,5] dim=0 reverse", "sum f64[100001,5] dim=0 mask",
      "logsumexp f64[2,100001,3] dim=1 exclusive", "logsumexp f32[200000,3] dim=0 mask reverse exclusive",
      "logsumexp f32[4,100000,3] dim=1",     "sum i32[100001,5] dim=0 reverse",
      "max f64[150001,6] dim=0 reverse",     "sum u8[500000,1] dim=0 strides=[7,1]",
      "max i64[100000,7] dim=0 reverse exclusive", "max f64[100001,6] dim=0 mask exclusive",
      "sum f32[100000,12] dim=0 mask reverse",  "logsumexp f32[60000,12] dim=0 exclusive",
      "sum f32[80000,10] dim=0",                "sum u8[200000,8] dim=0 mask",
      "min f32[100001,15] dim=0 mask exclusive",
  };
  const std::string byteSums = "sum u8[200000,8] dim=0 mask";
  for (const std::string &s : specs)
    if (s.find("strides") == std::string::npos && s != byteSums)
      expectUnstagedLookback(s);
  KernelPlan packed;
  ASSERT_TRUE(planOf(byteSums, packed));
  EXPECT_TRUE(packed.laneThreads && packed.packedLanes == 8 && packed.stages >= 3) << byteSums;
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(1, 3, 2)});
}

TEST(Edges, LinesAtAStrideOfTheirOwn) {
  // x[::2] and the like at 2 to 16 bytes an element: the look-back's tiles
  // staged as their dense spans (span_pipeline.cuh), each warp picking its
  // elements from the stage; odd lengths, the last tile partial, pointers a
  // few elements in (each tile's span then starts inside a word, and the
  // line's last word is the issuing thread's), strided and contiguous masks,
  // outputs at a stride, every flag.
  const std::vector<std::string> staged = {
      "sum f32[300001] dim=0 strides=[2] mask reverse",
      "sum f16[1000003] dim=0 strides=[2]",
      "max f16[500001] dim=0 strides=[3] exclusive",
      "min bf16[3,400001] dim=1 strides=[800002,2] mask",
      "logsumexp f32[200000] dim=0 strides=[2] reverse exclusive",
      "sum u8[900001] dim=0 strides=[2] reverse",
      "prod f64[300007] dim=0 strides=[2]",
      "sum i32[2,350001] dim=1 strides=[700002,2] exclusive",
      "sum f32[400003] dim=0 strides=[2] mask mask_strides=[2] exclusive",
      "max u8[700001] dim=0 strides=[16] mask mask_strides=[3] reverse",
      "sum f16[600001] dim=0 strides=[4] out_strides=[3]",
      "sum i32[2,300001] dim=1 strides=[600002,2] out=i64 out_strides=[1,2] reverse",
  };
  for (const std::string &s : staged) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << s;
    EXPECT_GT(plan.stages, 0) << s;
    EXPECT_TRUE(plan.edges) << s; // any pointer
  }
  // Wider strides (a sector an element) and columns of a few, whose spans
  // overlap, keep each thread's loads at the stride.
  const std::vector<std::string> unstaged = {
      "sum f32[300001] dim=0 strides=[7] reverse",
      "max f64[200003] dim=0 strides=[3] mask",
      "sum f32[2,300001] dim=1 strides=[1,3] exclusive",
  };
  for (const std::string &s : unstaged)
    expectUnstagedLookback(s);
  std::vector<std::string> all = staged;
  all.insert(all.end(), unstaged.begin(), unstaged.end());
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(all, {CaseOptions{}, offsets(1, 3, 2)});
}

TEST(Edges, NarrowColumnsPackedIntoOneRow) {
  // Narrow columns on the 16-byte grid, masked or not, of a cheap combine: one
  // row of packed rows through the pipelined look-back (packed_lanes.cuh),
  // every dtype's lanes, both directions, batches around the group, row
  // counts that end inside a tile, an input and a mask a few elements in
  // (the spec's off-grid plan: the stages shifted, each tile read from its
  // place in its first word, apart from the output's) and an output a few
  // elements in (its results stored through the lanes).
  const std::vector<std::string> specs = {
      "sum f32[300000,2] dim=0",           "sum f32[1048576,2] dim=0 reverse exclusive",
      "max f64[100001,2] dim=0 exclusive", "sum f32[4,100000,3] dim=1",
      "sum i32[300000,2] dim=0 reverse",   "min bf16[150004,4] dim=0",
      "max f16[200008,2] dim=0 reverse",   "prod f32[70000,4] dim=0",
      "sum u8[500000,2] dim=0",            "min i16[300000,2] dim=0 exclusive",
      "sum f32[3,5,40000,2] dim=2 reverse", "sum i64[100000,2] dim=0 out=f64",
      "sum f32[300000,2] dim=0 mask",      "max f64[100008,2] dim=0 mask reverse exclusive",
      "prod f16[200000,4] dim=0 mask",     "sum f32[4,100000,3] dim=1 mask reverse",
      // Groups of 32 bytes (blocks of 256).
      "sum f32[100000,8] dim=0 mask reverse", "prod bf16[150000,8] dim=0",
      "min f32[200003,8] dim=0 exclusive",    "max f64[100000,4] dim=0 mask",
      "sum i32[150000,4] dim=0 reverse exclusive", "max i32[120000,8] dim=0",
      "sum f16[4,50000,8] dim=1",
      // 2-byte elements in 4-byte accumulators: blocks of 256 and 8-21 items
      // (2-4 lanes), blocks of 128 and 8 items (5-8 lanes).
      "sum bf16[300000,2] dim=0 mask reverse", "prod f16[70000,3] dim=0 exclusive",
      "prod bf16[200001,2] dim=0 reverse exclusive", "max i16[100001,3] dim=0 mask reverse",
      "sum bf16[150000,8] dim=0 mask reverse exclusive", "max i16[120000,5] dim=0 reverse",
      "sum f16[200000,6] dim=0 exclusive",    "min f16[100000,7] dim=0 mask",
      // One group of any length: the input's, mask's and output's last
      // partial 16-byte word copied apart (items of 3, 5 and 7 lanes
      // straddle words; the last tile of bf16[204801,2] is one item).
      "sum f32[300001,2] dim=0",              "max f16[200003,4] dim=0 reverse",
      "sum f32[100001,3] dim=0 mask exclusive", "prod bf16[150001,7] dim=0 mask reverse",
      "min i16[70001,5] dim=0 exclusive",     "sum f64[100001,2] dim=0 mask reverse exclusive",
      "sum u8[500001,2] dim=0 mask",          "sum bf16[204801,2] dim=0 mask",
      "max f32[100003,4] dim=0 mask reverse",
  };
  // Groups in lines whose strides are not whole words: shifted stages (edges).
  const std::vector<std::string> shifted = {
      "sum f32[2,300001,2] dim=1",            "sum f16[2,200003,3] dim=1 mask reverse",
      "max f64[2,100001,3] dim=1 exclusive",  "sum i32[3,300001,2] dim=1 reverse",
      "sum f32[2,200001,4] dim=1 mask exclusive", "max bf16[3,70001,8] dim=1 mask",
      "max bf16[2,200001,2] dim=1 reverse",
  };
  int laneThreadPlans = 0;
  for (const auto &[list, edges] : {std::pair(&specs, false), std::pair(&shifted, true)})
    for (const std::string &s : *list) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(s, plan));
      EXPECT_EQ(plan.family, KernelFamily::RowLookback) << s;
      EXPECT_GT(plan.stages, 0) << s;
      EXPECT_EQ(plan.edges, edges) << s;
      EXPECT_GT(plan.packedLanes, 1) << s;
      laneThreadPlans += plan.laneThreads;
    }
  EXPECT_GT(laneThreadPlans, 0) << "both ways of scanning packed lanes";
  EXPECT_LT(laneThreadPlans, int(specs.size())) << "both ways of scanning packed lanes";
  std::vector<std::string> all = specs;
  all.insert(all.end(), shifted.begin(), shifted.end());
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(all, {offsets(1, 0, 0), offsets(0, 0, 3), offsets(3, 1, 1)});
}

TEST(Edges, PackedLanesAThreadALaneInEveryBlock) {
  // A thread a lane (lane_threads.cuh) where the policy does not take it:
  // 2- and 1-byte elements, 8 lanes, blocks whose warps' lane totals
  // fill one round of 32 slots, two or four (512 threads of 4 and 8 lanes),
  // and tiles that end inside a warp's run; both directions, masks, and an
  // output a few elements in (its results stored through the lanes).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"lane_threads=1,lane_width=1", "max f16[200008,2] dim=0 reverse"},
      {"lane_threads=1,lane_width=1", "prod f16[200000,4] dim=0 mask"},
      {"lane_threads=1,lane_width=1", "sum u8[500000,2] dim=0 exclusive"},
      {"lane_threads=1,lane_width=1,threads=256", "sum f16[4,50000,8] dim=1 mask reverse"},
      {"lane_threads=1,lane_width=1,threads=512", "max u8[65536,8] dim=0 reverse exclusive"},
      {"lane_threads=1,lane_width=1,threads=512,items=5", "sum f32[300004,4] dim=0 mask reverse exclusive"},
      {"lane_threads=1,lane_width=1,threads=128,items=3", "max f64[100003,2] dim=0 exclusive"},
      {"lane_threads=1,lane_width=1,threads=1024,items=1", "sum i32[250000,4] dim=0"},
      {"lane_threads=1,lane_width=1,threads=256,items=7", "sum f32[200000,8] dim=0 mask"},
  };
  expectLaneThreadPlans(cases, /*words=*/false);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(0, 0, 3)});
}

TEST(Edges, PackedLanesAWordAThread) {
  // Lane threads holding 2, 4 or 8 adjacent lanes of each item (lane_width,
  // lane_threads.cuh), read from and written to the stage as one word: 2-,
  // 1-, 4- and 8-byte elements, one to eight threads an item, blocks of one
  // to four rounds of warp totals, an odd length, and lines off the grid;
  // each on the grid, with the output three elements in, and with the input
  // and mask off the grid (shifted stages, read element by element).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"lane_threads=1,lane_width=2", "sum f16[200000,4] dim=0 mask reverse"},
      {"lane_threads=1,lane_width=2", "max bf16[200008,2] dim=0 exclusive"},
      {"lane_threads=1,lane_width=2", "max i16[150000,4] dim=0 reverse exclusive"},
      {"lane_threads=1,lane_width=2,threads=512", "sum bf16[150000,8] dim=0 mask"},
      {"lane_threads=1,lane_width=2", "sum f16[200001,4] dim=0"},
      {"lane_threads=1,lane_width=2", "prod f16[3,70001,4] dim=1 mask"},
      {"lane_threads=1,lane_width=4", "max u8[300000,8] dim=0 mask reverse exclusive"},
      {"lane_threads=1,lane_width=2,threads=128,items=3", "min u8[100000,8] dim=0"},
      {"lane_threads=1,lane_width=2", "sum f32[300004,4] dim=0 reverse exclusive"},
      {"lane_threads=1,lane_width=2,threads=128,items=5", "max f64[100003,4] dim=0 mask"},
      // The policy's plans of byte elements (15 items, 13 masked over 8
      // bytes of accumulators an item, two lanes as a 2-byte word, in lines
      // off the grid too) and of masked 2-byte words (9 items).
      {"", "max u8[300000,8] dim=0 mask reverse"},
      {"", "min i8[500001,2] dim=0 exclusive"},
      {"", "max bool[200000,4] dim=0 reverse"},
      {"", "min u8[3,100001,2] dim=1 mask"},
      {"", "max i8[100000,8] dim=0 exclusive"},
      {"", "sum bf16[150000,8] dim=0 mask reverse"},
      {"", "min i8[300001,4] dim=0 mask exclusive"}, // a masked byte item of one thread
  };
  expectLaneThreadPlans(cases, /*words=*/true);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(0, 0, 3), offsets(1, 1, 1), offsets(3, 2, 0)});
}

TEST(Edges, TwoByteLaneWordsOfFourInShiftedStages) {
  // Lane threads holding four adjacent 2-byte lanes (16 bytes of 4-byte
  // accumulators an item) where the input or mask lies off the grid
  // (shifted stages: a thread's results do not land on its items, so it
  // holds its scan across the next tile instead of reading its items again;
  // ColumnPolicy::kShiftedTwoByteLaneWordsOfFour): 8 lanes, the policy's
  // off-grid plans, and 16 (published in parts) tuned; sums, products, max
  // and min, masks, both directions, an odd row count, lines of dim=1; the
  // input, mask and output at different places.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "sum f16[200001,8] dim=0"},
      {"", "max bf16[150001,8] dim=0 reverse"},
      {"", "prod f16[100000,8] dim=0 mask exclusive"},
      {"", "min bf16[120003,8] dim=0 mask reverse"},
      {"", "sum f16[5,20001,8] dim=1 reverse"},
      {"lane_threads=1,lane_width=4", "sum f16[100001,16] dim=0 reverse exclusive"},
  };
  expectLaneThreadPlans(cases, /*words=*/true);
  {
    ScopedTuning offGrid("off_grid=1");
    for (const auto &[tuning, spec] : cases) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(spec, plan));
      EXPECT_TRUE(plan.laneThreads && plan.laneWidth == 4 && plan.edges) << spec << ": words of four, shifted";
    }
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {offsets(1, 1, 1), offsets(3, 2, 0), offsets(0, 5, 2), offsets(2, 0, 7)});
}

// Unmasked groups of 16 or 32 bytes of 4- and 8-byte elements keep items of
// C lanes in shifted stages (ColumnPolicy::kShiftedWideLanesAsItems), and
// lane threads on the grid: f32 x 4 and x 8, f64 x 2, i32 x 4, i32 summed
// into i64 x 2; both directions; the input and output at different places.
TEST(Edges, WideLanesInShiftedStagesAsItems) {
  const std::vector<std::string> specs = {"sum f32[200001,4] dim=0", "max f32[100003,8] dim=0 reverse",
                                          "prod f64[150000,2] dim=0 exclusive", "min i32[100001,4] dim=0",
                                          "sum i32[200003,2] dim=0 reverse"};
  {
    ScopedTuning offGrid("off_grid=1");
    for (const std::string &spec : specs) {
      KernelPlan plan;
      ASSERT_TRUE(planOf(spec, plan));
      EXPECT_TRUE(plan.packedLanes > 1 && !plan.laneThreads && plan.edges) << spec << ": items of C lanes, shifted";
    }
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {CaseOptions(), offsets(1, 0, 2), offsets(3, 0, 0), offsets(2, 0, 5)});
}

TEST(Edges, ByteLanesAsWords) {
  // Max and min of byte lanes held four to a word (byte_lanes.cuh): u8 and
  // i8 (signed SIMD order), one word a thread and two (lane_width=8, the
  // policy's for 8 and 16 lanes in one block an SM, masked and in shifted
  // stages too), 4, 8 and 16 lanes (16 publish in parts), the policy's one
  // block an SM and two, masks, both directions, exclusive, an odd length;
  // on the grid, the output three elements in, and the input and mask off
  // the grid (shifted stages: words read and written byte by byte); words
  // of 4 of 23 items in as many tiles as four an SM (628 tiles:
  // ColumnPolicy::kLaneThreadByteWordItems). (Pairs and masked words of 4
  // in one block an SM: PackedLanesInOneBlockOfMoreItems.)
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "max u8[300001,16] dim=0"},
      {"", "max i8[3700001,4] dim=0 reverse exclusive"},
      {"", "min i8[200001,16] dim=0 reverse"},
      {"", "min i8[200000,16] dim=0 mask reverse exclusive"},
      {"", "max u8[600001,8] dim=0 mask reverse"},
      {"", "min u8[300001,16] dim=0 mask"},
      {"", "min i8[280000,8] dim=0 exclusive"},
      {"occupancy=2", "max i8[300000,16] dim=0 reverse"},
      {"occupancy=2", "min u8[250001,16] dim=0 mask"},
      {"lane_width=8", "max u8[300000,8] dim=0 exclusive"},
      {"lane_width=8,items=15", "min i8[200003,16] dim=0 mask reverse"},
      {"lane_threads=1,lane_width=4", "min i8[400000,4] dim=0 reverse exclusive"},
      {"lane_threads=1,lane_width=4", "max u8[3,100001,8] dim=1 mask"},
  };
  expectLaneThreadPlans(cases, /*words=*/true);
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(0, 0, 3), offsets(1, 1, 1), offsets(3, 2, 0)});
}

TEST(Edges, PackedLanesInOneBlockOfMoreItems) {
  // The kernels of ColumnPolicy::kPackedOneBlock* (one block an SM of more
  // items: the policy takes them from a few hundred tiles, which the unit
  // tests pin; here tuned onto smaller problems): four 2-byte lanes shifted
  // (20 items), masked (23) and as words (31), five 4-byte lanes masked
  // (10), u8/i8 pairs and masked words of four (31); both directions,
  // exclusive, odd lengths, at four placements (the off-grid ones in
  // shifted stages).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"occupancy=1,items=20", "sum f16[2,100003,4] dim=1 reverse exclusive"},
      {"occupancy=1,items=23", "sum f16[240001,4] dim=0 mask reverse"},
      {"occupancy=1,items=23", "max i16[200003,4] dim=0 mask exclusive"},
      {"occupancy=1,items=31", "min bf16[300001,4] dim=0 reverse exclusive"},
      {"occupancy=1,items=10", "max f32[110003,5] dim=0 mask exclusive"},
      {"occupancy=1,items=10", "min i32[150001,5] dim=0 reverse"},
      {"occupancy=1,items=31", "min u8[400001,2] dim=0 reverse exclusive"},
      {"occupancy=1,items=31", "max i8[300003,4] dim=0 mask"},
  };
  checkTunedPlans(cases, [](const KernelPlan &plan, const std::string &what) {
    EXPECT_EQ(plan.minBlocksPerSm, 1) << what;
    EXPECT_GE(plan.stages, 3) << what;
    EXPECT_GT(plan.packedLanes, 1) << what;
  });
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(0, 0, 3), offsets(1, 1, 1), offsets(3, 2, 0)});
}

TEST(Edges, PackedLanesPublishedInParts) {
  // Groups of 64 bytes of accumulators (16 lanes of 4-, 2- and 1-byte
  // elements, 8 of 8-byte ones, a lane a thread) that the look-back
  // publishes in two parts of 32 bytes, each read by warps of its own
  // (PublishedParts, flagged_value.cuh): masks, both directions, exclusive,
  // lines of a 3-D tensor, odd lengths and windows whose base lies in the
  // row; each on the grid, with the output three elements in, and with the
  // input and mask off the grid (shifted stages).
  const std::vector<std::string> specs = {
      "sum f32[100003,16] dim=0",
      "max i32[90001,16] dim=0 mask reverse",
      "min f32[3,40001,16] dim=1 exclusive",
      "max u8[200000,16] dim=0",
      "min i8[150001,16] dim=0 mask exclusive",
      "sum f16[120001,16] dim=0 mask reverse",
      "max bf16[100000,16] dim=0 reverse exclusive",
      "prod f32[60001,16] dim=0",
      "sum f64[100003,8] dim=0 reverse",
      "max f64[90001,8] dim=0 mask exclusive",
      "min i64[120000,8] dim=0",
      "sum i32[100001,8] dim=0 mask",
      "prod i32[90001,8] dim=0 reverse",
      "prod f64[70001,8] dim=0 mask",
      // Narrower integers into i64 x 8 (one block an SM of 31 items: their
      // results, wider than the input, land on other threads' items in the
      // stage, so the items are scanned again before the look-back's block
      // barrier), and outputs narrower than the input (their scans held).
      "sum u8[200001,8] dim=0 mask reverse",
      "sum i16[150000,8] dim=0 exclusive",
      "prod i8[100003,8] dim=0",
      "sum bool[120000,8] dim=0 reverse exclusive",
      "sum i32[90001,8] dim=0 mask reverse exclusive",
      "sum f64[100003,8] dim=0 out=f32",
      "max f32[90001,16] dim=0 mask out=f16",
  };
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_EQ(plan.packedLanes, s.find(",8]") != std::string::npos ? 8 : 16) << s;
    EXPECT_TRUE(plan.laneThreads) << s;
    EXPECT_GT(plan.stages, 0) << s;
    EXPECT_EQ(plan.lookbackWarps % 2, 0) << s << ": warps of each part";
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {CaseOptions{}, offsets(0, 0, 3), offsets(1, 1, 1), offsets(3, 2, 0)});
}

TEST(Edges, WidenedGroupsOfFourTakeLaneThreads) {
  // Narrower integers summed or multiplied into i64 x 4 (whole groups of
  // 32 bytes) in many packed items: on the grid, one block an SM of lane
  // threads whose results, wider than the input, land on other threads'
  // items in the stage (scanned again before the look-back's block
  // barrier); off the grid, staged Lanes items. Masks, both directions,
  // exclusive, lines of a 3-D tensor, odd lengths, at four placements.
  const std::vector<std::string> specs = {
      "sum u8[262147,4] dim=0 mask reverse",   "sum i16[300001,4] dim=0 exclusive",
      "prod i8[262144,4] dim=0",               "sum bool[270001,4] dim=0 reverse exclusive",
      "sum i32[262151,4] dim=0 mask",          "prod i16[2,140000,4] dim=1 mask reverse",
  };
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_EQ(plan.packedLanes, 4) << s;
    EXPECT_TRUE(plan.laneThreads) << s;
    EXPECT_EQ(plan.items, 31) << s;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {CaseOptions{}, offsets(0, 0, 3), offsets(1, 1, 1), offsets(3, 2, 0)});
}

TEST(Edges, WideLanesInUnevenParts) {
  // Groups of 33-64 bytes of accumulators that no lane threads tile a warp
  // for (8-byte ones of 5-7 lanes; narrower integers summed into i64 x 8
  // with lane threads tuned off, as untimed archs plan them; 4-byte ones of
  // 9-15 lanes): staged Lanes items (8-byte
  // ones unmasked, but integer products, at up to 280 bytes a thread),
  // published in two parts of at most 32 bytes, the last padded where the
  // lanes do not divide evenly (x 5: 3 + 2 and a padding lane; f32 x 9:
  // 5 + 4), each read by warps of its own, in one block an SM (tuned: the
  // policy takes it from a few hundred tiles, which the unit tests pin, and
  // leaves smaller problems unpacked); masks, both directions, exclusive,
  // lines of a 3-D tensor, odd lengths, at four placements (the off-grid
  // ones in shifted stages).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"occupancy=1,items=7", "sum f64[100003,5] dim=0 reverse"},
      {"occupancy=1,items=3", "max i64[90001,7] dim=0 mask exclusive"},
      {"occupancy=1,items=5", "min f64[3,40001,6] dim=1"},
      {"occupancy=1,items=5", "sum i32[120001,6] dim=0 mask reverse exclusive"},
      {"occupancy=1,items=5", "prod i16[100003,5] dim=0"},
      {"occupancy=1,items=3,lane_threads=0", "sum u8[150001,8] dim=0 mask"},
      {"occupancy=1,items=5", "sum bool[100000,7] dim=0 reverse"},
      {"occupancy=1,items=5", "sum f64[200003,6] dim=0 exclusive"},
      {"occupancy=1,items=3", "min i64[200001,7] dim=0 mask reverse"},
      {"occupancy=1,items=7", "sum i8[300001,5] dim=0"},
      {"occupancy=1,items=5", "sum f32[120001,9] dim=0 mask"},
      {"occupancy=1,items=5", "max f16[100003,11] dim=0 reverse exclusive"},
      {"occupancy=1,items=3", "min f32[100001,15] dim=0 mask reverse"},
      {"occupancy=1,items=5", "max i32[90001,10] dim=0 exclusive"},
      {"occupancy=1,items=5", "sum bf16[2,50001,13] dim=1 reverse"},
      {"occupancy=1,items=3", "prod f32[100003,12] dim=0 mask"},
      {"occupancy=1,items=3", "sum f32[80001,14] dim=0"},
      {"threads=256,occupancy=1,items=3", "max i16[100003,13] dim=0 mask reverse"},
  };
  checkTunedPlans(cases, [](const KernelPlan &plan, const std::string &what) {
    EXPECT_GE(plan.packedLanes, 5) << what;
    EXPECT_FALSE(plan.laneThreads) << what;
    EXPECT_GE(plan.stages, 3) << what;
    EXPECT_EQ(plan.lookbackWarps % 2, 0) << what << ": warps of each part";
  });
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectTunedCasesPass(cases, {CaseOptions{}, offsets(0, 0, 3), offsets(1, 1, 1), offsets(3, 2, 0)});
}

TEST(Edges, LogSumExpLanesAThreadALane) {
  // Log-sum-exp over narrow columns whose lanes tile a warp (2-16): packed,
  // a lane a thread (lane_threads.cuh), each thread's items as linear sums
  // and (max, sum) pairs across the lane's threads and warps, the window
  // folded lane by lane (window_fold.cuh). Every float dtype, groups in one
  // published value and in parts (f32 x 16, f64 x 8: scanned again from the
  // stage), masks, both directions, exclusive, a 3-D tensor's lines
  // (shifted stages), odd lengths, at three placements (off the grid: the
  // off-grid plan).
  const std::vector<std::string> specs = {
      "logsumexp f32[300001,4] dim=0",
      "logsumexp f32[200003,2] dim=0 reverse exclusive",
      "logsumexp f16[250001,8] dim=0 mask",
      "logsumexp bf16[300000,2] dim=0 mask reverse",
      "logsumexp f64[100003,4] dim=0 exclusive",
      "logsumexp f64[70001,8] dim=0 mask reverse exclusive",
      "logsumexp f32[60001,16] dim=0 reverse",
      "logsumexp bf16[3,30001,16] dim=1 mask exclusive",
      "logsumexp f32[2,150001,4] dim=1 mask",
      "logsumexp f16[2,100003,2] dim=1 reverse",
  };
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_EQ(plan.family, KernelFamily::RowLookback) << s;
    EXPECT_GT(plan.packedLanes, 1) << s;
    EXPECT_TRUE(plan.laneThreads) << s;
    EXPECT_EQ(plan.laneWidth, 1) << s;
    EXPECT_GT(plan.stages, 0) << s;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {CaseOptions{}, offsets(0, 0, 3), offsets(1, 3, 2)});
}

TEST(Edges, PointersOffTheGridTakeTheOffGridPlan) {
  // Specs whose plans stage their rows by bulk copies, launched with input
  // or mask pointers off the 16-byte grid: the launch takes the spec's
  // off-grid plan (edges, or narrow columns unpacked), compiled on the first
  // such launch only, and the results match the reference.
  const std::vector<std::string> specs = {
      "sum f32[3000000] dim=0 reverse",   "sum f16[2000000] dim=0",
      "max f32[600,4000] dim=1 mask",     "sum bf16[600,6000] dim=1 exclusive",
      "sum f32[2048,2048] dim=0",         "sum f32[250000,3] dim=0",
  };
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_GT(plan.stages, 0) << s;
    EXPECT_FALSE(plan.edges) << s;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  precompile(specs);
  for (const std::string &s : specs) {
    expectCasePasses(s); // on the grid: the spec's own plan (and the inputs' generator, warm)
    const RuntimeStats before = runtimeStats();
    expectCasePasses(s, offsets(1, 3, 2));
    const RuntimeStats first = runtimeStats();
    EXPECT_EQ(first.compiles + first.diskHits, before.compiles + before.diskHits + 1)
        << s << ": the off-grid plan's kernel, once";
    expectCasePasses(s, offsets(3, 0, 0));
    const RuntimeStats second = runtimeStats();
    EXPECT_EQ(second.compiles + second.diskHits, first.compiles + first.diskHits) << s << ": no second kernel";
  }
}

TEST(Edges, OutputOffTheInputsGrid) {
  // Plans on the input's 16-byte grid (aligned=in) launched with the output
  // a few elements off it: the staged families store the stage through the
  // lanes, the warp-rows kernel through its shared scratch, the rest from
  // registers. The input and mask stay on the grid (the spec's own plan).
  const std::vector<std::string> specs = {
      "sum f32[300,4096] dim=1",         "sum f32[300,4096] dim=1 mask reverse",
      "sum f16[200,8192] dim=1 exclusive", "sum i32[200,4096] dim=1 reverse",
      "max bf16[100,16384] dim=1 mask",  "sum f32[3000000] dim=0 reverse",
      "sum f16[4,600000] dim=1 mask",    "sum f32[20000,256] dim=1",
      "sum f32[40000,32] dim=1 mask reverse exclusive", "sum u8[4000,512] dim=1",
      "sum f32[2048,2048] dim=0",        "prod f32[300000,2] dim=0 reverse",
      // 1- and 2-byte results leave as whole words of the output, each
      // built from the two stage words it straddles: every byte shift.
      "max u8[300,8192] dim=1 reverse",  "max u8[40000,96] dim=1 exclusive",
      "sum bf16[30000,200] dim=1 reverse", "min i16[3000000] dim=0",
  };
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    EXPECT_FALSE(plan.edges) << s;
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs, {offsets(0, 0, 1), offsets(0, 0, 2), offsets(0, 0, 3), offsets(2, 2, 1)});
}

} // namespace

