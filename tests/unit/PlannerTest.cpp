// Planner choices on representative shapes: family, normalization, sizes.
#include "TestSpecs.h"

#include "compiler/ArchPolicy.h"
#include "compiler/Planner.h"
#include "compiler/PlannerPolicy.h"
#include "compiler/WarpSpanBanks.h"

#include <tuple>

using namespace scanjit;
using scanjit::testing::mustParse;

namespace {

KernelPlan plan(llvm::StringRef text) { return planKernel(mustParse(text)); }
// The plan in chunks, for rows that would otherwise be padded warp rows
// (rows of 193 to 512 elements, SegmentedPolicy::kPaddedWarpRows).
KernelPlan chunks(llvm::StringRef text, llvm::StringRef tuning = "warp_rows=0") {
  return planKernel(mustParse(text), *parsePlanTuning(tuning));
}
// The column pipeline's plan where tall panels would take tiles of whole rows.
KernelPlan pipeline(llvm::StringRef text) { return planKernel(mustParse(text), *parsePlanTuning("whole_rows=0")); }

TEST(Planner, LongContiguousRowsUseTheRowFamily) {
  KernelPlan p = plan("sum f32[32768,32768] dim=1 mask reverse");
  EXPECT_EQ(p.family, KernelFamily::Row);
  EXPECT_EQ(p.threads, 128); // pipelined rows: small blocks, many per SM
  EXPECT_EQ(p.items, 8); // 32 bytes of f32 per thread
  EXPECT_EQ(p.grid, 32768);
  EXPECT_EQ(p.geometry.scan.size, 32768);
  ASSERT_EQ(p.geometry.lines.size(), 1u);
  EXPECT_EQ(p.geometry.lines[0].size, 32768);
  EXPECT_EQ(p.geometry.lines[0].mask, 32768);
}

TEST(Planner, ItemsFollowTheInputWidth) {
  EXPECT_EQ(plan("sum f64[16384,2048] dim=1").items, 4);
  EXPECT_EQ(plan("sum f16[1024,65536] dim=1").items, 16);
  EXPECT_EQ(plan("sum u8[16384,2048] dim=1").items, 8); // capped by its 8-byte i64 accumulator
  EXPECT_EQ(plan("max bool[1024,65536] dim=1").items, 16); // max/min of narrow integers: i32 accumulators
  EXPECT_EQ(plan("min i64[16384,2048] dim=1").items, 4);
}

TEST(Planner, MaxAndMinOfNarrowIntegersAccumulateInI32) {
  auto acc = [](ScanOp op, DType in) { return accumulatorType(op, in, defaultOutputType(op, in)); };
  EXPECT_EQ(acc(ScanOp::Max, DType::U8), DType::I32);
  EXPECT_EQ(acc(ScanOp::Min, DType::I32), DType::I32);
  EXPECT_EQ(acc(ScanOp::Max, DType::Bool), DType::I32);
  EXPECT_EQ(acc(ScanOp::Max, DType::I64), DType::I64);
  EXPECT_EQ(acc(ScanOp::Sum, DType::U8), DType::I64); // sums still wrap like torch's i64
  EXPECT_EQ(acc(ScanOp::Max, DType::F16), DType::F32);
}

// Sums and products wrap: into integers of at most 4 bytes the low 32 bits
// are all the output keeps, so i32 accumulators give the same results.
TEST(Planner, WrappingScansIntoNarrowIntegersAccumulateInI32) {
  EXPECT_EQ(accumulatorType(ScanOp::Sum, DType::U8, DType::U8), DType::I32);
  EXPECT_EQ(accumulatorType(ScanOp::Prod, DType::I16, DType::I32), DType::I32);
  EXPECT_EQ(accumulatorType(ScanOp::Sum, DType::I32, DType::I32), DType::I32);
  EXPECT_EQ(accumulatorType(ScanOp::Sum, DType::I64, DType::I32), DType::I64); // (its plans lost: 1.23 -> 1.50 x copy)
  EXPECT_EQ(accumulatorType(ScanOp::Sum, DType::Bool, DType::I8), DType::I32);
  EXPECT_EQ(accumulatorType(ScanOp::Sum, DType::I32, DType::I64), DType::I64); // every bit kept
  EXPECT_EQ(accumulatorType(ScanOp::Sum, DType::U8, DType::Bool), DType::I64); // nonzero: all the bits
  EXPECT_EQ(accumulatorType(ScanOp::Sum, DType::I32, DType::F32), DType::I64); // the value, not its low bits
  EXPECT_EQ(plan("sum i32[16777216] dim=0 out=i32").items, plan("sum f32[16777216] dim=0").items);
}

TEST(Planner, IndicesTakeTheIndexedStridedKernel) {
  for (const char *s : {"max f32[64,3000] dim=1 indices", "min f16[37,64] dim=0 indices mask",
                        "max i32[1,1000000] dim=1 indices reverse"}) {
    const KernelPlan p = plan(s);
    EXPECT_EQ(p.family, KernelFamily::Strided) << s;
    EXPECT_EQ(p.entry.substr(p.entry.size() - 4), "_idx") << s;
  }
}

TEST(Planner, FewLongRowsAreChainedByLookback) {
  KernelPlan p = plan("sum f32[8,16777216] dim=1");
  EXPECT_EQ(p.family, KernelFamily::RowLookback);
  EXPECT_EQ(p.threads, 512);
  EXPECT_EQ(p.items, 8);
  EXPECT_EQ(p.stages, 3);   // 16 KB tiles streamed through shared memory
  EXPECT_GE(p.sharedBytes, 3 * 16384);
  EXPECT_EQ(p.grid, 528);   // blocks take tiles by ticket, four an SM of an H100
  // The lean plan: three 512-thread blocks an SM, every warp reading the
  // window, a tile a lane (16 x 32 x 1 = 512 tiles).
  EXPECT_EQ(p.lookbackPerLane, 1);
  EXPECT_EQ(p.lookbackWarps, 16);
  EXPECT_EQ(p.minBlocksPerSm, 3);
  EXPECT_NE(p.toString().find(" min_blocks=3 "), std::string::npos);
  EXPECT_EQ(plan("prod f32[8,16777216] dim=1 reverse exclusive").minBlocksPerSm, 3);
  // Max, min, log-sum-exp and masks need more registers: two blocks, four
  // stages, and a window of 4 warps x 32 x 4 = 512 tiles (log-sum-exp of
  // 4-byte accumulators: x 2 = 256 tiles).
  for (const char *text : {"max f32[8,16777216] dim=1", "logsumexp f32[8,16777216] dim=1",
                           "sum f32[8,16777216] dim=1 mask"}) {
    KernelPlan kept = plan(text);
    EXPECT_EQ(kept.minBlocksPerSm, 2) << text;
    EXPECT_EQ(kept.stages, 4) << text;
    EXPECT_EQ(kept.lookbackWarps, 4) << text;
    EXPECT_EQ(kept.lookbackPerLane, std::string(text).rfind("logsumexp", 0) == 0 ? 2 : 4) << text;
  }
  // Wide tiles: 96 accumulator bytes a thread (64 for masked integer
  // products of 8-byte accumulators) in blocks of 256, two an SM: f64 x 12,
  // f16 x 24, masked i16 products (i64) x 8.
  EXPECT_EQ(plan("sum f64[8,16777216] dim=1").minBlocksPerSm, 2);
  EXPECT_EQ(plan("sum f64[8,16777216] dim=1").threads, 256);
  EXPECT_EQ(plan("sum f64[8,16777216] dim=1").items, 12);
  EXPECT_EQ(plan("sum i32[8,16777216] dim=1 mask").items, 12);
  EXPECT_EQ(plan("prod i16[16777215] dim=0 mask").items, 8);
  EXPECT_EQ(plan("prod f64[16777216] dim=0 mask").items, 12);
  // Unmasked integer products off the grid keep 12 (8 ran 24-31% slower
  // when 12 spilled a little; they spill none since the grid pipeline
  // copies whole words).
  EXPECT_EQ(plan("prod u8[500,36933] dim=1").items, 12);
  EXPECT_EQ(plan("max f16[8,16777216] dim=1").threads, 256);
  EXPECT_EQ(plan("max f16[8,16777216] dim=1").items, 24);
  EXPECT_EQ(plan("sum f16[8,16777216] dim=1").threads, 512); // (read again: kRereadWideTiles)
  EXPECT_EQ(plan("sum f16[8,16777216] dim=1").items, 24);
  EXPECT_EQ(plan("sum f16[8,16777216] dim=1").minBlocksPerSm, 2);
  EXPECT_EQ(plan("max u8[16777217] dim=0").items, 24); // (at most 24 items)
  // Scans of fewer than 128 wide tiles keep the smaller tiles, and the
  // look-back is judged on those: an odd 30001 floats take 10 tiles of 384 x 8.
  for (const char *text : {"sum f32[30001] dim=0", "sum f32[8,20001] dim=1", "sum f16[8,40000] dim=1"}) {
    KernelPlan small = plan(text);
    EXPECT_EQ(small.family, KernelFamily::RowLookback) << text;
    EXPECT_EQ(small.threads, 384) << text;
  }
  EXPECT_EQ(plan("sum f32[30001] dim=0").grid, 10);
  // Evict-first only above the L2's size.
  EXPECT_TRUE(plan("sum f32[8,16777216] dim=1").evictFirst);
  EXPECT_FALSE(plan("sum f32[4194304] dim=0").evictFirst);
  EXPECT_EQ(plan("sum f32[32768,32768] dim=1 mask").minBlocksPerSm, 1); // (the row family's)
  const int64_t tiles = 8 * 16777216 / 4096;
  EXPECT_EQ(p.workspaceBytes, 16 + 2 * tiles * 8); // two flagged 8-byte words per tile
  KernelPlan odd = plan("sum f32[100003] dim=0");
  EXPECT_EQ(odd.family, KernelFamily::RowLookback);
  // Rows of 100003 floats are off the 16-byte grid: an edges plan, in
  // blocks of 384 threads (too few for wide tiles), with a spare tile a row
  // (its start may lie anywhere in a word): ceil((100003 + 3) / 3072) = 33.
  EXPECT_TRUE(odd.edges);
  EXPECT_EQ(odd.stages, 4);
  EXPECT_EQ(odd.threads, 384);
  EXPECT_EQ(odd.grid, 33);
  // 1048573 floats hold 171 wide tiles (24 items in blocks of 256):
  // ceil((1048573 + 3) / 6144) = 171.
  KernelPlan wideOdd = plan("sum f32[1048573] dim=0");
  EXPECT_TRUE(wideOdd.edges);
  EXPECT_EQ(wideOdd.stages, 3);
  EXPECT_EQ(wideOdd.threads, 256);
  EXPECT_EQ(wideOdd.items, 24);
  EXPECT_EQ(wideOdd.grid, 171);
  EXPECT_FALSE(p.edges);
  EXPECT_EQ(plan("sum f64[1,1000000] dim=1 reverse").workspaceBytes, 16 + 2 * 326 * 16); // tiles of 256 x 12
  EXPECT_EQ(plan("sum f32[4096,4096] dim=1").family, KernelFamily::Row);   // enough rows
  EXPECT_EQ(plan("sum f32[64,3000] dim=1").family, KernelFamily::Row);     // rows too short
  EXPECT_EQ(plan("sum f32[4096,4096] dim=1").workspaceBytes, 0);
}

TEST(Planner, RowBlocksStreamSeveralShortRows) {
  KernelPlan p = plan("sum f32[524288,2048] dim=1"); // 2 tiles of 1024 a row
  EXPECT_EQ(p.family, KernelFamily::Row);
  EXPECT_EQ(p.rowsPerChunk, 2); // at least 4 tiles' worth of elements a block
  EXPECT_EQ(p.grid, 262144);
  EXPECT_EQ(plan("sum f32[786432,1400] dim=1").rowsPerChunk, 3);
  EXPECT_EQ(plan("sum f32[262144,4096] dim=1").rowsPerChunk, 1);  // 4 tiles a row
  EXPECT_EQ(plan("sum f32[32768,32768] dim=1").rowsPerChunk, 1);  // the seeds: a row a block
  EXPECT_EQ(plan("sum f32[1500,2048] dim=1").rowsPerChunk, 1);    // the grid keeps 1024 blocks
  EXPECT_EQ(plan("sum f32[5000,2048] dim=1").grid, 2500);
  EXPECT_EQ(plan("sum f32[100000,1100] dim=1 strides=[1101,1]").rowsPerChunk, 5); // rows off the grid: edges, same policy
}

// Long dense rows take the look-back at any row count (masked: up to 8192;
// off the grid: up to 2048; 1- and 2-byte integers summed into 8 bytes: up
// to 1024, and off the grid up to 960):
// the row family ran a row a block in waves (LookbackPolicy::
// kDenseRowsUncapped). 2-byte floats, max and min (kDenseMaxMinUncapped)
// and log-sum-exp keep 512 rows.
TEST(Planner, ManyLongDenseRowsAreChainedByLookback) {
  for (const char *text : {"sum f32[1000,100003] dim=1", "sum f32[32768,32768] dim=1", "prod f64[700,70001] dim=1",
                           "sum u8[1024,100000] dim=1", "sum i32[8192,32768] dim=1"})
    EXPECT_EQ(plan(text).family, KernelFamily::RowLookback) << text;
  for (const char *text : {"sum f32[32768,32768] dim=1 mask", "sum f16[4096,32769] dim=1", "max i16[2000,50001] dim=1",
                           "max f32[2000,60001] dim=1 exclusive", "min i32[8192,32768] dim=1",
                           "logsumexp f64[1000,100003] dim=1"})
    EXPECT_EQ(plan(text).family, KernelFamily::Row) << text;
  EXPECT_EQ(plan("sum f64[1397,80078] dim=1 mask").family, KernelFamily::RowLookback);
  EXPECT_EQ(plan("max f32[512,60001] dim=1").family, KernelFamily::RowLookback); // max and min: up to kMaxRows
  EXPECT_EQ(plan("sum f32[8192,50000] dim=1 mask").family, KernelFamily::RowLookback);
  EXPECT_EQ(plan("sum f32[8193,50000] dim=1 mask").family, KernelFamily::Row);
  EXPECT_EQ(plan("sum f16[600,100000] dim=1 mask").family, KernelFamily::Row);
  // Rows off the 16-byte grid: up to 2048 (kEdgesDenseMaxRows), masked or
  // not, of any width; integer sums widened to 8 bytes up to 960.
  EXPECT_EQ(plan("sum f32[32768,32767] dim=1 strides=[32768,1]").family, KernelFamily::Row);
  for (const char *text : {"sum f32[2049,20011] dim=1", "sum f32[2049,20011] dim=1 mask", "sum f64[2049,32767] dim=1",
                           "sum i32[961,32767] dim=1", "sum u8[961,40001] dim=1", "sum u8[1025,100000] dim=1",
                           "sum i16[1025,100000] dim=1"})
    EXPECT_EQ(plan(text).family, KernelFamily::Row) << text;
  for (const char *text : {"sum f32[2048,20011] dim=1", "sum f32[1024,50257] dim=1", "sum f64[2048,32767] dim=1 mask",
                           "sum i32[960,32767] dim=1", "sum u8[960,40001] dim=1"})
    EXPECT_EQ(plan(text).family, KernelFamily::RowLookback) << text;
  EXPECT_EQ(planKernel(mustParse("sum f32[32768,32768] dim=1"), *parsePlanTuning("off_grid=1")).family,
            KernelFamily::Row);
  // Rows of fewer than 4 tiles stay a block each; a tuned cap applies to all.
  EXPECT_EQ(plan("sum f32[32768,8192] dim=1").family, KernelFamily::Row);
  EXPECT_EQ(planKernel(mustParse("sum f32[1000,100003] dim=1"), *parsePlanTuning("lookback_rows=512")).family,
            KernelFamily::Row);
}

// A row of fewer tiles than the policy's window reads the fewest warps, a
// tile a lane, whose window holds all its tiles (W >= tiles: no base);
// longer rows, log-sum-exp and tuned windows keep theirs (LookbackPolicy::
// kWindowFitsTheRow).
TEST(Planner, LookbackWindowFitsTheRow) {
  struct Case {
    const char *spec;
    int warps, perLane;
  } cases[] = {
      {"sum f32[32768,32768] dim=1", 1, 1},        // 8 tiles of 4096
      {"sum f32[100,131072] dim=1", 1, 1},         // 32: W = 32 holds them
      {"sum f32[100,135168] dim=1 reverse", 2, 1}, // 33
      {"sum f32[64,266240] dim=1 exclusive", 3, 1},
      {"sum u8[600,100000] dim=1 reverse", 2, 1},  // 33 tiles of 3072
      {"sum f64[4096,32768] dim=1", 1, 1},         // 11, of a 4 x 4 window
      {"sum f64[64,614400] dim=1 reverse", 4, 2},  // 200: every policy warp, 2 a lane
      {"sum f32[16,4194304] dim=1", 16, 1},        // 1024: the policy's 512
      {"sum f32[16777216] dim=0", 16, 1},
      {"logsumexp f32[256,131072] dim=1", 4, 2}, // log-sum-exp keeps its window
  };
  for (const Case &c : cases) {
    const KernelPlan p = plan(c.spec);
    ASSERT_EQ(p.family, KernelFamily::RowLookback) << c.spec;
    EXPECT_EQ(p.lookbackWarps, c.warps) << c.spec;
    EXPECT_EQ(p.lookbackPerLane, c.perLane) << c.spec;
  }
  const KernelPlan tuned = planKernel(mustParse("sum f32[32768,32768] dim=1"), *parsePlanTuning("lookback_warps=16"));
  EXPECT_EQ(tuned.lookbackWarps, 16);
}

// Masked wide tiles of 4-byte elements into 4-byte accumulators hold 20
// items, not 24 (LookbackPolicy::kWideTileMaskedWordBytes); narrower masked
// inputs keep 24, 8-byte accumulators 12.
TEST(Planner, MaskedWideTilesOfWordsHoldTwentyItems) {
  const PlanTuning offGrid = *parsePlanTuning("off_grid=1");
  for (const char *text : {"sum f32[16777216] dim=0 mask", "max f32[256,131071] dim=1 mask", "max i32[8,4000037] dim=1 mask"}) {
    KernelPlan p = planKernel(mustParse(text), offGrid);
    EXPECT_EQ(p.family, KernelFamily::RowLookback) << text;
    EXPECT_EQ(p.threads, 256) << text;
    EXPECT_EQ(p.items, 20) << text;
    EXPECT_EQ(p.stages, 3) << text;
  }
  EXPECT_EQ(planKernel(mustParse("sum f32[16777216] dim=0"), offGrid).items, 24);
  EXPECT_EQ(planKernel(mustParse("sum bf16[3,6520244] dim=1 mask"), offGrid).items, 24);
  EXPECT_EQ(planKernel(mustParse("sum i32[16777216] dim=0 mask"), offGrid).items, 12);
  EXPECT_EQ(plan("logsumexp f16[8,4194304] dim=1 mask").items, 24);
}

// Few panels cut their scans into pieces as long as the stages, but at most
// 2048 a panel, or one a 256 KB of the problem's bytes where that is more:
// the pieces' chain has a link per 8 (ColumnPolicy::kMaxPieces,
// kPieceChainBytes).
TEST(Planner, LongColumnScansCapTheirPieces) {
  // With the window of 8 (more than 4 panels, or tuned so).
  const PlanTuning window = *parsePlanTuning("whole_rows=0,piece_spans=0");
  KernelPlan tall = planKernel(mustParse("sum f32[4194304,20] dim=0"), window);
  EXPECT_EQ(tall.family, KernelFamily::Column);
  EXPECT_GT(tall.pieces, 1024);
  EXPECT_LE(tall.pieces, 4194304LL * 20 * 8 / (256 * 1024)); // 0.67 GB: a piece a 256 KB
  EXPECT_FALSE(tall.pieceSpans);
  EXPECT_EQ(plan("sum f16[96643,315] dim=0").pieces, 672); // as long as the stages, under the cap
  // 0.84 GB: a piece a 256 KB, 3200 (then evened out), pieces longer than the stages.
  KernelPlan chained = planKernel(mustParse("sum f32[1048576,100] dim=0"), window);
  EXPECT_EQ(chained.pieces, 3121);
  EXPECT_EQ(chained.rowsPerChunk, 48);
  const int64_t chainedChunks = (1048576 + chained.rowsPerChunk - 1) / chained.rowsPerChunk;
  EXPECT_GT((chainedChunks + chained.pieces - 1) / chained.pieces, chained.stages);
  // 18 GB on 65 panels: as long as the stages, 3073 of 3 stages of 48 rows.
  KernelPlan wide = plan("sum i16[442400,4097] dim=0");
  EXPECT_EQ(wide.pieces, 3073);
  EXPECT_FALSE(wide.pieceSpans);
  EXPECT_EQ(wide.rowsPerChunk, 48);
  EXPECT_EQ((9217 + wide.pieces - 1) / wide.pieces, wide.stages); // 9217 chunks
  EXPECT_GT(planKernel(mustParse("sum f32[4194304,20] dim=0"), *parsePlanTuning("whole_rows=0,pieces=4096")).pieces,
            2048); // tuned: any count
}

// On at most 4 panels, pieces that would number more than 2048 stay as long
// as the stages (up to ColumnPolicy::kMaxSpanPieces) and look back over span
// totals; more panels, or fewer pieces, keep the window of 8.
TEST(Planner, FewPanelsOfLongChainsLookBackOverSpanTotals) {
  KernelPlan spans = plan("sum f32[1048576,100] dim=0"); // a panel of 128, a column a thread
  EXPECT_EQ(spans.family, KernelFamily::Column);
  EXPECT_TRUE(spans.pieceSpans);
  EXPECT_EQ(spans.pieces, 7282); // 21846 chunks of 48 rows, 3 a piece
  EXPECT_EQ(spans.workspaceBytes, 16 + 3 * 7281LL * 128 * 8); // aggregates, span totals, inclusive prefixes
  EXPECT_NE(spans.toString().find("pieces=7282 piece_spans=1 workspace=22367248"), std::string::npos);
  EXPECT_TRUE(plan("sum f64[1000000,52] dim=0").pieceSpans);  // 1 panel, 5377 pieces
  EXPECT_TRUE(plan("sum f32[600000,256] dim=0").pieceSpans);  // 4 panels
  EXPECT_FALSE(plan("sum f64[501898,258] dim=0").pieceSpans); // 5 panels
  EXPECT_FALSE(plan("sum f32[442400,1000] dim=0").pieceSpans); // 16 panels
  EXPECT_FALSE(plan("sum f16[117248,408] dim=0 mask reverse").pieceSpans); // 978 pieces
  EXPECT_LE(pipeline("sum f32[16777216,20] dim=0").pieces, 32768);
  // Tuned either way.
  KernelPlan off = planKernel(mustParse("sum f32[1048576,100] dim=0"), *parsePlanTuning("piece_spans=0"));
  EXPECT_FALSE(off.pieceSpans);
  EXPECT_EQ(off.pieces, 3121); // a piece a 256 KB: longer than the stages
  EXPECT_EQ(off.workspaceBytes, 16 + 2 * 3120LL * 128 * 8);
  EXPECT_TRUE(planKernel(mustParse("sum f32[4096,4096] dim=0"), *parsePlanTuning("piece_spans=1")).pieceSpans);
  EXPECT_FALSE(planKernel(mustParse("sum f32[64,4096,4096] dim=1"), *parsePlanTuning("piece_spans=1")).pieceSpans)
      << "no pieces, no spans";
}

// Pieces look back over span totals however few they are where every SM
// holds a block of each of at most 4 panels, a single panel always
// (ColumnPolicy::kPieceSpansWhereSmsHoldEveryPanel); where an SM holds
// fewer blocks than panels, or on 5 panels, fewer than 2049 pieces keep
// the window of 8.
TEST(Planner, PiecesLookBackOverSpanTotalsWhereSmsHoldEveryPanel) {
  for (const char *text : {"sum f16[206323,144] dim=0", "sum f32[20000,100] dim=0", "min i16[53807,139] dim=0",
                           "sum f64[30001,52] dim=0 reverse", "max u8[60000,250] dim=0", "min bf16[37605,225] dim=0",
                           "sum u8[213924,132] dim=0"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::Column) << text;
    const int64_t panels = p.grid / p.pieces;
    EXPECT_LE(panels, 4) << text;
    EXPECT_GE(p.minBlocksPerSm, panels) << text;
    EXPECT_GT(p.pieces, 1) << text;
    EXPECT_LE(p.pieces, 2048) << text;
    EXPECT_TRUE(p.pieceSpans) << text;
  }
  for (const char *text :
       {"sum f16[36658,670] dim=0 mask reverse", "sum f32[20594,218] dim=0 exclusive", "sum i32[150000,260] dim=0"}) {
    const KernelPlan p = plan(text);
    const int64_t panels = p.grid / p.pieces;
    EXPECT_GT(panels, 1) << text;
    EXPECT_TRUE(panels > 4 || p.minBlocksPerSm < panels) << text;
    EXPECT_GT(p.pieces, 1) << text;
    EXPECT_FALSE(p.pieceSpans) << text;
  }
  EXPECT_FALSE(planKernel(mustParse("max u8[60000,250] dim=0"), *parsePlanTuning("piece_spans=0")).pieceSpans);
}

// Column pipelines with pieces fill their stages by each thread's 16-byte
// copies; a block a panel (many panels) by a bulk copy a row
// (ColumnPolicy::kPipelineWordCopies); tuned either way; tiles of whole
// rows are one bulk copy a tile. Archs without bulk copies take word
// copies in every pipeline plan, where tuned to take one.
TEST(Planner, ColumnPiecesFillTheirStagesByWords) {
  const KernelPlan pieces = plan("sum f32[4096,4096] dim=0");
  EXPECT_GT(pieces.pieces, 1);
  EXPECT_TRUE(pieces.wordCopies);
  EXPECT_NE(pieces.toString().find(" word_copies=1"), std::string::npos);
  const KernelPlan edges = plan("sum f32[65536,333] dim=0 mask");
  EXPECT_TRUE(edges.edges);
  EXPECT_TRUE(edges.wordCopies);
  const KernelPlan panels = plan("sum f32[32768,32768] dim=0");
  EXPECT_EQ(panels.family, KernelFamily::Column);
  EXPECT_EQ(panels.pieces, 1);
  EXPECT_FALSE(panels.wordCopies);
  EXPECT_EQ(panels.toString().find("word_copies"), std::string::npos);
  EXPECT_FALSE(planKernel(mustParse("sum f32[4096,4096] dim=0"), *parsePlanTuning("word_copies=0")).wordCopies);
  EXPECT_TRUE(planKernel(mustParse("sum f32[32768,32768] dim=0"), *parsePlanTuning("word_copies=1")).wordCopies);
  const KernelPlan tiles = plan("sum f32[4194304,20] dim=0");
  EXPECT_TRUE(tiles.wholeRows);
  EXPECT_FALSE(tiles.wordCopies);
  // Archs with cp.async but no bulk copies: the pipeline by word copies
  // (every plan: no bulk copies to fall back on), or tuned off, their
  // registers; sm_75 has neither.
  const ScanSpec tall = mustParse("sum f32[1048576,100] dim=0");
  EXPECT_EQ(planKernel(tall, *parsePlanTuning("word_copies=0"), Target{80}).stages, 0);
  const KernelPlan words = planKernel(tall, {}, Target{80});
  EXPECT_EQ(words.family, KernelFamily::Column);
  EXPECT_GT(words.stages, 0);
  EXPECT_GT(words.pieces, 1);
  EXPECT_TRUE(words.wordCopies);
  const KernelPlan seed = planKernel(mustParse("sum f32[32768,32768] dim=0"), {}, Target{86});
  EXPECT_GT(seed.stages, 0);
  EXPECT_EQ(seed.pieces, 1);
  EXPECT_TRUE(seed.wordCopies);
  EXPECT_EQ(planKernel(tall, *parsePlanTuning("word_copies=1"), Target{75}).stages, 0);
}

// A slack of two look-back tiles (lookback_slack=2, not the policy's yet):
// plain tiles of contiguous rows with four stages or more and output
// through them; else one.
TEST(Planner, LookbackSlackOfTwoWhereTheStagesHoldIt) {
  const PlanTuning two = *parsePlanTuning("lookback_slack=2,stages=4");
  const KernelPlan lean = planKernel(mustParse("sum f32[16777216] dim=0"), two);
  EXPECT_EQ(lean.family, KernelFamily::RowLookback);
  EXPECT_EQ(lean.lookbackSlack, 2);
  EXPECT_NE(lean.toString().find(" lookback_slack=2"), std::string::npos);
  EXPECT_EQ(planKernel(mustParse("sum f32[8,16777216] dim=1 mask reverse"), two).lookbackSlack, 2);
  EXPECT_EQ(plan("sum f32[16777216] dim=0").lookbackSlack, 1); // the policy
  EXPECT_EQ(plan("sum f32[16777216] dim=0").toString().find("lookback_slack"), std::string::npos);
  EXPECT_EQ(planKernel(mustParse("sum f32[16777216] dim=0"), *parsePlanTuning("lookback_slack=2")).lookbackSlack,
            1); // three stages
  EXPECT_EQ(planKernel(mustParse("logsumexp f32[8,4194304] dim=1"), two).lookbackSlack, 1);
  EXPECT_EQ(planKernel(mustParse("sum f32[4194304,4] dim=0"), two).lookbackSlack, 1);  // packed lanes
  EXPECT_EQ(planKernel(mustParse("sum f32[3,5000003] dim=1"), two).lookbackSlack, 1);  // edges
  EXPECT_EQ(planKernel(mustParse("sum f32[4194304] dim=0 strides=[2]"), two).lookbackSlack, 1); // spans
}

// A pipelined look-back block issues its stages one a tile (lazy_start=1)
// where it has more tiles than stages and they hold its output; with fewer
// tiles a block, two stages (dense spans), held shares or tiles read again
// off the grid it issues them all at its start. A slack of two always
// issues lazily; the tuning turns it off.
TEST(Planner, LazyStartWhereABlockHasMoreTilesThanStages) {
  const KernelPlan large = plan("sum f32[16777216] dim=0"); // 4096 tiles, 528 blocks of 3 stages
  EXPECT_EQ(large.family, KernelFamily::RowLookback);
  EXPECT_EQ(large.stages, 3);
  EXPECT_TRUE(large.lazyStart);
  EXPECT_NE(large.toString().find(" lazy_start=1"), std::string::npos);
  EXPECT_TRUE(plan("sum f32[3,5000003] dim=1").lazyStart);           // edges, on their grid
  EXPECT_TRUE(plan("max u8[1048576,16] dim=0").lazyStart);          // packed lanes
  const KernelPlan small = plan("sum f32[1048576] dim=0");          // 256 tiles, 256 blocks
  EXPECT_EQ(small.family, KernelFamily::RowLookback);
  EXPECT_FALSE(small.lazyStart);
  EXPECT_EQ(small.toString().find("lazy_start"), std::string::npos);
  EXPECT_FALSE(plan("sum f32[1048576,2] dim=0").lazyStart);         // two tiles a block
  EXPECT_FALSE(plan("sum f32[4194304] dim=0 strides=[2]").lazyStart); // spans
  EXPECT_FALSE(plan("sum bf16[101238612] dim=0").lazyStart);        // read again off the grid
  EXPECT_FALSE(planKernel(mustParse("sum f32[16777216] dim=0"), *parsePlanTuning("lazy_start=0")).lazyStart);
  EXPECT_TRUE(planKernel(mustParse("sum f32[1048576] dim=0"), *parsePlanTuning("lazy_start=1")).lazyStart);
  EXPECT_TRUE(planKernel(mustParse("sum f32[16777216] dim=0"),
                         *parsePlanTuning("lazy_start=0,lookback_slack=2,stages=4")).lazyStart);
}

// A lazy start keeps a block's tiles in ticket order with at most four
// stages, five two tiles late (LookbackPolicy::kLazyStartMaxStages): more
// stages issue all at the start, even tuned lazy, and a slack of two, which
// always starts lazily, keeps one tile late past five.
TEST(Planner, LazyStartOnlyWhereItsTilesKeepTicketOrder) {
  auto tuned = [](const char *tuning) { return planKernel(mustParse("sum f32[16777216] dim=0"), *parsePlanTuning(tuning)); };
  const KernelPlan four = tuned("threads=128,stages=4");
  EXPECT_EQ(four.stages, 4);
  EXPECT_TRUE(four.lazyStart);
  for (const char *tuning : {"threads=128,stages=6", "threads=128,stages=6,lazy_start=1", "items=4,stages=8"}) {
    const KernelPlan many = tuned(tuning);
    EXPECT_GT(many.stages, 4) << tuning;
    EXPECT_FALSE(many.lazyStart) << tuning;
  }
  const KernelPlan twoLate = tuned("threads=128,stages=5,lookback_slack=2");
  EXPECT_EQ(twoLate.stages, 5);
  EXPECT_EQ(twoLate.lookbackSlack, 2);
  EXPECT_TRUE(twoLate.lazyStart);
  const KernelPlan sixTwoLate = tuned("threads=128,stages=6,lookback_slack=2");
  EXPECT_EQ(sixTwoLate.stages, 6);
  EXPECT_EQ(sixTwoLate.lookbackSlack, 1);
  EXPECT_FALSE(sixTwoLate.lazyStart);
}

// A tile finished one tile late scanned again from its stage for its
// results (reread_tiles=1): plain tiles of contiguous rows, on the grid or
// off it, with three stages or more, results through them as wide as the
// input; else held.
TEST(Planner, TilesRereadFromTheirStagesWhereTheStagesKeepThem) {
  const PlanTuning reread = *parsePlanTuning("reread_tiles=1");
  const KernelPlan aligned = planKernel(mustParse("sum f32[101238608] dim=0"), reread);
  EXPECT_EQ(aligned.family, KernelFamily::RowLookback);
  EXPECT_TRUE(aligned.rereadTiles);
  EXPECT_NE(aligned.toString().find(" reread_tiles=1"), std::string::npos);
  const KernelPlan edges = planKernel(mustParse("sum f16[8,12534814] dim=1 mask reverse"), reread);
  EXPECT_TRUE(edges.edges && edges.rereadTiles);
  EXPECT_FALSE(plan("sum f32[101238608] dim=0").rereadTiles); // the policy, at the block planned
  EXPECT_EQ(plan("sum f32[101238608] dim=0").toString().find("reread_tiles"), std::string::npos);
  EXPECT_FALSE(planKernel(mustParse("sum bf16[101238608] dim=0"), *parsePlanTuning("reread_tiles=1,stages=2")).rereadTiles);
  EXPECT_FALSE(planKernel(mustParse("sum i32[14,7397655] dim=1"), reread).rereadTiles); // i64 results: wider
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304] dim=0"), reread).rereadTiles);    // held shares
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304,4] dim=0"), reread).rereadTiles);  // packed lanes
  EXPECT_FALSE(planKernel(mustParse("logsumexp f32[8,4194304] dim=1"), reread).rereadTiles);
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304] dim=0 strides=[2]"), reread).rereadTiles); // spans
  // A slack of two reads its tiles again already.
  EXPECT_FALSE(
      planKernel(mustParse("sum f32[16777216] dim=0"), *parsePlanTuning("reread_tiles=1,lookback_slack=2,stages=4"))
          .rereadTiles);
}

// 2-byte rows' wide tiles of sums and products take blocks of 512, read
// again from their stages (LookbackPolicy::kRereadWideTiles), on the grid
// and off it, where those blocks keep three stages and the scan 128 tiles;
// masked rows (two stages), i16 -> i64 sums, max and min, held shares and
// smaller scans keep blocks of 256; reread_tiles=0 or a tuned block turn
// it off.
TEST(Planner, TwoByteWideTilesReadAgainInWiderBlocks) {
  for (const char *spec : {"sum bf16[101238608] dim=0", "sum f16[8,12534814] dim=1 reverse",
                           "prod f16[33554431] dim=0 exclusive", "sum bf16[3,1000001] dim=1"}) {
    const KernelPlan p = plan(spec);
    EXPECT_EQ(p.family, KernelFamily::RowLookback) << spec;
    EXPECT_EQ(p.threads, 512) << spec;
    EXPECT_EQ(p.items, 24) << spec;
    EXPECT_TRUE(p.rereadTiles) << spec;
    EXPECT_GE(p.stages, 3) << spec;
  }
  EXPECT_TRUE(plan("sum bf16[3,1000001] dim=1").edges);
  for (const char *spec : {"sum bf16[106992271] dim=0 mask", "sum i16[50000001] dim=0", "max bf16[16777216] dim=0",
                           "min f16[64,4194304] dim=1", "sum f16[4194304] dim=0", "sum f16[1048576] dim=0"}) {
    const KernelPlan p = plan(spec);
    EXPECT_EQ(p.threads, 256) << spec;
    EXPECT_FALSE(p.rereadTiles) << spec;
  }
  EXPECT_TRUE(plan("sum f16[4194304] dim=0").heldShares);
  const KernelPlan off = planKernel(mustParse("sum bf16[101238608] dim=0"), *parsePlanTuning("reread_tiles=0"));
  EXPECT_EQ(off.threads, 256);
  EXPECT_FALSE(off.rereadTiles);
  EXPECT_FALSE(planKernel(mustParse("sum bf16[101238608] dim=0"), *parsePlanTuning("threads=256")).rereadTiles);
}

// Look-back tiles without stages (archs without bulk copies) off their
// runs' vector grid load by lanes (LookbackPolicy::kLaneRunsWithoutStages;
// lane_runs=0 turns it off): contiguous rows of one lane, whose warps'
// scratch fits kLaneRunScratchBytes; staged plans never.
TEST(Planner, LookbackLaneRunsWithoutStages) {
  const PlanTuning on = *parsePlanTuning("lane_runs=1");
  const ScanSpec odd = mustParse("sum f32[3,5000003] dim=1");
  const KernelPlan lanes = planKernel(odd, {}, Target{80}); // the policy
  EXPECT_EQ(lanes.family, KernelFamily::RowLookback);
  EXPECT_EQ(lanes.stages, 0);
  EXPECT_TRUE(lanes.laneRuns);
  EXPECT_NE(lanes.toString().find(" lane_runs=1"), std::string::npos);
  const KernelPlan off = planKernel(odd, *parsePlanTuning("lane_runs=0"), Target{80});
  EXPECT_FALSE(off.laneRuns);
  EXPECT_EQ(off.toString().find("lane_runs"), std::string::npos);
  EXPECT_TRUE(planKernel(mustParse("max bf16[2,8388607] dim=1 mask reverse"), on, Target{75}).laneRuns);
  EXPECT_TRUE(planKernel(mustParse("sum u8[2,9000001] dim=1 mask"), on, Target{86}).laneRuns);
  EXPECT_FALSE(planKernel(odd, on, Target{90}).laneRuns);                                            // stages
  EXPECT_FALSE(planKernel(mustParse("sum f32[3,5000003] dim=1 strides=[10000006,2]"), on, Target{80}).laneRuns); // strided
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304,3] dim=0"), on, Target{80}).laneRuns);          // lines at a stride
  // 512 x 16 f32 and their mask: 40 KB of scratch.
  EXPECT_FALSE(planKernel(mustParse("sum f32[3,5000003] dim=1 mask"), *parsePlanTuning("lane_runs=1,threads=512,items=16"),
                          Target{80})
                   .laneRuns);
}

// Without stages, narrow columns pack as Lanes items by lane runs: by the
// policy (ColumnPolicy::kPackedWithoutStages) a power of two of lanes in
// groups of at most 16 bytes of accumulators (32 for 2-byte elements in
// 4-byte ones), or unmasked wider groups of 4-byte accumulators (of 4-byte
// elements, or 16 narrower ones) with 256 bytes of them a thread; any
// packable group where packed_direct=1 asks. Masked ones only where every
// run goes by lanes (lanes_on_grid); archs with stages keep their plans.
TEST(Planner, PackedLanesWithoutStages) {
  const PlanTuning on = *parsePlanTuning("packed_direct=1"), off = *parsePlanTuning("packed_direct=0");
  const ScanSpec narrow = mustParse("sum f32[4194304,4] dim=0");
  EXPECT_EQ(planKernel(narrow, {}, Target{80}).toString(), planKernel(narrow, on, Target{80}).toString());
  EXPECT_EQ(planKernel(narrow, off, Target{80}).packedLanes, 0);
  EXPECT_EQ(planKernel(mustParse("sum f16[2097152,8] dim=0"), {}, Target{86}).packedLanes, 8);   // 32 bytes of f32
  const KernelPlan wide = planKernel(mustParse("sum f32[2097152,8] dim=0"), {}, Target{80}); // 32 bytes
  EXPECT_EQ(wide.packedLanes, 8);
  EXPECT_EQ(wide.threads * wide.items, 1024);
  const KernelPlan bytes = planKernel(mustParse("max u8[1048576,16] dim=0"), {}, Target{75}); // 64 bytes of i32
  EXPECT_EQ(bytes.packedLanes, 16);
  EXPECT_EQ(bytes.threads * bytes.items, 1024);
  EXPECT_EQ(planKernel(mustParse("max u8[1048576,16] dim=0 mask"), {}, Target{80}).packedLanes, 0); // masked
  EXPECT_EQ(planKernel(mustParse("max u8[4194304,8] dim=0"), {}, Target{80}).packedLanes, 0);       // 8 bytes in
  // (16 lanes of 2- or 4-byte elements: the policy's with kPackedWithoutStagesWideSixteen.)
  const bool sixteenByPolicy = policy::ColumnPolicy::kPackedWithoutStagesWideSixteen;
  EXPECT_EQ(planKernel(mustParse("sum f32[1048576,16] dim=0"), {}, Target{80}).packedLanes, sixteenByPolicy ? 16 : 0);
  EXPECT_EQ(planKernel(mustParse("sum f16[1048576,16] dim=0"), {}, Target{80}).packedLanes, sixteenByPolicy ? 16 : 0);
  const KernelPlan sixteen = planKernel(mustParse("sum f32[1048576,16] dim=0"), on, Target{80}); // 64 bytes
  EXPECT_EQ(sixteen.packedLanes, 16);
  EXPECT_EQ(sixteen.threads * sixteen.items, 512);
  const KernelPlan halves = planKernel(mustParse("sum f16[1048576,16] dim=0"), on, Target{80}); // 64 bytes of f32
  EXPECT_EQ(halves.packedLanes, 16);
  EXPECT_EQ(halves.threads, 256);
  const KernelPlan halvesOf75 = planKernel(mustParse("sum f16[1048576,16] dim=0"), on, Target{75});
  EXPECT_EQ(halvesOf75.threads, 128); // (in blocks of 256 they spilled for sm_75)
  EXPECT_EQ(halvesOf75.threads * halvesOf75.items, 1024);
  EXPECT_EQ(planKernel(mustParse("sum f64[2097152,4] dim=0"), {}, Target{80}).packedLanes, 0); // 8-byte sums
  EXPECT_EQ(planKernel(mustParse("sum f32[4194304,3] dim=0"), {}, Target{80}).packedLanes, 0);   // no word
  EXPECT_EQ(planKernel(mustParse("sum f32[4194304,3] dim=0"), on, Target{80}).packedLanes, 3);
  const KernelPlan direct = planKernel(narrow, {}, Target{80});
  EXPECT_EQ(direct.family, KernelFamily::RowLookback);
  EXPECT_EQ(direct.packedLanes, 4);
  EXPECT_EQ(direct.stages, 0);
  EXPECT_TRUE(direct.laneRuns && direct.lanesOnGrid);
  EXPECT_FALSE(direct.laneThreads);
  EXPECT_NE(direct.toString().find(" packed_lanes=4"), std::string::npos);
  EXPECT_EQ(planKernel(mustParse("max u8[1048576,16] dim=0"), on, Target{75}).packedLanes, 16);
  const ScanSpec masked = mustParse("sum f32[4194304,4] dim=0 mask");
  EXPECT_EQ(planKernel(masked, on, Target{80}).packedLanes, 4);
  EXPECT_EQ(planKernel(masked, *parsePlanTuning("packed_direct=1,lanes_on_grid=0"), Target{80}).packedLanes, 0);
  EXPECT_EQ(planKernel(narrow, *parsePlanTuning("packed_direct=1,lanes_on_grid=0"), Target{80}).packedLanes, 4);
  EXPECT_EQ(planKernel(mustParse("logsumexp f32[4194304,4] dim=0"), on, Target{80}).packedLanes, 0);
  const KernelPlan staged = planKernel(narrow, on, Target{90});
  EXPECT_EQ(staged.toString(), planKernel(narrow, {}, Target{90}).toString());
}

// Look-back tiles by lanes of a few rows take shares read twice
// (LookbackPolicy::kRereadShares; reread_shares=0|1 tunes it), sized as
// held shares are, the window reaching every share of a row; not
// log-sum-exp, packed lanes, many rows, or archs with stages.
TEST(Planner, RereadSharesOfLaneRuns) {
  const PlanTuning on = *parsePlanTuning("reread_shares=1");
  const ScanSpec oneD = mustParse("sum f32[4194304] dim=0");
  EXPECT_EQ(planKernel(oneD, {}, Target{80}).toString(), planKernel(oneD, on, Target{80}).toString()); // the policy
  EXPECT_EQ(planKernel(oneD, *parsePlanTuning("reread_shares=0"), Target{80}).rereadShare, 0);
  const KernelPlan shares = planKernel(oneD, {}, Target{80});
  EXPECT_TRUE(shares.laneRuns);
  EXPECT_EQ(shares.rereadShare, 4); // 1024 tiles of 4096 in 256 shares
  EXPECT_EQ(shares.grid, 256);
  EXPECT_GE(int64_t(shares.lookbackWarps) * 32 * shares.lookbackPerLane, shares.grid);
  EXPECT_NE(shares.toString().find(" reread_share=4"), std::string::npos);
  EXPECT_EQ(planKernel(mustParse("sum f32[2,3000001] dim=1"), on, Target{75}).rereadShare > 0, true);
  EXPECT_EQ(planKernel(mustParse("logsumexp f32[4194304] dim=0"), on, Target{80}).rereadShare, 0);
  EXPECT_EQ(planKernel(mustParse("sum f32[100,300000] dim=1"), on, Target{80}).rereadShare, 0); // many rows
  EXPECT_EQ(planKernel(oneD, on, Target{90}).rereadShare, 0);
}

// Runs on their vector grid go by lanes too on archs without bulk copies
// (RowPolicy::kLanesOnGrid, LookbackPolicy::kLanesOnGrid; lanes_on_grid=0|1
// tunes it): rows without stages, but log-sum-exp of elements of 4 bytes
// or more and such rows fewer than kLanesOnGridMinRows; look-back tiles by
// lanes. Never staged plans, nor look-back tiles not by lanes.
TEST(Planner, LanesOnGridWithoutStages) {
  const ScanSpec row = mustParse("sum f32[32768,32768] dim=1"), oneD = mustParse("sum f32[16777216] dim=0");
  const KernelPlan rows = planKernel(row, {}, Target{80});
  EXPECT_EQ(rows.family, KernelFamily::Row);
  EXPECT_TRUE(rows.lanesOnGrid);
  EXPECT_NE(rows.toString().find(" lanes_on_grid=1"), std::string::npos);
  const KernelPlan tiles = planKernel(oneD, {}, Target{75});
  EXPECT_EQ(tiles.family, KernelFamily::RowLookback);
  EXPECT_TRUE(tiles.laneRuns && tiles.lanesOnGrid);
  EXPECT_TRUE(planKernel(mustParse("logsumexp f16[4096,32768] dim=1"), {}, Target{86}).lanesOnGrid);
  EXPECT_TRUE(planKernel(mustParse("sum f16[1000,100000] dim=1"), {}, Target{80}).lanesOnGrid);
  EXPECT_FALSE(planKernel(mustParse("logsumexp f32[8192,32768] dim=1"), {}, Target{80}).lanesOnGrid);
  const ScanSpec fewRows = mustParse("sum f32[1000,100000] dim=1");
  EXPECT_EQ(planKernel(fewRows, {}, Target{80}).family, KernelFamily::Row);
  EXPECT_FALSE(planKernel(fewRows, {}, Target{80}).lanesOnGrid);
  EXPECT_TRUE(planKernel(fewRows, *parsePlanTuning("lanes_on_grid=1"), Target{80}).lanesOnGrid);
  EXPECT_FALSE(planKernel(row, *parsePlanTuning("lanes_on_grid=0"), Target{80}).lanesOnGrid);
  EXPECT_FALSE(planKernel(oneD, *parsePlanTuning("lane_runs=0"), Target{80}).lanesOnGrid);
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304,3] dim=0"), {}, Target{80}).lanesOnGrid); // lines at a stride
  const PlanTuning on = *parsePlanTuning("lanes_on_grid=1");
  EXPECT_FALSE(planKernel(row, on, Target{90}).lanesOnGrid); // stages
  EXPECT_FALSE(planKernel(oneD, on, Target{90}).lanesOnGrid);
  EXPECT_FALSE(planKernel(mustParse("logsumexp f16[4096,32768] dim=1"), {}, Target{90}).lanesOnGrid);
}

// Few columns on archs without stages: a register plan of a few blocks
// takes pieces of it along the scan (ColumnPolicy::kRegisterPieces*), a
// column group a thread, blocks of whole warps for the columns; one of many
// blocks keeps a block a panel, unless tuned (pieces=N).
TEST(Planner, ColumnRegisterPiecesWithoutStages) {
  const ScanSpec tall = mustParse("sum f32[1048576,100] dim=0");
  const KernelPlan policy = planKernel(tall, {}, Target{75});
  EXPECT_EQ(policy.family, KernelFamily::Column);
  EXPECT_EQ(policy.stages, 0);
  EXPECT_EQ(policy.pieces, 1024); // one panel: the policy's blocks
  EXPECT_EQ(policy.grid, 1024);
  const KernelPlan squareish = planKernel(mustParse("sum f32[4096,4096] dim=0"), {}, Target{75});
  EXPECT_EQ(squareish.pieces, 4096 / 64); // 16 panels, pieces of at least 64 rows
  EXPECT_EQ(squareish.grid, 16 * 64);
  const KernelPlan seed = planKernel(mustParse("sum f32[32768,32768] dim=0"), {}, Target{75});
  EXPECT_EQ(seed.pieces, 1); // 128 blocks in registers
  EXPECT_EQ(seed.grid, 128);
  EXPECT_EQ(planKernel(mustParse("sum f32[32768,32768] dim=0"), *parsePlanTuning("pieces=4"), Target{75}).pieces, 4);
  const KernelPlan pieces = planKernel(tall, *parsePlanTuning("pieces=64"), Target{75});
  EXPECT_EQ(pieces.family, KernelFamily::Column);
  EXPECT_EQ(pieces.stages, 0);
  EXPECT_EQ(pieces.pieces, 64);
  EXPECT_EQ(pieces.groups, 1);
  EXPECT_EQ(pieces.threads % 32, 0);
  EXPECT_GE(int64_t(pieces.threads) * pieces.vector, 100);
  EXPECT_EQ(pieces.grid, 64);
  EXPECT_EQ(pieces.workspaceBytes, 16 + 2 * 63LL * pieces.threads * pieces.vector * 2 * 4);
  EXPECT_FALSE(pieces.pieceSpans);
  EXPECT_TRUE(planKernel(tall, *parsePlanTuning("pieces=300,piece_spans=1"), Target{75}).pieceSpans);
  // None empty: 5003 rows in pieces of 26.
  EXPECT_EQ(planKernel(mustParse("max bf16[5003,333] dim=0"), *parsePlanTuning("pieces=200,word_copies=0"), Target{80})
                .pieces,
            193);
  // sm_80 takes the word pipeline's stages unless tuned off; sm_90 always.
  EXPECT_GT(planKernel(tall, *parsePlanTuning("pieces=64"), Target{80}).stages, 0);
  EXPECT_EQ(planKernel(tall, *parsePlanTuning("pieces=64,word_copies=0"), Target{80}).stages, 0);
  EXPECT_GT(planKernel(tall, *parsePlanTuning("pieces=64"), Target{90}).stages, 0);
}

// At most 32 columns on few panels: a column a thread, panels of 32 in 4
// groups (ColumnPolicy::kFewColumns); log-sum-exp and 8-byte sums and
// products (a column a thread in blocks of 256) keep their own, and wider
// panels of a single line take one panel fitted to them (the test below).
TEST(Planner, FewColumnsTakePanelsOfThirtyTwo) {
  for (const char *text : {"sum f32[4194304,20] dim=0", "sum bf16[4000000,24] dim=0 mask", "max f64[2000000,17] dim=0"}) {
    KernelPlan p = pipeline(text);
    EXPECT_EQ(p.family, KernelFamily::Column) << text;
    EXPECT_EQ(p.threads, 128) << text;
    EXPECT_EQ(p.groups, 4) << text;
    EXPECT_EQ(p.vector, 1) << text;
  }
  EXPECT_EQ(pipeline("sum f32[2000000,33] dim=0").threads, 4 * 64); // unmasked off the grid: 4 a column
  EXPECT_EQ(pipeline("logsumexp f32[1000000,20] dim=0").groups, 2);
  EXPECT_EQ(pipeline("prod f64[2000000,17] dim=0").threads, 256);
  EXPECT_EQ(plan("sum f32[300,1000,20] dim=1").vector, 2); // 300 panels: no pieces
}

// Pieces of a single line over 33 to 160 columns of 2- and 4-byte elements:
// one panel as wide as the columns rounded up to a warp, a column a thread,
// the policy's threads a column, halved until two blocks fit an SM at 80 registers a thread
// (ColumnPolicy::kFittedPanelMaxColumns); everything else keeps the policy's
// panels, and tuning turns it either way.
TEST(Planner, OneLineOfColumnsTakesOnePanelFittedToIt) {
  struct Fitted {
    const char *spec;
    int threads, groups;
  };
  for (const Fitted &f : {Fitted{"sum f16[4194304,128] dim=0", 256, 2},      // not f16's panels of 256
                          Fitted{"sum bf16[502457,159] dim=0", 320, 2},      // off the grid
                          Fitted{"sum f32[639371,123] dim=0", 256, 2},       // unmasked off the grid: 4 a column, halved
                          Fitted{"max bf16[3000000,150] dim=0", 320, 2},     // narrow max and min: 2 a column
                          Fitted{"max f16[1000000,72] dim=0", 192, 2},       // (not 4: kTwoThreadColumns*)
                          Fitted{"sum f32[1000000,96] dim=0 mask", 384, 4},  // masked 4-byte sums keep 4 a column
                          Fitted{"min i16[284906,147] dim=0 reverse", 320, 2}}) {
    KernelPlan p = plan(f.spec);
    EXPECT_EQ(p.family, KernelFamily::Column) << f.spec;
    EXPECT_GT(p.pieces, 1) << f.spec;
    EXPECT_EQ(p.vector, 1) << f.spec;
    EXPECT_EQ(p.threads, f.threads) << f.spec;
    EXPECT_EQ(p.groups, f.groups) << f.spec;
  }
  // The policy's panels: several lines, wider columns, 1- and 8-byte
  // elements, log-sum-exp, tuned blocks.
  EXPECT_EQ(plan("sum f32[16,65536,128] dim=1").vector, 2);
  EXPECT_EQ(plan("sum f32[1000000,200] dim=0").vector, 2);
  EXPECT_EQ(plan("sum f16[1000000,200] dim=0").vector, 2);
  EXPECT_EQ(plan("sum f16[1000000,201] dim=0").threads, 256); // off the grid: f16's wide panels
  EXPECT_EQ(plan("sum i8[4000000,150] dim=0").vector, 2);
  EXPECT_EQ(plan("sum f64[1000000,100] dim=0").threads, 256);
  EXPECT_EQ(plan("logsumexp f32[1000000,100] dim=0").threads, plan("logsumexp f32[1000000,100] dim=0 reverse").threads);
  EXPECT_EQ(planKernel(mustParse("sum f32[1000000,96] dim=0"), *parsePlanTuning("threads=128")).vector, 2);
  // Tuned off and on.
  KernelPlan off = planKernel(mustParse("sum f16[4194304,128] dim=0"), *parsePlanTuning("fitted_panel=0"));
  EXPECT_EQ(off.vector, 2);
  EXPECT_EQ(off.threads, 64); // panels of 64: 2-byte sums' of 256 would leave 128 columns idle
  KernelPlan on = planKernel(mustParse("sum f32[16,65536,128] dim=1"), *parsePlanTuning("fitted_panel=1"));
  EXPECT_EQ(on.vector, 1);
  EXPECT_EQ(on.threads, 2 * 128);
  // ... and past 160 columns, split evenly into panels of at most 160.
  const PlanTuning forced = *parsePlanTuning("fitted_panel=1");
  EXPECT_EQ(planKernel(mustParse("sum bf16[560437,179] dim=0 mask reverse"), forced).threads, 2 * 96);
  EXPECT_EQ(planKernel(mustParse("prod f16[260935,280] dim=0 mask reverse"), forced).threads, 2 * 160);
}

// Fitted panels of f16/bf16 sums and products stream stages of 64 rows but
// on one line masked on the 16-byte grid (ColumnPolicy::
// kFittedPanelTwoByteRows); those, f32's and older archs' keep 48.
TEST(Planner, FittedTwoByteSumsTakeLongerStages) {
  for (const char *spec : {"sum f16[206323,144] dim=0", "prod bf16[131072,160] dim=0", "sum f16[250000,96] dim=0",
                           "sum bf16[16,65536,128] dim=1 reverse", "sum f16[8,40000,146] dim=1",
                           "sum f16[16,20000,130] dim=1 mask exclusive", "sum f16[10,30000,160] dim=1 mask exclusive",
                           "sum f16[206323,146] dim=0 reverse", "prod bf16[180001,150] dim=0 mask reverse exclusive",
                           "sum f16[206323,146] dim=0", "sum f16[206323,146] dim=0 mask"}) {
    KernelPlan p = plan(spec);
    EXPECT_EQ(p.vector, 1) << spec; // (the fitted panel)
    EXPECT_GT(p.pieces, 1) << spec;
    EXPECT_EQ(p.rowsPerChunk, 64) << spec;
  }
  EXPECT_TRUE(plan("sum f16[8,40000,146] dim=1").edges);
  // One line masked on the grid, and f32: 48.
  for (const char *spec : {"sum f16[250000,96] dim=0 mask", "sum f16[206323,144] dim=0 mask reverse",
                           "sum f32[250000,96] dim=0", "sum f32[131072,160] dim=0", "sum f32[8,40000,146] dim=1",
                           "sum f32[206323,146] dim=0 reverse"}) {
    KernelPlan p = plan(spec);
    EXPECT_EQ(p.vector, 1) << spec;
    EXPECT_EQ(p.rowsPerChunk, 48) << spec;
  }
  EXPECT_EQ(planKernel(mustParse("sum f16[206323,144] dim=0"), {}, Target{80}).rowsPerChunk, 48);
  EXPECT_EQ(planKernel(mustParse("sum f16[206323,144] dim=0"), *parsePlanTuning("rows=40")).rowsPerChunk, 40);
}

TEST(Planner, SeveralLinesTakeTheFittedPanelWhereFewerColumnsIdle) {
  // 150 columns: f16's panels of 256 leave 106 idle, the fitted 160 ten.
  KernelPlan lines = plan("sum f16[8,200000,150] dim=1");
  EXPECT_EQ(lines.vector, 1);
  EXPECT_EQ(lines.threads / lines.groups, 160);
  EXPECT_EQ(lines.minBlocksPerSm, 2); // asked of ptxas: one an SM lost
  KernelPlan max = plan("max bf16[32,30000,136] dim=1");
  EXPECT_EQ(max.threads / max.groups, 160);
  EXPECT_EQ(max.vector, 1);
  // As many idle as the policy's panels of 64 (100 -> 128 either way), and
  // accumulators of 8 bytes: the policy's panels.
  EXPECT_EQ(plan("sum f32[16,65536,100] dim=1").vector, 2);
  EXPECT_EQ(plan("sum i32[20,9191,70] dim=1 reverse").vector, 2);
  // ... but sums and products of f16 and bf16 take ties (120 -> 128).
  EXPECT_EQ(plan("prod bf16[43,5582,120] dim=1 exclusive").vector, 1);
  EXPECT_EQ(plan("sum f16[16,65536,128] dim=1").vector, 1);
  EXPECT_EQ(plan("max bf16[43,5582,120] dim=1").vector, 2);
  // A single line's fitted panel asks for two blocks an SM only where
  // ptxas's own registers hold one (compileKernel; WantedBlocks.*).
  KernelPlan one = plan("sum f16[1000000,160] dim=0");
  EXPECT_EQ(one.minBlocksPerSm, 1);
  EXPECT_EQ(one.wantedBlocksPerSm, 2);
  EXPECT_NE(one.toString().find(" want_blocks=2"), std::string::npos);
  EXPECT_EQ(lines.wantedBlocksPerSm, 0); // (asked outright)
  EXPECT_EQ(planKernel(mustParse("sum f16[1000000,160] dim=0"), *parsePlanTuning("occupancy=1")).wantedBlocksPerSm, 0);
}

TEST(Planner, TwoByteSumsTakeNarrowPanelsWhereWideOnesLeaveColumnsIdle) {
  auto panelColumns = [](const KernelPlan &p) { return p.threads / p.groups * p.vector; };
  // One line of at most two panels of 256 with pieces: 280 columns leave
  // 232 idle in those, 40 in panels of 64.
  EXPECT_EQ(panelColumns(plan("prod f16[260935,280] dim=0 mask reverse")), 64);
  EXPECT_EQ(panelColumns(plan("sum bf16[560437,179] dim=0 mask reverse")), 64);
  // As many idle either way (238 -> 256), more than two wide panels, or
  // several lines: panels of 256.
  EXPECT_EQ(panelColumns(plan("sum bf16[532446,238] dim=0 mask reverse")), 256);
  EXPECT_EQ(panelColumns(plan("sum f16[8192,4097] dim=0")), 256);
  EXPECT_EQ(panelColumns(plan("sum bf16[17,6239,387] dim=1 reverse")), 256);
}

// Middle-sized scans of a few rows whose tiles all fit the SMs' shared
// memory: two blocks an SM, each holding a share of at least three tiles of
// a row, one look-back a block with a window over the row's shares
// (LookbackPolicy::kShares*).
// Every held plan the policy picks, over row counts and lengths on and off
// the grid, is resident at once (two blocks an SM of an H100 or H200): a
// block never waits on a share whose block has not started, and the grid
// is the rows' shares of at least three tiles.
TEST(Planner, HeldSharesAreResidentAtOnce) {
  int held = 0;
  for (int64_t rows : {1, 2, 3, 5, 7, 12, 17, 40, 48, 64})
    for (int64_t elems : {int64_t(1) << 20, int64_t(3) << 20, int64_t(5000000), int64_t(12000001)})
      for (const char *type : {"f32", "bf16", "f64", "u8"}) {
        const int64_t length = std::max<int64_t>(elems / rows, 1);
        const std::string text = std::string("sum ") + type + "[" + std::to_string(rows) + "," +
                                 std::to_string(length) + "] dim=1";
        const KernelPlan p = plan(text);
        if (!p.heldShares)
          continue;
        ++held;
        EXPECT_LE(p.grid, 2 * 132) << text;
        EXPECT_GE(p.stages, 3) << text;
        EXPECT_EQ(p.grid % rows, 0) << text << ": each row has its own shares";
      }
  EXPECT_GT(held, 20);
}

TEST(Planner, MiddleSizedScansHoldTheirShares) {
  KernelPlan p = plan("sum f32[4194304] dim=0"); // 1024 tiles of 4096
  EXPECT_EQ(p.family, KernelFamily::RowLookback);
  EXPECT_TRUE(p.heldShares);
  EXPECT_EQ(p.stages, 4);
  EXPECT_EQ(p.grid, 256);
  EXPECT_EQ(p.minBlocksPerSm, 2);
  EXPECT_GE(int64_t(32) * p.lookbackWarps * p.lookbackPerLane, p.grid - 1) << "a window over every earlier block";
  EXPECT_NE(p.toString().find(" held_shares=1"), std::string::npos) << p.toString();
  EXPECT_LE(p.sharedBytes, 110 * 1024);
  KernelPlan half = plan("sum f16[8388608] dim=0");
  EXPECT_TRUE(half.heldShares);
  EXPECT_EQ(half.stages, 6);
  EXPECT_TRUE(plan("max bf16[4194304] dim=0 mask").heldShares);
  EXPECT_TRUE(plan("prod f64[2097152] dim=0 reverse exclusive").heldShares);
  // A few rows: shares sized by the row count's class, a row's last share
  // shorter (245 tiles a row in shares of 4).
  KernelPlan rows = plan("sum f32[4,1000000] dim=1 mask reverse");
  EXPECT_TRUE(rows.heldShares);
  EXPECT_EQ(rows.stages, 4);
  EXPECT_EQ(rows.grid, 4 * 62);
  EXPECT_GE(32 * rows.lookbackWarps * rows.lookbackPerLane, 62 - 1) << "a window over every earlier share of a row";
  // Shares sized by the exact count, the grid resident at once: 5 rows of
  // 245 tiles in 49 shares of 5. Counts whose shares come out alike share
  // a kernel (the batch is a launch argument).
  KernelPlan five = plan("sum f32[5,1000000] dim=1");
  EXPECT_TRUE(five.heldShares);
  EXPECT_EQ(five.stages, 5);
  EXPECT_EQ(five.grid, 5 * 49);
  EXPECT_TRUE(five.runtimeBatch);
  EXPECT_EQ(plan("sum f32[40,100000] dim=1").classText(), plan("sum f32[48,100000] dim=1").classText()); // shares of 5
  EXPECT_TRUE(plan("max bf16[16,524288] dim=1 exclusive").heldShares);
  // Rows off the 16-byte grid of elements of at most 2 bytes hold tiles on
  // the input's grid: odd lengths, and pointers a few elements in (the
  // off-grid plan). 4- and 8-byte ones go tile by tile (tuned: held).
  KernelPlan odd = plan("sum bf16[10000001] dim=0 reverse");
  EXPECT_TRUE(odd.heldShares && odd.edges);
  KernelPlan in = planKernel(mustParse("max u8[6000000] dim=0 mask"), *parsePlanTuning("off_grid=1"));
  EXPECT_TRUE(in.heldShares && in.edges);
  EXPECT_FALSE(plan("sum f32[4194303] dim=0").heldShares);
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304] dim=0"), *parsePlanTuning("off_grid=1")).heldShares);
  EXPECT_TRUE(planKernel(mustParse("sum f32[4194303] dim=0"), *parsePlanTuning("held_shares=1")).heldShares);
  // Shares of fewer than three tiles, tiles that do not fit, lines,
  // log-sum-exp, no bulk copies, or tuned off: the look-back tile by tile.
  EXPECT_FALSE(plan("sum f32[2097152] dim=0").heldShares);
  EXPECT_FALSE(plan("sum f32[8388608] dim=0").heldShares);
  EXPECT_FALSE(plan("sum f32[6000000] dim=0 mask").heldShares);
  EXPECT_FALSE(plan("sum f32[65,65536] dim=1").heldShares);       // past kSharesMaxRows
  EXPECT_FALSE(plan("sum f32[2,1000004] dim=1").heldShares); // shares of two tiles
  EXPECT_FALSE(plan("logsumexp f32[4194304] dim=0").heldShares);
  EXPECT_FALSE(plan("sum i32[4194304] dim=0").heldShares); // i64 results: a share's stages do not fit
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304] dim=0"), {}, Target{80}).heldShares);
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304] dim=0"), *parsePlanTuning("held_shares=0")).heldShares);
  // Tuned on, a share may be a single tile.
  KernelPlan tuned = planKernel(mustParse("sum f32[1048576] dim=0"), *parsePlanTuning("held_shares=1,blocks=128"));
  EXPECT_TRUE(tuned.heldShares);
  EXPECT_EQ(tuned.stages, 2);
  EXPECT_EQ(tuned.grid, 128);
}

// Tall panels of contiguous rows: tiles of whole rows, one bulk copy each,
// chained by look-back (ColumnPolicy::kTiles*, column_tiles.cuh).
TEST(Planner, TallPanelsTakeTilesOfWholeRows) {
  KernelPlan p = plan("sum f32[4194304,20] dim=0");
  EXPECT_EQ(p.family, KernelFamily::Column);
  EXPECT_TRUE(p.wholeRows);
  EXPECT_TRUE(p.edges); // any alignment
  EXPECT_EQ(p.threads, 512);
  EXPECT_EQ(p.groups, 25);        // 512 / 20 threads a column
  EXPECT_EQ(p.rowsPerChunk, 600); // 48 KB of 80-byte rows, a multiple of the groups
  EXPECT_EQ(p.stages, 3);
  EXPECT_EQ(p.lookbackPerLane, 4);
  EXPECT_EQ(p.pieces, 1);
  // The look-back's header, then an aggregate and an inclusive prefix
  // (flagged: 8 bytes for f32) for every column of each of 6991 tiles.
  EXPECT_EQ(p.workspaceBytes, 16 + 2 * 6991 * 20 * 8);
  EXPECT_NE(p.toString().find(" whole_rows=1 lookback=4 workspace=2237136"), std::string::npos) << p.toString();
  // Shared memory: three stages of 48000 bytes and 32 of room, a 16-byte
  // mask stand-in, the ring, three tiles' slice totals, and two tiles'
  // prefixes and aggregates.
  EXPECT_EQ(p.sharedBytes, 3 * (48032 + 16 + 18) + (3 * 25 + 4) * 20 * 4 + 256);
  // Windows over span totals (piece_spans=1; tuned only): a value a lane,
  // and a span total more a column of each tile in the workspace.
  const KernelPlan spans = planKernel(mustParse("sum f32[4194304,20] dim=0"), *parsePlanTuning("piece_spans=1"));
  EXPECT_TRUE(spans.wholeRows && spans.pieceSpans);
  EXPECT_EQ(spans.lookbackPerLane, 1);
  EXPECT_EQ(spans.workspaceBytes, 16 + 3 * 6991 * 20 * 8);
  EXPECT_NE(spans.toString().find(" whole_rows=1 lookback=1 piece_spans=1 workspace=3355696"), std::string::npos)
      << spans.toString();
  EXPECT_FALSE(p.pieceSpans);
  // Log-sum-exp's slice totals are (max, sum) pairs: 408 rows of 30 in 17 slices.
  const KernelPlan lse = plan("logsumexp f32[1000000,30] dim=0");
  EXPECT_TRUE(lse.wholeRows && lse.rowsPerChunk == 408 && lse.groups == 17) << lse.toString();
  EXPECT_EQ(lse.sharedBytes, 3 * (48960 + 32 + 16 + 18) + (3 * 17 * 8 + 4 * 4) * 30 + 256);
  // At most 32 slices a column, a lane each in its warp's scan: 1024
  // threads over 20 columns take 32, not 51 (a tuning asks for at most 32).
  const KernelPlan wide = planKernel(mustParse("sum f32[4194304,20] dim=0"), *parsePlanTuning("threads=1024"));
  EXPECT_TRUE(wide.wholeRows && wide.threads == 1024 && wide.groups == 32) << wide.toString();
  // Masked rows and several lines take them too; the batch is a launch argument.
  EXPECT_TRUE(plan("sum bf16[4000000,24] dim=0 mask").wholeRows);
  KernelPlan lines = plan("sum f32[8,30001,21] dim=1");
  EXPECT_TRUE(lines.wholeRows);
  EXPECT_TRUE(lines.runtimeBatch);
  // A lane's flags bound the window: f64 sums of 48 columns read 128
  // tiles; of 64 columns, fewer than 128 would fit (the pipeline's pieces).
  // Masked f64 max and log-sum-exp hold a word more a flag.
  EXPECT_EQ(plan("sum f64[1000003,48] dim=0").lookbackPerLane, 4);
  EXPECT_FALSE(plan("sum f64[1000003,64] dim=0").wholeRows);
  EXPECT_EQ(plan("max f64[1000003,40] dim=0").lookbackPerLane, 4);
  EXPECT_EQ(plan("logsumexp f64[1000003,32] dim=0").lookbackPerLane, 4);
  EXPECT_FALSE(plan("logsumexp f64[1000003,48] dim=0").wholeRows);
  // ... but only where the pipeline's copies (a row of input, and one of
  // mask) would hold more than 256 bytes on average
  // (kTilesSmallCopyMaxBytes): smaller ones take a shorter window.
  KernelPlan masked = plan("max f64[1000003,40] dim=0 mask");
  EXPECT_TRUE(masked.wholeRows);
  EXPECT_EQ(masked.lookbackPerLane, 2); // 48 registers / (3 columns a warp x 6)
  KernelPlan narrow = plan("prod i16[442400,52] dim=0 mask");
  EXPECT_TRUE(narrow.wholeRows);
  EXPECT_EQ(narrow.lookbackPerLane, 3); // 48 / (4 x 4)
  EXPECT_TRUE(plan("sum i32[1000000,52] dim=0").wholeRows);  // 208-byte rows
  EXPECT_FALSE(plan("sum i32[1000000,80] dim=0").wholeRows); // 320
  EXPECT_TRUE(plan("sum i32[1000000,78] dim=0 mask").wholeRows);  // (312 + 78) / 2
  EXPECT_TRUE(plan("sum f64[1000000,52] dim=0 mask").wholeRows);  // (416 + 52) / 2
  EXPECT_FALSE(plan("max i64[1000000,64] dim=0 mask").wholeRows); // (512 + 64) / 2
  // Short windows of 1-byte elements into 8-byte accumulators: at most 64
  // tiles (kTilesByteIntoWideLookback; 96 spilled); 128 still where it fits.
  EXPECT_EQ(plan("sum bool[37,64] dim=0 mask").lookbackPerLane, 2);
  EXPECT_EQ(plan("sum i8[1000003,49] dim=0").lookbackPerLane, 2);
  EXPECT_EQ(plan("sum i8[1000003,33] dim=0").lookbackPerLane, 4);
  EXPECT_EQ(plan("prod i16[1000003,49] dim=0").lookbackPerLane, 3); // 2-byte elements: 96
  // Not: rows apart in memory, wider panels, many lines, narrow columns,
  // targets without bulk copies, and tuned off.
  EXPECT_FALSE(plan("sum f32[1000000,20] dim=0 strides=[24,1]").wholeRows);
  EXPECT_FALSE(plan("sum f32[1048576,100] dim=0").wholeRows); // past kTilesMaxColumns
  // ... which copies of at most 200 bytes extend to 128 columns
  // (kTilesSmallCopiesMaxColumns, kTilesWideSmallCopyMaxBytes).
  EXPECT_TRUE(plan("sum f16[1048576,100] dim=0 reverse").wholeRows); // 200-byte rows
  EXPECT_TRUE(plan("sum f16[2000000,98] dim=0 mask").wholeRows);     // (196 + 98) / 2
  EXPECT_TRUE(plan("sum bool[1000000,127] dim=0").wholeRows);        // 127
  EXPECT_FALSE(plan("sum u8[1000000,200] dim=0").wholeRows);         // past 128
  EXPECT_FALSE(plan("max f16[1000000,120] dim=0").wholeRows);        // 240
  EXPECT_FALSE(plan("sum bf16[1000000,128] dim=0").wholeRows);       // 256
  // On the 16-byte grid, from 64 columns of a single line of 2- and 4-byte
  // elements: the pipeline's one fitted panel (kTilesOnGridMaxColumns), but
  // tiles where a launch's pointers are off the grid.
  for (const char *text : {"sum i32[1000000,80] dim=0 mask", "sum f16[2000000,96] dim=0 mask", "sum f32[1048576,64] dim=0"}) {
    EXPECT_FALSE(plan(text).wholeRows) << text;
    EXPECT_EQ(plan(text).vector, 1) << text;
    EXPECT_TRUE(planKernel(mustParse(text), *parsePlanTuning("off_grid=1")).wholeRows) << text;
  }
  EXPECT_TRUE(plan("sum f32[1000000,60] dim=0").wholeRows);
  EXPECT_TRUE(plan("sum f32[8,100000,64] dim=1").wholeRows);
  // A mask of 1-byte elements is as large as the input: fewer rows a tile
  // (1600 of 20 columns, not 2457), so that three stages fit.
  KernelPlan bytes = plan("sum i8[1000003,20] dim=0 mask");
  EXPECT_TRUE(bytes.wholeRows);
  EXPECT_EQ(bytes.rowsPerChunk, 1600);
  EXPECT_EQ(bytes.rowsPerChunk % bytes.groups, 0);
  EXPECT_LE(bytes.sharedBytes, 227 * 1024);
  EXPECT_TRUE(plan("min bool[1000003,100] dim=0 mask reverse").wholeRows);
  EXPECT_FALSE(plan("sum f32[300,1000,20] dim=1").wholeRows);
  EXPECT_NE(plan("sum f32[1048576,16] dim=0").family, KernelFamily::Column);
  EXPECT_FALSE(planKernel(mustParse("sum f32[4194304,20] dim=0"), {}, Target{80}).wholeRows);
  EXPECT_FALSE(pipeline("sum f32[4194304,20] dim=0").wholeRows);
  // Tuned on: wider panels too, and the tile's rows as tuned.
  KernelPlan tuned = planKernel(mustParse("sum f32[262144,128] dim=0"), *parsePlanTuning("whole_rows=1,tile_rows=120"));
  EXPECT_TRUE(tuned.wholeRows);
  EXPECT_EQ(tuned.rowsPerChunk, 120);
}

TEST(Planner, RowBlocksOfShortRowsFitTheRow) {
  // 1100 floats: 1024 + 76 in 128 threads x 8, one tile of 1280 in 160.
  KernelPlan p = plan("sum f32[1000000,1100] dim=1");
  EXPECT_EQ(p.threads, 160);
  EXPECT_EQ(p.rowsPerChunk, 5); // still at least 4 of its tiles' worth a block
  EXPECT_EQ(plan("sum f32[786432,1400] dim=1").threads, 96);          // 2 x 768 (192 wastes as few; 96 is nearer 128)
  EXPECT_EQ(plan("logsumexp f32[100000,1100] dim=1").threads, 96);    // one tile of 96 x 16
  EXPECT_EQ(plan("sum f32[524288,2048] dim=1").threads, 128);         // whole tiles already
  EXPECT_EQ(plan("sum f32[350000,3000] dim=1").threads, 128);         // 72 empty slots is the least
  EXPECT_EQ(plan("sum f32[32768,8192] dim=1").threads, 128);          // longer rows keep the policy
  EXPECT_EQ(plan("sum f32[100000,1100] dim=1 strides=[1101,1]").threads, 160); // rows off the grid fit alike
}

// Pipelined rows take blocks of 128, but unmasked rows of 2-byte elements
// 256 (StagePolicy::kNarrowUnmaskedRowThreads), and f64 log-sum-exp 256.
TEST(Planner, UnmaskedTwoByteRowsTakeBlocksOf256) {
  for (const char *text : {"sum bf16[947,50176] dim=1", "sum f16[1000,100003] dim=1", "max i16[2000,50000] dim=1",
                           "prod bf16[1000,65536] dim=1 exclusive reverse"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::Row) << text;
    EXPECT_GT(p.stages, 0) << text;
    EXPECT_EQ(p.threads, 256) << text;
  }
  for (const char *text : {"sum f16[1000,100003] dim=1 mask", "logsumexp bf16[1000,65536] dim=1",
                           "sum f32[4096,4096] dim=1", "max u8[1000,65536] dim=1"})
    EXPECT_EQ(plan(text).threads, 128) << text;
  EXPECT_EQ(plan("logsumexp f64[1000,100003] dim=1").threads, 256);
}

TEST(Planner, ShortContiguousRowsAreSegmented) {
  // A block per chunk of whole rows where they are not warp rows (tuned
  // so here: short rows of 4 bytes are padded warp rows by default).
  KernelPlan p = chunks("sum f32[1048576,48] dim=1");
  EXPECT_EQ(p.family, KernelFamily::RowSegmented);
  EXPECT_FALSE(p.warpRows);
  EXPECT_GT(p.rowsPerChunk, 1);
  EXPECT_EQ(p.grid, (1048576 + p.rowsPerChunk - 1) / p.rowsPerChunk);
  // A small problem still spreads over the SMs instead of one block walking it.
  KernelPlan small = plan("sum f32[16,1024] dim=1");
  EXPECT_EQ(small.family, KernelFamily::RowSegmented);
  EXPECT_EQ(small.rowsPerChunk, 1);
  EXPECT_EQ(small.grid, 16);
  // Chunks of rows/264 rows rounded down to a power of two (ShapeClass tests):
  // 2640 rows in chunks of 8.
  EXPECT_EQ(chunks("sum f32[2640,100] dim=1").grid, 330);
}

TEST(Planner, ShortRowsThatAreNotContiguousUseFewerThreads) {
  KernelPlan p = plan("sum f32[1000,40] dim=1 strides=[64,1]");
  EXPECT_EQ(p.family, KernelFamily::Row);
  EXPECT_EQ(p.threads, 32);
}

TEST(Planner, AlignedShortRowsStreamThroughStagesWhenTuned) {
  // Registers by default (the staged kernel compiles slower: PlannerPolicy.h).
  KernelPlan p = plan("sum f32[1048576,32] dim=1");
  EXPECT_EQ(p.family, KernelFamily::RowSegmented);
  EXPECT_EQ(p.threads, 256);
  EXPECT_EQ(p.stages, 0);
  EXPECT_NE(p.toString().find(" stages=0 smem=0"), std::string::npos);
  KernelPlan staged = planKernel(mustParse("sum f32[1048576,32] dim=1"), *parsePlanTuning("stages=8,threads=128"));
  EXPECT_EQ(staged.threads, 128);
  EXPECT_EQ(staged.stages, 8);
  EXPECT_FALSE(staged.warpRows);
  EXPECT_EQ(staged.rowsPerChunk, 512); // 16 KB of rows a block
  EXPECT_NE(staged.toString().find(" stages=8 smem="), std::string::npos);
  // Rows of 37 floats stage as an edges plan (chunks on their 16-byte grid).
  KernelPlan odd = planKernel(mustParse("sum f32[100,37] dim=1"), *parsePlanTuning("stages=8,threads=128"));
  EXPECT_EQ(odd.family, KernelFamily::RowSegmented);
  EXPECT_EQ(odd.stages, 8);
  EXPECT_TRUE(odd.edges);
  EXPECT_EQ(odd.threads, 128);
  EXPECT_FALSE(plan("sum f32[100,37] dim=1").edges); // unstaged by default
}

// Rows of 2-byte elements stream through four stages by default
// (SegmentedPolicy::kStagedInBytes): as bulk copies, odd ones in chunks of
// whole 16-byte words, in blocks of 256; rows tiling a warp's run stay warp
// rows. Edges plans, and blocks whose stages would not hold three tiles
// (8-byte results of masked narrow rows), take 128
// (SegmentedPolicy::kMinStagedStages).
TEST(Planner, ShortRowsOfTwoByteElementsAreStaged) {
  for (const char *text : {"sum bf16[261871,326] dim=1 mask", "max f16[100000,333] dim=1 reverse",
                           "sum f16[16384,1024] dim=1", "sum i16[1000,333] dim=1"}) {
    KernelPlan p = chunks(text);
    EXPECT_EQ(p.family, KernelFamily::RowSegmented) << text;
    EXPECT_GE(p.stages, 3) << text; // (i16 -> i64: three of 256)
    EXPECT_EQ(p.threads, p.edges ? 128 : 256) << text; // (i16[1000,333]: chunks of 2 rows, edges)
    EXPECT_FALSE(p.warpRows) << text;
  }
  EXPECT_FALSE(chunks("sum bf16[261871,326] dim=1").edges);
  EXPECT_FALSE(plan("sum f16[16384,1024] dim=1").edges);
  const KernelPlan wide = chunks("prod i16[7001,63] dim=1 mask"); // i64 results (by default padded warp rows)
  EXPECT_EQ(wide.threads, 128);
  EXPECT_EQ(wide.stages, 4);
  EXPECT_EQ(plan("sum u8[65536,512] dim=1").threads, 256); // three stages of 256
  EXPECT_TRUE(plan("sum bf16[131072,256] dim=1").warpRows);
  // Log-sum-exp keeps registers.
  EXPECT_EQ(chunks("logsumexp bf16[100000,333] dim=1").stages, 0);
}

// Other widths stream through the stages in chunks of whole 16-byte words
// only (SegmentedPolicy::kStages), and keep registers off the grid (small
// chunks, pointers off the grid) and for log-sum-exp.
TEST(Planner, ShortRowsOfOtherWidthsAreStagedInChunksOfWholeWords) {
  struct Case {
    const char *text;
    int threads; // 128 where stages of 256 would hold fewer than three tiles
  };
  for (const Case &c : {Case{"sum f32[77777,333] dim=1", 256}, Case{"sum u8[100000,333] dim=1 mask", 128},
                        Case{"sum f64[65536,300] dim=1", 256}, Case{"max i32[200000,150] dim=1 reverse", 256},
                        Case{"sum f32[65536,336] dim=1", 256}}) {
    const KernelPlan p = chunks(c.text);
    EXPECT_EQ(p.family, KernelFamily::RowSegmented) << c.text;
    EXPECT_GE(p.stages, 3) << c.text;
    EXPECT_EQ(p.threads, c.threads) << c.text;
    EXPECT_FALSE(p.edges) << c.text;
    // Launches off the grid: the grid pipeline (kOffGridChunksStaged).
    const KernelPlan off = chunks(c.text, "off_grid=1,warp_rows=0");
    EXPECT_EQ(off.family, KernelFamily::RowSegmented) << c.text;
    EXPECT_GE(off.stages, 3) << c.text;
    EXPECT_TRUE(off.edges) << c.text;
  }
  EXPECT_EQ(chunks("sum f32[500,333] dim=1").stages, 0); // chunks of 1 row: fewer than 4 rows of whole words
  for (const char *text : {"logsumexp f32[77777,333] dim=1", "logsumexp f64[65536,300] dim=1"})
    EXPECT_EQ(chunks(text).stages, 0) << text;
}

// Staged rows off the 16-byte grid: chunks of as many rows as make the
// input, mask and output whole 16-byte words, so the aligned pipeline moves
// every tile whole but the tensor's last (SegmentedPolicy::kChunksOfWholeWords).
TEST(Planner, OddStagedRowsTakeChunksOfWholeWords) {
  struct Case {
    const char *text;
    int64_t wordRows; // rows of whole words
  };
  for (const Case &c : {Case{"sum f16[86975,295] dim=1", 8}, Case{"sum f16[86975,295] dim=1 mask", 16},
                        Case{"max bf16[100000,333] dim=1 reverse exclusive", 8},
                        Case{"sum bf16[261871,326] dim=1", 4}, Case{"sum bf16[261871,326] dim=1 mask", 8},
                        Case{"prod i16[300000,101] dim=1", 16}}) { // (i16 -> i64: 8 bytes out)
    const KernelPlan p = chunks(c.text);
    EXPECT_EQ(p.family, KernelFamily::RowSegmented) << c.text;
    EXPECT_GT(p.stages, 0) << c.text;
    EXPECT_FALSE(p.edges) << c.text;
    EXPECT_EQ(p.rowsPerChunk % c.wordRows, 0) << c.text << ": " << p.rowsPerChunk;
    EXPECT_GE(p.rowsPerChunk, 64) << c.text;
    // Pointers off the grid take the grid pipeline, in chunks of any rows.
    const KernelPlan off = chunks(c.text, "off_grid=1,warp_rows=0");
    EXPECT_TRUE(off.edges) << c.text;
    EXPECT_GE(off.rowsPerChunk, p.rowsPerChunk) << c.text; // (whole-word chunks are rounded down)
  }
  // Chunks of fewer rows than make whole words (a small problem's) keep
  // the grid pipeline rather than take fewer blocks.
  const KernelPlan small = chunks("sum f16[500,295] dim=1");
  EXPECT_EQ(small.family, KernelFamily::RowSegmented);
  EXPECT_LT(small.rowsPerChunk, 8);
  EXPECT_TRUE(small.edges);
}

TEST(Planner, RowsThatTileAWarpAreScannedByWarps) {
  // 32 floats: four lanes of 8 items a row, eight rows a warp.
  KernelPlan p = plan("sum f32[1048576,32] dim=1");
  EXPECT_EQ(p.family, KernelFamily::RowSegmented);
  EXPECT_TRUE(p.warpRows);
  EXPECT_EQ(p.rowsPerChunk, 8);
  EXPECT_EQ(p.grid, 1048576 / 8 / (256 / 32));
  EXPECT_NE(p.toString().find(" warp_rows=1"), std::string::npos);
  EXPECT_TRUE(plan("sum f32[1048576,256] dim=1").warpRows);  // a row a warp
  EXPECT_TRUE(plan("logsumexp f64[100,4] dim=1").warpRows);  // a row a lane
  // Rows that the row items do not tile take fewer lanes of more items
  // (ShortRowsArePaddedRowsOfFewerLanes): 48 does not divide 256, so 4
  // lanes of 12; tuned out of warp rows, chunks.
  EXPECT_TRUE(plan("sum f32[8000,48] dim=1").warpRows);
  EXPECT_EQ(plan("sum f32[8000,48] dim=1").items, 12);
  EXPECT_FALSE(chunks("sum f32[8000,48] dim=1").warpRows);
  EXPECT_EQ(plan("sum f32[32768,32768] dim=1").toString().find("warp_rows"), std::string::npos);
}

TEST(Planner, RowsThatFitAWarpArePaddedWarpRows) {
  // Rows of 193 to 512 that do not tile a warp's run, any op: a warp a row,
  // the fewest items a lane that hold it (no row heads, no barrier).
  struct Case {
    const char *spec;
    int items;
  };
  for (const Case &c : {Case{"logsumexp f64[65536,300] dim=1", 10}, Case{"logsumexp bf16[100000,333] dim=1 mask", 11},
                        Case{"logsumexp f32[1000,200] dim=1 reverse", 7}, Case{"logsumexp f64[1000,384] dim=1", 12},
                        Case{"sum f32[1000,500] dim=1 mask", 16}, Case{"max i32[1000,300] dim=1", 10},
                        Case{"sum f32[77777,333] dim=1", 11}, Case{"max f32[18471,214] dim=1 mask", 7},
                        Case{"max f64[65536,300] dim=1", 10}, Case{"sum f32[1000,287] dim=1", 9}}) {
    KernelPlan p = plan(c.spec);
    EXPECT_EQ(p.family, KernelFamily::RowSegmented) << c.spec;
    EXPECT_TRUE(p.warpRows) << c.spec;
    EXPECT_EQ(p.items, c.items) << c.spec;
    EXPECT_EQ(p.rowsPerChunk, 1) << c.spec;
    EXPECT_EQ(p.stages, 0) << c.spec;
  }
  // 1- and 2-byte rows (193 to 416): half a warp a row, twice the items,
  // two rows a warp (padded half-warp rows, or kNarrowRowsDoubled's from a
  // whole warp); not where that takes over 96 accumulator bytes a lane (i16
  // products into i64).
  for (const Case &c : {Case{"sum bf16[293952,210] dim=1 reverse", 14}, Case{"min i16[300000,257] dim=1", 17},
                        Case{"max i8[1000,201] dim=1 mask", 13}, Case{"max f16[1000,288] dim=1", 18},
                        Case{"max f16[1000,300] dim=1", 19}, Case{"max u8[65536,300] dim=1", 19},
                        Case{"sum bf16[1000,352] dim=1", 22}, Case{"max f16[1000,289] dim=1", 19}}) {
    KernelPlan p = plan(c.spec);
    EXPECT_TRUE(p.warpRows) << c.spec;
    EXPECT_EQ(p.items, c.items) << c.spec;
    EXPECT_EQ(p.rowsPerChunk, 2) << c.spec;
    EXPECT_EQ(p.grid, (p.geometry.numLines() + 15) / 16) << c.spec; // (16 rows a block of 256)
  }
  // Rows the doubling took from a whole warp to half ask for four blocks an
  // SM (their registers); padded half-warp rows it left alone do not.
  EXPECT_EQ(plan("max f16[1000,300] dim=1").minBlocksPerSm, 4);
  EXPECT_EQ(plan("max u8[65536,300] dim=1").minBlocksPerSm, 4);
  EXPECT_LE(plan("sum bf16[293952,210] dim=1 reverse").minBlocksPerSm, 1); // (no bound)
  EXPECT_EQ(chunks("max f16[1000,300] dim=1", "warp_rows=1,occupancy=2").minBlocksPerSm, 2);
  EXPECT_EQ(plan("prod i16[1000,260] dim=1").rowsPerChunk, 1);
  // Rows of exactly 32 x items whose runs are not whole 16-byte vectors, of
  // 2- and 4-byte elements: one item more, padded (masked rows only where
  // that makes whole vectors); 1- and 8-byte ones, log-sum-exp and whole
  // vectors keep their tiles.
  for (const Case &c : {Case{"sum f16[1000,480] dim=1", 16}, Case{"sum i32[1000,352] dim=1", 12},
                        Case{"sum f32[1000,224] dim=1", 8}, Case{"min i32[1000,288] dim=1", 10},
                        Case{"max u8[1000,224] dim=1", 7}, Case{"sum f64[1000,224] dim=1", 7},
                        Case{"sum f32[1000,224] dim=1 mask", 8}, Case{"max i32[1000,480] dim=1 mask", 16},
                        Case{"sum f32[1000,288] dim=1 mask", 9}, Case{"min f32[1000,416] dim=1 mask", 13},
                        Case{"logsumexp f32[1000,224] dim=1", 7}, Case{"sum f16[1000,512] dim=1", 16}}) {
    KernelPlan p = plan(c.spec);
    EXPECT_TRUE(p.warpRows) << c.spec;
    EXPECT_EQ(p.items, c.items) << c.spec;
    EXPECT_EQ(p.rowsPerChunk, 1) << c.spec;
  }
  EXPECT_EQ(plan("max f32[1000,289] dim=1").items, 10); // (10 items a lane of a warp)
  EXPECT_EQ(plan("logsumexp f64[65536,300] dim=1").grid, 65536 / (256 / 32));
  // f64 log-sum-exp's registers: three blocks an SM from 9 items (tuned,
  // two from 13).
  EXPECT_EQ(plan("logsumexp f64[65536,300] dim=1").minBlocksPerSm, 3);
  EXPECT_EQ(chunks("logsumexp f64[1000,500] dim=1", "warp_rows=1").minBlocksPerSm, 2);
  // Under 7 items a lane of a whole warp (a fifth of the lanes or more
  // idle), over 96 accumulator bytes a lane, masked 2-byte elements (staged
  // chunks) or too long for a warp: chunks; short rows (below) are padded
  // rows of fewer lanes.
  EXPECT_FALSE(plan("logsumexp f64[1000,500] dim=1").warpRows);
  EXPECT_FALSE(plan("sum i64[65536,400] dim=1").warpRows);
  EXPECT_FALSE(plan("sum u8[1000,400] dim=1").warpRows); // (i64 accumulators)
  EXPECT_FALSE(plan("sum f16[86975,295] dim=1 mask").warpRows);
  EXPECT_TRUE(plan("sum f16[86975,295] dim=1").warpRows);
  EXPECT_FALSE(plan("sum f32[10000,513] dim=1").warpRows);
  // Tuned: warp_rows=1 takes rows of up to 16 items, warp_rows=0 takes even
  // tiling rows out of warps.
  EXPECT_TRUE(chunks("sum f32[262144,100] dim=1", "warp_rows=1").warpRows);
  EXPECT_EQ(chunks("sum f32[262144,100] dim=1", "warp_rows=1").items, 13); // (8 lanes a row)
  EXPECT_FALSE(chunks("logsumexp f64[65536,300] dim=1").warpRows);
  EXPECT_FALSE(chunks("logsumexp f64[65536,256] dim=1").warpRows);
}

// No row of 4-byte elements (unmasked, not log-sum-exp) is planned as warp
// rows that tile the warp's run with each lane's run in its registers off
// whole 16-byte vectors (up to 32 bytes: stored from the registers too):
// sum f16[100000,480] dim=1 ran 7.6x copy so, when 2-byte rows loaded so.
// 2-byte rows that tile so now load by words (warp_span.cuh), and the
// doubled ones (kNarrowRowsDoubled) beat the padded rows of a whole warp
// (H200, x copy, padded / tiling: max f16[80000,208] 1.39 / 1.30, min
// bf16[80000,208] exclusive one element in 1.60 / 1.30, max f16[80000,240]
// two in 1.46 / 1.20; BENCHMARKS.md, ninetieth pass).
TEST(Planner, WarpRowsThatTileKeepWholeVectorsInRegisters) {
  for (const char *dtype : {"f32", "i32"}) {
    for (int64_t L = 193; L <= 512; ++L) {
      const std::string spec = std::string("max ") + dtype + "[20000," + std::to_string(L) + "] dim=1" +
                               (L % 2 ? " mask" : ""); // (masked rows too, where 2-byte ones take chunks)
      const KernelPlan p = plan(spec.c_str());
      if (!p.warpRows)
        continue;
      const int lanes = int(32 / p.rowsPerChunk);
      const bool tiles = L == int64_t(lanes) * p.items; // (the kernel's kTiles, a row's lanes whole)
      const int64_t laneBytes = int64_t(p.items) * dtypeSize(*parseDType(dtype));
      EXPECT_TRUE(!tiles || laneBytes % 16 == 0 || laneBytes > 32) << spec << ": " << p.items << " items a lane";
    }
  }
}

// A warp-row plan: its items a lane and rows a warp.
struct WarpRowCase {
  const char *spec;
  int items, rowsPerWarp;
};

void expectWarpRowCases(std::initializer_list<WarpRowCase> cases) {
  for (const WarpRowCase &c : cases) {
    const KernelPlan p = plan(c.spec);
    EXPECT_TRUE(p.warpRows) << c.spec;
    EXPECT_EQ(p.items, c.items) << c.spec;
    EXPECT_EQ(p.rowsPerChunk, c.rowsPerWarp) << c.spec;
  }
}

// The bank model: a warp's 32 lanes one word each apart meet nowhere; its
// lanes one 16-byte run each apart meet four to a bank; two half-warp rows
// of 408 bytes in lanes of 26 meet each other (the second row lies 102
// words on, 6 banks, the lanes' spacing of 6.5), rows of 398 in lanes of 25
// do not (3.5 banks on: between them), as ncu counted (1.96M of 2.79M load
// wavefronts conflicts against 0.64M of 1.61M).
TEST(Planner, WarpSpanBankWaysFollowTheRowsPlaces) {
  EXPECT_DOUBLE_EQ(planning::warpSpanBankWays(128, 32, 1, 4), 1.0);
  EXPECT_DOUBLE_EQ(planning::warpSpanBankWays(4 * 32 * 4, 32, 4, 4), 4.0);
  EXPECT_DOUBLE_EQ(planning::warpSpanBankWays(408, 16, 26, 1), 4.0);
  EXPECT_DOUBLE_EQ(planning::warpSpanBankWays(398, 16, 25, 1), 2.0);
  EXPECT_DOUBLE_EQ(planning::warpSpanBankWays(408, 32, 13, 1), 2.0);
}

// Byte rows keep their lanes where the doubled ones would meet in the
// span's banks at 3 or more ways and more often (kDoubledByteRowsBankWays).
TEST(Planner, DoubledByteRowsStayOffEachOthersBanks) {
  expectWarpRowCases({{"max u8[1000,408] dim=1", 13, 1},  // (4.0 ways doubled, 2.0 whole)
                      {"max u8[1000,398] dim=1", 25, 2},  // (2.0, 2.0)
                      {"min i8[1000,387] dim=1 reverse", 13, 1},
                      {"max u8[1000,403] dim=1", 26, 2},  // (2.5, 2.0)
                      {"max u8[1000,51] dim=1", 13, 8},   // (6.5, 4.0)
                      {"max u8[1000,49] dim=1", 25, 16},  // (2.0, 2.0)
                      {"max i8[1000,201] dim=1", 26, 4},  // (3.0, 3.0)
                      {"max u8[1000,86] dim=1", 11, 4},   // (4.0, 3.0)
                      {"max i16[1000,408] dim=1", 26, 2}}); // (2-byte rows: not modelled)
}

TEST(Planner, NarrowLogSumExpRowsOffVectorsTakeTwiceTheItems) {
  // Unmasked 2-byte log-sum-exp rows that tile a warp's run with lane runs
  // off whole 16-byte vectors: twice the items, fewer lanes a row, where
  // those still tile it and are at most 24.
  expectWarpRowCases({{"logsumexp f16[200000,96] dim=1", 24, 8},
                      {"logsumexp f16[400000,48] dim=1", 24, 16},
                      {"logsumexp bf16[100000,352] dim=1 reverse", 22, 2},
                      {"logsumexp f16[37500,320] dim=1 exclusive", 20, 2},
                      // Kept: 28 items, masked, 4-byte, whole vectors, and 6
                      // items that 12 would not tile.
                      {"logsumexp bf16[107142,112] dim=1", 14, 4},
                      {"logsumexp f16[1000,96] dim=1 mask", 12, 4},
                      {"logsumexp f32[1000,96] dim=1", 12, 4},
                      {"logsumexp f16[1000,256] dim=1", 8, 1},
                      {"logsumexp f16[200000,6] dim=1", 6, 32}});
  EXPECT_EQ(chunks("logsumexp f16[200000,96] dim=1", "items=12").items, 12); // (tuned items kept)
}

TEST(Planner, ShortLogSumExpRowsArePaddedRowsOfFewerLanes) {
  // Rows too short for 7 items a lane of a whole warp: the fewest lanes (a
  // power of two) whose items hold them, several rows a warp (at most 16
  // lanes a row; f64's at most 8 lanes and 8 items, registers), where at
  // most an eighth of their slots idle.
  expectWarpRowCases({{"logsumexp f32[1000,100] dim=1", 13, 4},
                      {"logsumexp f64[1000,60] dim=1", 8, 4},
                      {"logsumexp f16[200000,129] dim=1 mask", 9, 2},
                      {"logsumexp f32[1000,37] dim=1", 10, 8},
                      {"logsumexp f32[1000,12] dim=1 reverse", 12, 32}});
  // f64 rows of 37: 4 lanes would need 10 items, so 8 lanes of 5 (3 of 40
  // slots idle). f64 rows of 100 would take 16 lanes of 7 and rows of 190
  // a whole warp of 6 (both ran slower than chunks), rows of 129 a whole
  // warp of 5 (31 of 160 slots idle): chunks.
  EXPECT_EQ(plan("logsumexp f64[1000,37] dim=1").items, 5);
  EXPECT_EQ(plan("logsumexp f64[1000,37] dim=1").rowsPerChunk, 4);
  EXPECT_FALSE(plan("logsumexp f64[262144,100] dim=1").warpRows);
  EXPECT_FALSE(plan("logsumexp f64[1000,190] dim=1").warpRows);
  EXPECT_FALSE(plan("logsumexp f64[1000,129] dim=1").warpRows);
  // Tuned, f64 rows of 100 are padded rows of 16 lanes.
  EXPECT_EQ(chunks("logsumexp f64[1000,100] dim=1", "warp_rows=1").rowsPerChunk, 2);
}

// Short rows of the other ops (under 7 items a lane of a whole warp) are
// padded rows of the fewest lanes whose items hold them, at most an eighth
// of their slots idle (SegmentedPolicy::kPaddedShortRows); 2-byte sums and
// masked 2-byte rows on the grid only where their rows tile a warp's run or
// are unmasked exclusive sums (kShortTwoByteSumsTiling,
// kShortTwoByteMaskedChunks), the others' chunks streaming bulk copies
// there, and in every off-grid plan.
TEST(Planner, PaddedTwoByteRowsOfWholeWordRunsTakeSixBlocks) {
  // Unmasked 2-byte padded rows of a whole warp whose lanes' runs are whole
  // 16-byte words (16 items) on a 16-byte row grid: six blocks an SM (their
  // kernel carries own and by-words loads); not two rows a warp, nor masked,
  // log-sum-exp, rows off the grid or runs of part words.
  for (const char *spec : {"sum f16[100000,480] dim=1", "max bf16[100000,496] dim=1", "sum bf16[1000,504] dim=1 reverse"}) {
    const KernelPlan p = plan(spec);
    EXPECT_TRUE(p.warpRows) << spec;
    EXPECT_EQ(p.items, 16) << spec;
    EXPECT_EQ(p.minBlocksPerSm, policy::SegmentedPolicy::kPaddedWordRunsMinBlocksPerSm) << spec;
  }
  for (const char *spec : {"sum f16[100000,248] dim=1", "sum f16[100000,480] dim=1 mask", "logsumexp f16[100000,480] dim=1",
                           "sum f16[100000,483] dim=1", "sum f16[100000,230] dim=1"})
    EXPECT_NE(plan(spec).minBlocksPerSm, policy::SegmentedPolicy::kPaddedWordRunsMinBlocksPerSm) << spec;
}

TEST(Planner, ShortRowsArePaddedRowsOfFewerLanes) {
  expectWarpRowCases({{"sum f32[262144,100] dim=1", 13, 4},
                      {"max f32[10000,192] dim=1", 12, 2},
                      {"min f16[349525,48] dim=1", 24, 16}, // (doubled: kNarrowRowsDoubled)
                      {"max u8[335544,100] dim=1 exclusive", 13, 4},
                      {"prod bf16[300000,111] dim=1 exclusive", 14, 4},
                      {"sum i32[838860,20] dim=1 mask reverse", 10, 16},
                      {"sum f64[139810,180] dim=1 mask", 12, 2},
                      {"min f32[1525201,11] dim=1", 11, 32}});
  // More than an eighth of the slots idle: f64 rows of 49 would take 8
  // lanes of 7 (12 accumulator items a lane at most; 7 of 56 idle).
  EXPECT_FALSE(plan("sum f64[1000,49] dim=1").warpRows);
  EXPECT_TRUE(plan("sum f64[1000,56] dim=1").warpRows);
  // 2-byte sums and masked 2-byte rows of the other ops but max and min,
  // padded: chunks on the grid, padded rows off it (kShortTwoByteMaskedChunks);
  // longer masked ones too, up to 16 items a lane (kMaskedTwoByteRowsPadded).
  for (const char *text : {"sum bf16[585251,86] dim=1 mask reverse", "sum f16[1000000,100] dim=1",
                           "sum i16[1000,86] dim=1", "sum bf16[2001,86] dim=1 mask exclusive",
                           "prod bf16[382884,123] dim=1 mask reverse", "sum f16[66232,323] dim=1 mask",
                           "prod bf16[66696,297] dim=1 mask reverse"}) {
    EXPECT_FALSE(plan(text).warpRows) << text;
    EXPECT_GE(plan(text).stages, 3) << text;
    EXPECT_TRUE(chunks(text, "off_grid=1").warpRows) << text;
  }
  // Masked max and min of 2-byte rows are padded rows on the grid too, but
  // where a whole warp's lanes' runs are whole 16-byte words (482 in 32
  // lanes of 16), which keep their chunks on the grid and off it.
  for (const char *text : {"max f16[701606,79] dim=1 mask", "max f16[64710,351] dim=1 mask exclusive",
                           "min i16[48014,404] dim=1 mask", "max bf16[64252,268] dim=1 mask reverse"})
    EXPECT_TRUE(plan(text).warpRows) << text;
  EXPECT_FALSE(plan("min f16[68689,482] dim=1 mask reverse").warpRows);
  EXPECT_FALSE(chunks("min f16[68689,482] dim=1 mask reverse", "off_grid=1").warpRows);
  // ... but rows that tile a warp's run (48 in 2 lanes of 24, doubled from
  // 4 of 12; 28 in 2 of 14), masked or not, and unmasked exclusive padded
  // rows (190 in 8 lanes of 24, doubled from 16 of 12) are warp rows.
  expectWarpRowCases({{"sum bf16[559209,48] dim=1 mask", 24, 16},
                      {"sum f16[3595117,14] dim=1", 14, 32},
                      {"sum bf16[1797558,28] dim=1 exclusive", 14, 16},
                      {"sum f16[76012,190] dim=1 exclusive", 24, 4}});
  EXPECT_EQ(chunks("sum bf16[559209,48] dim=1 mask", "off_grid=1").items, 24);
}

TEST(Planner, ScanningTheOuterDimUsesColumns) {
  KernelPlan p = plan("sum f32[32768,32768] dim=0");
  EXPECT_EQ(p.family, KernelFamily::Column);
  EXPECT_EQ(p.geometry.inner.size, 32768);
  EXPECT_TRUE(p.geometry.lines.empty());
  // 32768 columns cannot fill the GPU four to a thread: two each, in panels
  // of 64 columns whose rows stream through three stages of at most 64
  // rows, four threads to a column (each scans a quarter of a stage's rows).
  EXPECT_EQ(p.vector, 2);
  EXPECT_EQ(p.groups, 4);
  EXPECT_EQ(p.threads, 32 * 4);
  EXPECT_EQ(p.stages, 3);
  EXPECT_FALSE(p.evictFirst);
  EXPECT_NE(p.toString().find(" groups=4"), std::string::npos);
  EXPECT_EQ(p.rowsPerChunk, 64); // 64 x (256 + 16) bytes: under the 32 KB stage
  EXPECT_EQ(p.grid, 32768 / 64);
  EXPECT_EQ(p.pieces, 1); // 512 panels fill the GPU
  EXPECT_EQ(p.workspaceBytes, 0);
  KernelPlan wide = plan("sum f32[512,64,4096] dim=1");
  EXPECT_EQ(wide.vector, 4);
  EXPECT_EQ(wide.unroll, 4);
  EXPECT_EQ(wide.stages, 0); // enough columns: loads to registers
  // Rows that are not 16-byte multiples cannot be bulk-copied: the threads
  // fill the stages (edges), still cut into pieces over many blocks.
  KernelPlan odd = plan("sum f32[1000,1001] dim=0");
  EXPECT_EQ(odd.stages, 3);
  EXPECT_TRUE(odd.edges);
  EXPECT_GT(odd.pieces, 1);
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

TEST(Planner, FewPanelsCutTheScanIntoPieces) {
  // 16 lines x 4 panels of 64 columns, fewer than the SMs: pieces as long
  // as the 3 stages, of 48 rows for a sum, 29 along the 4096 rows (86
  // stages: the last piece two).
  KernelPlan p = plan("sum f32[16,4096,256] dim=1");
  EXPECT_EQ(p.rowsPerChunk, 48);
  EXPECT_EQ(p.pieces, 29);
  EXPECT_EQ(p.grid, 16 * 4 * 29);
  // A ticket counter, then an aggregate and an inclusive prefix (flagged:
  // 8 bytes for f32) per column of every piece but a panel's last.
  EXPECT_EQ(p.workspaceBytes, 16 + 2 * 64 * 28 * 64 * 8);
  EXPECT_NE(p.toString().find(" pieces=29 workspace=1835024"), std::string::npos);
  EXPECT_EQ(p.minBlocksPerSm, 5); // as many as the shared memory allows, at most 5
  EXPECT_EQ(p.groups, 2);         // two threads a column, not four
  EXPECT_EQ(p.threads, 64);
  // Resident pieces keep each stage's slice totals: 3 stages x 2 groups x 64
  // columns of f32, besides the stages (48 rows of 256 bytes and an 8-byte
  // mbarrier each, plus a 16-byte mask row per row) and 256 bytes of slack.
  EXPECT_EQ(p.sharedBytes, 3 * (48 * (256 + 16) + 8) + 3 * 2 * 64 * 4 + 256);
  // Pieces read twice (tuned) exchange one stage's totals at a time.
  EXPECT_EQ(planKernel(mustParse("sum f32[16,4096,256] dim=1"), *parsePlanTuning("pieces=8")).sharedBytes,
            3 * (48 * (256 + 16) + 8) + 2 * 64 * 4 + 256);
  // Max keeps stages of 64 rows and 4 blocks an SM (slower with shorter ones).
  KernelPlan max = plan("max f32[16,4096,256] dim=1");
  EXPECT_EQ(max.rowsPerChunk, 64);
  EXPECT_EQ(max.pieces, 22);
  EXPECT_EQ(max.minBlocksPerSm, 4);
  EXPECT_EQ(planKernel(mustParse("sum f32[16,4096,256] dim=1"), *parsePlanTuning("groups=4")).groups, 4);
  EXPECT_EQ(plan("sum f32[64,150,256] dim=1").groups, 4); // no pieces: the policy's four
  EXPECT_EQ(plan("max f32[16,4096,256] dim=1").groups, 4); // a costlier combine: four
  EXPECT_EQ(plan("sum f32[3000,256] dim=0").pieces, 21); // 63 stages of 48 rows
  // f64 sums: a column a thread, four threads to a column, blocks of 256;
  // totals of 16 bytes each (17 stages of 62 rows: 6 pieces of 3).
  KernelPlan f64 = pipeline("sum f64[8,1000,64] dim=1");
  EXPECT_EQ(f64.threads, 256);
  EXPECT_EQ(f64.vector, 1);
  EXPECT_EQ(f64.groups, 4);
  EXPECT_EQ(f64.pieces, 6);
  EXPECT_EQ(f64.workspaceBytes, 16 + 2 * 8 * 5 * 64 * 16);
  // ... on the grid or off it, but not integers summed in i64.
  EXPECT_EQ(planKernel(mustParse("sum f64[501898,258] dim=0"), *parsePlanTuning("off_grid=1")).vector, 1);
  EXPECT_EQ(planKernel(mustParse("sum f64[501898,258] dim=0"), *parsePlanTuning("off_grid=1")).threads, 256);
  EXPECT_EQ(planKernel(mustParse("prod f64[300000,300] dim=0 mask"), *parsePlanTuning("off_grid=1")).vector, 1);
  EXPECT_NE(plan("sum i16[8192,8192] dim=0").threads, 256);
  EXPECT_EQ(plan("sum i32[65536,2048] dim=0 mask").vector, 2);
  // A tuned count, cut the same way (none empty) and never more than the stages.
  KernelPlan tuned = planKernel(mustParse("sum f32[3,3000,80] dim=1"), *parsePlanTuning("whole_rows=0,pieces=7"));
  EXPECT_EQ(tuned.pieces, 7); // 63 stages: 9 a piece
  EXPECT_EQ(planKernel(mustParse("sum f32[3,3000,80] dim=1"), *parsePlanTuning("whole_rows=0,pieces=20")).pieces,
            16); // 4 a piece
  EXPECT_EQ(planKernel(mustParse("sum f32[3,100,64] dim=1"), *parsePlanTuning("whole_rows=0,pieces=7")).pieces, 3);
  EXPECT_EQ(planKernel(mustParse("sum f32[64,4096,256] dim=1"), *parsePlanTuning("pieces=1")).pieces, 1);
  EXPECT_EQ(plan("sum f32[64,4096,256] dim=1").pieces, 29); // 256 panels: still too few
  // Enough panels (two an SM), scans no longer than the stages, blocks too
  // large for a piece's registers, and loads to registers: none.
  EXPECT_EQ(plan("sum f32[32768,32768] dim=0").pieces, 1);
  EXPECT_EQ(plan("sum f32[96,4096,256] dim=1").pieces, 1);
  EXPECT_EQ(planKernel(mustParse("sum f32[16,4096,256] dim=1"), *parsePlanTuning("threads=1024,groups=8")).pieces, 1);
  EXPECT_EQ(plan("sum f32[64,150,256] dim=1").pieces, 1);
}

// Pieces of unmasked 4- and 8-byte edges plans keep four threads a column
// and 64-row stages, as do masked 4-byte sums on the grid or off it
// (ColumnPolicy::kMaskedPiecesKeepPipelineGroups); other aligned or 2-byte
// ones take two and 48 (ColumnPolicy::kPieceGroupsMaxUnmaskedEdgesInBytes).
TEST(Planner, PiecesOffTheGridKeepFourThreadsAColumn) {
  for (const char *text : {"sum f32[327129,245] dim=0 reverse", "max f64[16384,1001] dim=0",
                           "sum i32[8192,4097] dim=0"}) {
    KernelPlan p = plan(text);
    EXPECT_TRUE(p.edges) << text;
    EXPECT_GT(p.pieces, 1) << text;
    EXPECT_EQ(p.groups, 4) << text;
    EXPECT_EQ(p.threads, 128) << text;
  }
  EXPECT_EQ(plan("sum f32[327129,245] dim=0").rowsPerChunk, 64);
  for (const char *text : {"sum f32[8192,4097] dim=0 mask", "prod f32[8192,4096] dim=0 mask reverse"}) {
    KernelPlan p = plan(text);
    EXPECT_GT(p.pieces, 1) << text;
    EXPECT_EQ(p.groups, 4) << text;
    EXPECT_EQ(p.rowsPerChunk, 64) << text;
  }
  for (const char *text : {"sum i16[8192,4097] dim=0", "sum f32[2048,8192] dim=0", "sum i32[8192,4096] dim=0 mask"}) {
    KernelPlan p = plan(text);
    EXPECT_GT(p.pieces, 1) << text;
    EXPECT_EQ(p.groups, 2) << text;
    EXPECT_EQ(p.rowsPerChunk, 48) << text;
  }
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

// Sums and products of f16/bf16 through the column pipeline take blocks of
// 256 (wider panels) unless those bring pieces to a plan that had none, or
// to rows on the 16-byte grid; max, min and 2-byte integers keep the
// policy's panels.
TEST(Planner, TwoByteFloatSumsTakeWiderColumnPanels) {
  for (const char *text : {"sum f16[8192,8193] dim=0", "prod bf16[4096,4095] dim=0 mask", "sum f16[64,256,1024] dim=1"})
    EXPECT_EQ(plan(text).threads, 256) << text;
  for (const char *text : {"sum f16[8192,8192] dim=0", "prod bf16[4096,4096] dim=0 mask", "sum f16[16384,16384] dim=0"}) {
    const KernelPlan p = plan(text); // on the grid, with pieces: as f32's
    EXPECT_GT(p.pieces, 1) << text;
    EXPECT_EQ(p.threads, plan("sum f32[8192,8192] dim=0").threads) << text;
  }
  // 512 panels of 64: no pieces; 256 of 128 would have them. Unmasked,
  // panels of 128 in blocks of 128 (two threads a column) take them anyway.
  KernelPlan big = plan("sum bf16[32768,32768] dim=0");
  EXPECT_EQ(big.threads, 128);
  EXPECT_EQ(big.groups, 2);
  EXPECT_EQ(plan("sum bf16[32768,32768] dim=0 mask").pieces, 1);
  EXPECT_EQ(plan("sum i16[8192,8192] dim=0").threads, plan("sum f32[8192,8192] dim=0").threads);
  EXPECT_EQ(plan("max f16[4096,4096] dim=0").threads, 128);
  EXPECT_EQ(planKernel(mustParse("sum f16[8192,8192] dim=0"), *parsePlanTuning("threads=64")).threads, 64);
}

// Unmasked max and min of f16 and bf16 take panels of 128 in blocks of 128,
// two threads a column (ColumnPolicy::kTwoThreadColumns*), and those of
// 1-byte elements reading 16 rows ahead: on the 16-byte grid, masked or
// not, and off it unmasked from 2^26 elements on; masked 2-byte ones,
// smaller or masked 1-byte ones off the grid, i16 and 4-byte elements keep
// the policy's four.
TEST(Planner, NarrowMaxAndMinColumnsTakeTwoThreadsAColumn) {
  for (const char *text : {"max f16[8192,4096] dim=0", "min bf16[25598,1500] dim=0 reverse",
                           "max bf16[32768,32768] dim=0", "min f16[8192,8192] dim=0 exclusive",
                           "max u8[1926,2560] dim=0", "min i8[8192,8192] dim=0 exclusive",
                           "max i8[64,4096,512] dim=1 reverse", "max u8[8192,8192] dim=0 mask",
                           "min u8[4000000,100] dim=0"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::Column) << text;
    EXPECT_EQ(p.threads, 128) << text;
    EXPECT_EQ(p.groups, 2) << text;
    EXPECT_EQ(p.threads / p.groups * p.vector, 128) << text;
    if (dtypeSize(mustParse(text).in) == 1) {
      EXPECT_EQ(p.unroll, 16) << text;
    }
  }
  for (const char *text : {"max bf16[16384,8192] dim=0 mask", "max f32[8192,4096] dim=0", "min i32[8192,4096] dim=0",
                           "max i16[8192,4096] dim=0", "max u8[1926,2521] dim=0", "max u8[4000000,130] dim=0 mask",
                           "max u8[8192,8191] dim=0 mask"})
    EXPECT_EQ(plan(text).groups, 4) << text;
}

// ... but a single line of 129 to 192 byte columns takes one panel of 192,
// blocks of 192 (ColumnPolicy::kTwoThreadColumnsByteOnePanelThreads), on the
// grid or off it; from 193 columns, or on several lines, panels of 128.
TEST(Planner, ByteMaxMinColumnsOfAPanelAndAHalfTakeOnePanel) {
  for (const char *text : {"min u8[4000000,130] dim=0", "max i8[3000,144] dim=0", "max u8[600000,176] dim=0 mask",
                           "min i8[2001,176] dim=0 mask reverse exclusive", "max i8[2000000,190] dim=0 exclusive"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::Column) << text;
    EXPECT_EQ(p.threads, 192) << text;
    EXPECT_EQ(p.groups, 2) << text;
    EXPECT_EQ(p.threads / p.groups * p.vector, 192) << text;
    EXPECT_EQ(p.grid, p.pieces) << text << ": one panel";
  }
  for (const char *text : {"max u8[400000,240] dim=0", "max i8[4,3000,144] dim=1", "min u8[4000000,100] dim=0"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.threads, 128) << text;
    EXPECT_EQ(p.groups, 2) << text;
  }
  EXPECT_EQ(planKernel(mustParse("min u8[4000000,130] dim=0"), *parsePlanTuning("threads=128")).threads, 128);
}

// Max and min of bytes over 97 to 128 columns leave the tiles of whole rows
// for two threads a column from 2^26 elements on
// (ColumnPolicy::kTilesByteMaxMinMaxColumns); fewer columns, fewer elements,
// masked rows off the grid and other ops keep the tiles.
TEST(Planner, ByteMaxMinPastThreeQuartersOfAPanelLeaveTheTiles) {
  for (const char *text : {"min u8[16,65536,128] dim=1", "max i8[2000000,120] dim=0 exclusive",
                           "max i8[8,200000,112] dim=1"}) {
    const KernelPlan p = plan(text);
    EXPECT_FALSE(p.wholeRows) << text;
    EXPECT_EQ(p.groups, 2) << text;
  }
  for (const char *text : {"max i8[3000000,96] dim=0 mask", "max u8[200000,128] dim=0",
                           "max u8[2000000,120] dim=0 mask", "sum u8[2000000,120] dim=0"})
    EXPECT_TRUE(plan(text).wholeRows) << text;
}

// A column pipeline's groups read their rows from the stage ahead of their
// scan: 8 rows of 2-byte elements, 4 of wider ones, on the 16-byte grid;
// the whole slice (rows / groups) off it and for 1-byte elements; four
// rows for log-sum-exp of floats, two of doubles; the tuning's count where
// there is one.
TEST(Planner, ColumnPanelsReadRowsAheadByElementSize) {
  auto slice = [](const KernelPlan &p) { return (p.rowsPerChunk + p.groups - 1) / p.groups; };
  for (const char *text : {"sum f16[8192,4096] dim=0", "max bf16[4096,4096] dim=0 mask", "max i16[8192,4096] dim=0"})
    EXPECT_EQ(plan(text).unroll, 8) << text;
  for (const char *text : {"sum f32[4096,4096] dim=0", "min f32[8192,4096] dim=0 reverse", "sum f64[8192,8192] dim=0",
                           "sum i32[4096,4096] dim=0"})
    EXPECT_EQ(plan(text).unroll, 4) << text;
  for (const char *text : {"sum f32[4096,4097] dim=0", "sum bf16[21648,3697] dim=0 mask reverse", "sum u8[16384,4096] dim=0"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::Column) << text;
    EXPECT_EQ(p.unroll, slice(p)) << text;
  }
  EXPECT_EQ(plan("logsumexp f32[32768,1024] dim=0").unroll, 4);
  EXPECT_EQ(plan("logsumexp f32[32768,1024] dim=0").stages, 2);
  EXPECT_EQ(plan("logsumexp f64[32768,1024] dim=0").unroll, 2);
  EXPECT_EQ(plan("logsumexp f64[32768,1024] dim=0").stages, 3);
  EXPECT_EQ(planKernel(mustParse("sum f16[8192,4096] dim=0"), *parsePlanTuning("unroll=3")).unroll, 3);
}

// Slices too heavy to hold read rows ahead: 8-byte sums and products off
// the grid 4 (ColumnPolicy::kRowsAhead), 1-byte integers summed in 8
// bytes on archs not timed 8 (kRowsAheadUntimedByteSums), and 2-byte
// integers summed in 8 bytes off the grid 8 (kRowsAheadTwoByteIntoWideEdges);
// max and min off the grid and sm_90's 1-byte sums keep their slices.
TEST(Planner, HeavyColumnSlicesReadRowsAhead) {
  auto slice = [](const KernelPlan &p) { return (p.rowsPerChunk + p.groups - 1) / p.groups; };
  for (const char *text : {"prod f64[300000,300] dim=0 mask", "sum f64[4096,4097] dim=0 mask reverse exclusive",
                           "sum f64[501898,258] dim=0 mask", "sum f64[4096,4097] dim=0"}) {
    const KernelPlan p = plan(text);
    EXPECT_TRUE(p.edges) << text;
    EXPECT_EQ(p.unroll, 4) << text;
  }
  for (const char *text : {"max f64[4096,4097] dim=0 mask", "min i64[4096,4097] dim=0", "sum u8[4096,4096] dim=0"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.unroll, slice(p)) << text;
    EXPECT_GT(p.unroll, 8) << text;
  }
  for (const char *text : {"prod i16[4,200003,150] dim=1 mask", "sum i16[1000003,150] dim=0", "sum i16[16,20000,333] dim=1"}) {
    const KernelPlan p = plan(text);
    EXPECT_TRUE(p.edges) << text;
    EXPECT_EQ(p.unroll, 8) << text;
  }
  for (const char *text : {"sum i8[8,100003,150] dim=1", "sum u8[100000,1000] dim=0 reverse"}) {
    const KernelPlan p = plan(text);
    EXPECT_TRUE(p.edges) << text;
    EXPECT_EQ(p.unroll, slice(p)) << text;
  }
  for (int sm : {100, 120}) {
    const KernelPlan p = planKernel(mustParse("sum u8[4096,4096] dim=0"), {}, Target{sm});
    EXPECT_EQ(p.family, KernelFamily::Column) << sm;
    EXPECT_EQ(p.unroll, 8) << sm;
  }
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

TEST(PlanTuning, ParsesKnownKeysAndRejectsTheRestByName) {
  auto t = parsePlanTuning("threads=512, items=16,lookback=4");
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->threads, 512);
  EXPECT_EQ(t->items, 16);
  EXPECT_EQ(t->lookback, 4);
  EXPECT_EQ(t->toString(), "threads=512,items=16,lookback=4");
  EXPECT_TRUE(parsePlanTuning("")->empty());
  EXPECT_EQ(parsePlanTuning("pieces=3")->pieces, 3);
  EXPECT_FALSE(parsePlanTuning("pieces=3")->empty());
  auto readers = parsePlanTuning("lookback_warps=2");
  ASSERT_TRUE(static_cast<bool>(readers));
  KernelPlan wide = planKernel(mustParse("sum f32[8,16777216] dim=1"), *readers);
  EXPECT_EQ(wide.lookbackWarps, 2); // a window of 32 x 2 x 4 tiles
  EXPECT_NE(wide.toString().find(" lookback_warps=2"), std::string::npos);
  auto oneReader = parsePlanTuning("lookback_warps=1");
  ASSERT_TRUE(static_cast<bool>(oneReader));
  EXPECT_EQ(planKernel(mustParse("sum f32[8,16777216] dim=1"), *oneReader).toString().find("lookback_warps"),
            std::string::npos); // one reading warp is not printed
  auto columnRows = parsePlanTuning("rows=16,stages=6");
  ASSERT_TRUE(static_cast<bool>(columnRows));
  KernelPlan column = planKernel(mustParse("sum f32[32768,32768] dim=0"), *columnRows);
  EXPECT_EQ(column.rowsPerChunk, 16);
  EXPECT_EQ(column.stages, 6);
  auto oneGroup = parsePlanTuning("groups=1,evict_first=1");
  ASSERT_TRUE(static_cast<bool>(oneGroup));
  EXPECT_EQ(oneGroup->toString(), "groups=1,evict_first=1");
  KernelPlan single = planKernel(mustParse("sum f32[32768,32768] dim=0"), *oneGroup);
  EXPECT_EQ(single.threads, 32);
  EXPECT_TRUE(single.evictFirst);
  EXPECT_EQ(single.toString().find("groups="), std::string::npos);
  EXPECT_NE(single.toString().find(" evict_first=1"), std::string::npos);
  // Tuned threads are the whole block: 256 threads in 4 groups, one column
  // each, are a panel of 64.
  KernelPlan narrow = planKernel(mustParse("sum f32[32768,32768] dim=0"), *parsePlanTuning("threads=256,vector=1"));
  EXPECT_EQ(narrow.threads, 256);
  EXPECT_EQ(narrow.grid, 32768 / 64);
  // The look-back streams with the evict-first L2 policy unless tuned off;
  // block-per-row scans do not.
  EXPECT_TRUE(plan("sum f32[8,16777216] dim=1").evictFirst);
  EXPECT_FALSE(planKernel(mustParse("sum f32[8,16777216] dim=1"), *parsePlanTuning("evict_first=0")).evictFirst);
  EXPECT_FALSE(plan("sum f32[32768,8192] dim=1").evictFirst);
  // Columns per thread for the column pipeline, within what the strides allow.
  KernelPlan wideColumns = planKernel(mustParse("sum f32[32768,32768] dim=0"), *parsePlanTuning("vector=4,threads=256,groups=8"));
  EXPECT_EQ(wideColumns.vector, 4);
  EXPECT_EQ(wideColumns.groups, 8);
  EXPECT_EQ(wideColumns.pieces, 177); // 256 panels of 128 columns: too few; 529 stages of 62 rows
  EXPECT_EQ(wideColumns.grid, 32768 / 128 * 177);
  EXPECT_EQ(planKernel(mustParse("sum f32[1000,1000,8] dim=0"), *parsePlanTuning("vector=8")).vector, 4);
  EXPECT_FALSE(static_cast<bool>(parsePlanTuning("vector=3")));
  auto occupancy = parsePlanTuning("occupancy=1");
  ASSERT_TRUE(static_cast<bool>(occupancy));
  EXPECT_EQ(planKernel(mustParse("sum f32[8,16777216] dim=1"), *occupancy).minBlocksPerSm, 1);
  for (const char *bad : {"threads=500", "items=0", "items=x", "warps=4", "unroll=33", "threads", "occupancy=9",
                          "groups=0", "groups=33", "evict_first=2", "evict_first=-1", "whole_rows=2", "held_shares=2",
                          "tile_rows=0"}) {
    auto e = parsePlanTuning(bad);
    ASSERT_FALSE(static_cast<bool>(e)) << bad;
    std::string message = llvm::toString(e.takeError());
    EXPECT_NE(message.find(llvm::StringRef(bad).split(',').first.str()), std::string::npos) << message;
  }
}

TEST(PlanTuning, ReplacesThePolicyChoiceOfTheFamily) {
  PlanTuning t;
  t.items = 4;
  t.lookback = 2;
  KernelPlan lookback = planKernel(mustParse("sum f32[8,16777216] dim=1"), t);
  EXPECT_EQ(lookback.items, 4);
  EXPECT_EQ(lookback.lookbackPerLane, 2);
  EXPECT_EQ(lookback.threads, 512);
  EXPECT_EQ(lookback.workspaceBytes, 16 + 2 * (8 * 16777216 / 2048) * 8);
  t = PlanTuning{};
  t.threads = 512;
  t.items = 16;
  KernelPlan row = planKernel(mustParse("sum f32[32768,32768] dim=1"), t);
  EXPECT_EQ(row.threads, 512);
  EXPECT_EQ(row.items, 16);
  EXPECT_NE(row.toString(), planKernel(mustParse("sum f32[32768,32768] dim=1")).toString());
}

TEST(Planner, RowTilesStreamThroughSharedMemoryWhenAligned) {
  KernelPlan seed = plan("sum f32[32768,32768] dim=1 mask");
  EXPECT_EQ(seed.family, KernelFamily::Row);
  EXPECT_EQ(seed.stages, 8); // 4 KB input + 1 KB mask per stage, within 50 KB
  EXPECT_GE(seed.sharedBytes, 8 * (4096 + 1024));
  EXPECT_EQ(plan("sum f16[8192,32768] dim=1 mask").stages, 8);
  EXPECT_EQ(plan("sum i32[32768,8192] dim=1").stages, 6); // stages hold the 8-byte outputs too
  // Rows not a multiple of 16 bytes (or mask rows of 3000 bytes) stage as
  // edges plans; their masks take a word more a stage.
  EXPECT_EQ(plan("sum f32[64,3001] dim=1").stages, 8);
  EXPECT_TRUE(plan("sum f32[64,3001] dim=1").edges);
  EXPECT_EQ(plan("sum f32[64,3000] dim=1 mask").stages, 8);
  EXPECT_TRUE(plan("sum f32[64,3000] dim=1 mask").edges);
  EXPECT_EQ(plan("sum f32[64,3008] dim=1 mask").stages, 8);
  EXPECT_FALSE(plan("sum f32[64,3008] dim=1 mask").edges);
}

// Plans follow the target's arch family (compiler/ArchPolicy.cpp).
TEST(Planner, PlansFollowTheArchFamily) {
  auto planFor = [](const char *text, int sm) { return planKernel(mustParse(text), {}, Target{sm}); };
  // No bulk copies before sm_90: no stages, no edges, no shared memory
  // (only the column pipeline, by word copies from sm_80: the test above);
  // the look-back of few rows launches a block a share of tiles, each share
  // read twice (RereadSharesOfLaneRuns).
  for (int sm : {75, 80, 86, 89}) {
    for (const char *text : {"sum f32[32768,32768] dim=1", "sum f32[64,3001] dim=1", "sum f32[8,16777216] dim=1",
                             "sum f32[1048576,256] dim=1"}) {
      KernelPlan p = planFor(text, sm);
      EXPECT_EQ(p.stages, 0) << text << " sm_" << sm;
      EXPECT_EQ(p.sharedBytes, 0) << text << " sm_" << sm;
      EXPECT_FALSE(p.edges) << text << " sm_" << sm;
      EXPECT_FALSE(p.evictFirst) << text << " sm_" << sm;
      EXPECT_EQ(p.pieces, 1) << text << " sm_" << sm;
    }
    const KernelPlan fewRows = planFor("sum f32[8,16777216] dim=1", sm);
    EXPECT_GT(fewRows.rereadShare, 1) << "sm_" << sm;
    EXPECT_EQ(fewRows.grid, 8 * ((16777216 / 4096 + fewRows.rereadShare - 1) / fewRows.rereadShare)) << "sm_" << sm;
  }
  // Occupancy within the arch's threads (sm_75: 1024 an SM) and shared
  // memory (sm_120: 100 KB an SM) per SM; re-read shares take two blocks
  // an SM, the grid they fill.
  const PlanTuning tileByTile = *parsePlanTuning("reread_shares=0");
  EXPECT_EQ(planKernel(mustParse("sum f32[8,16777216] dim=1"), tileByTile, Target{75}).minBlocksPerSm, 2);
  EXPECT_EQ(planKernel(mustParse("sum f32[8,16777216] dim=1"), tileByTile, Target{80}).minBlocksPerSm, 3);
  EXPECT_EQ(planFor("sum f32[8,16777216] dim=1", 80).minBlocksPerSm, 2);
  EXPECT_EQ(planFor("sum f32[8,16777216] dim=1", 120).minBlocksPerSm, 2);
  EXPECT_EQ(planFor("sum f32[8,16777216] dim=1", 100).minBlocksPerSm, 3);
  // sm_90 and sm_100 plans differ only in the family they name.
  for (const char *text : {"sum f32[32768,32768] dim=1", "sum f32[32768,32768] dim=0", "sum f32[64,3001] dim=1"}) {
    KernelPlan h = planFor(text, 90), b = planFor(text, 100);
    EXPECT_EQ(h.policy, "sm_90");
    EXPECT_EQ(b.policy, "sm_100/120");
    b.policy = h.policy;
    EXPECT_EQ(h.toString(), b.toString()) << text;
  }
  EXPECT_EQ(planFor("sum f32[8,16777216] dim=1", 86).policy, "sm_80/86/89");
  EXPECT_EQ(planFor("sum f32[8,16777216] dim=1", 70).policy, "sm_75"); // older: the oldest row
}

// Narrow columns of a cheap combine, unmasked, whose rows lie on the
// 16-byte grid in whole groups are one row of packed rows: the pipelined
// look-back's stages hold a tile of packed items (packed_lanes.cuh).
TEST(Planner, NarrowColumnsOnTheGridArePacked) {
  for (const char *text : {"sum f32[1048576,2] dim=0", "sum f32[1048576,3] dim=0", "max f16[8388608,2] dim=0 reverse",
                           "sum i32[300000,2] dim=0", "prod f64[100001,2] dim=0 exclusive", "sum f32[4,100000,3] dim=1",
                           "min bf16[1048576,4] dim=0", "sum f32[1048576,2] dim=0 mask", "max f16[65536,2] dim=0 mask"}) {
    KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::RowLookback) << text;
    EXPECT_GT(p.stages, 0) << text;
    EXPECT_FALSE(p.edges) << text;
  }
  // A tile of 256 threads x 13 pairs of floats a stage (a thread holds both
  // lanes of its items; 13 unmasked on the timed arch); every warp reads
  // the window.
  KernelPlan two = plan("sum f32[8388608,2] dim=0");
  EXPECT_TRUE(two.laneThreads);
  EXPECT_EQ(two.laneWidth, 2);
  EXPECT_EQ(two.items, 13);
  EXPECT_EQ(two.threads, 256);
  EXPECT_EQ(two.lookbackWarps, 8);
  EXPECT_EQ(two.lookbackPerLane, 1);
  EXPECT_EQ(two.sharedBytes, two.stages * (256 * 13 * 2 * 4 + 16 + 48) + 256);
  // The same workspace as a tile a line: a value of the group's lanes a tile.
  EXPECT_EQ(two.workspaceBytes, 16 + 2 * (2 * ((8388608 + 3327) / 3328)) * 2 * 4);
  // Lanes items (packed_lanes.cuh) where lane threads do not pay: a tile of
  // 256 x 8 items of 4 bf16 a stage (2-byte elements in 4-byte accumulators
  // take twice the budget: kPackedTwoByteAccBytes; larger problems take
  // one block an SM: PackedLanesTakeOneBlockOfMoreItems).
  KernelPlan items = plan("min bf16[1048576,4] dim=0 mask reverse");
  EXPECT_FALSE(items.laneThreads);
  EXPECT_EQ(items.items, 8);
  EXPECT_EQ(items.threads, 256);
  EXPECT_EQ(items.sharedBytes, items.stages * (256 * 8 * 4 * 2 + 256 * 8 * 4 + 48) + 256); // (and the mask's bytes)
  EXPECT_EQ(items.workspaceBytes, 16 + 2 * (1048576 / (256 * 8)) * 2 * (4 * 4)); // (4 lanes of f32 a value)
  // Sums and products of them too (2 lanes: 16 items); groups of 5-8 lanes
  // of them (over 16 bytes of accumulators) take blocks of 128 and four
  // times the budget (kPackedTwoByteWideAccBytes), staged up to 24 bytes
  // not rounded to a power of two (kPackedStagedMaxGroupBytes): 5 lanes 12
  // items, 6 lanes 10, 7 lanes 8.
  const std::tuple<const char *, int, int> twoByte[] = {
      {"sum f16[1048576,4] dim=0 mask", 256, 8},      {"prod bf16[1048576,4] dim=0 mask reverse", 256, 8},
      {"max i16[1048576,4] dim=0 mask", 256, 8},      {"sum bf16[8388608,2] dim=0 mask", 256, 16},
      {"max f16[2097152,6] dim=0", 128, 10},          {"sum bf16[2097152,6] dim=0 exclusive", 128, 10},
      {"min i16[3355440,5] dim=0", 128, 12},          {"min bf16[2097152,7] dim=0", 128, 8},
      // Staged 2 lanes unmasked and 3 lanes: the most items that keep 128
      // registers (kPackedTwoByteStagedTwoLaneItems, ...ThreeLaneItems); in
      // shifted stages fewer (...ShiftedItems).
      {"sum f16[16777216,2] dim=0", 256, 20},         {"prod f16[8388608,2] dim=0 reverse exclusive", 256, 20},
      {"sum f16[5592405,3] dim=0", 256, 11},          {"max i16[5592405,3] dim=0 mask exclusive", 256, 11}};
  for (const auto &[text, threads, itemsEach] : twoByte) {
    KernelPlan p = plan(text);
    EXPECT_EQ(p.threads, threads) << text;
    EXPECT_EQ(p.items, itemsEach) << text;
  }
  // Other staged groups of up to 24 bytes: 96 bytes of accumulators, tiles
  // of up to 32 KB, while three stages fit (kPackedStaged*): f32 x 3 8
  // items, masked 7 (8 leave two stages), f32 x 6 4, byte sums into i64 x 2
  // 6; 7 lanes of f32 (28 bytes) keep the power-of-two budget's 2. (In
  // problems of a few hundred tiles: larger ones take one block an SM of
  // more, PackedLanesTakeOneBlockOfMoreItems.)
  const std::pair<const char *, int> staged[] = {{"sum f32[5592404,3] dim=0", 8},
                                                 {"max i32[5592404,3] dim=0 mask reverse", 7},
                                                 {"sum f32[200000,6] dim=0", 4},
                                                 {"sum u8[400000,2] dim=0", 6},
                                                 {"max i32[100000,7] dim=0", 2}};
  for (const auto &[text, itemsEach] : staged) {
    const KernelPlan p = plan(text);
    EXPECT_FALSE(p.laneThreads) << text;
    EXPECT_EQ(p.items, itemsEach) << text;
    EXPECT_GE(p.stages, 3) << text;
  }
  // Untimed archs keep the power-of-two budgets (sm_100 spilled at 19 items
  // of 2-byte pairs, sm_100 and sm_120 8-48 stores in the wider ones).
  EXPECT_EQ(planKernel(mustParse("sum f32[5592404,3] dim=0"), {}, Target{100}).items, 4);
  EXPECT_EQ(planKernel(mustParse("sum f16[16777216,2] dim=0"), {}, Target{100}).items, 16);
  PlanTuning offGrid;
  offGrid.offGrid = 1;
  EXPECT_EQ(planKernel(mustParse("sum f16[16777216,2] dim=0"), offGrid).items, 18);
  EXPECT_EQ(planKernel(mustParse("sum f16[5592405,3] dim=0"), offGrid).items, 10);
  // Four f16/bf16 lanes in shifted stages, unmasked: 9 items, not 8
  // (kPackedTwoByteStagedFourLaneShiftedItems); i16 and masked keep 8.
  // (Larger problems take one block an SM: PackedLanesTakeOneBlockOfMoreItems.)
  EXPECT_EQ(planKernel(mustParse("sum f16[1048576,4] dim=0"), offGrid).items, 9);
  EXPECT_EQ(planKernel(mustParse("min bf16[1048576,4] dim=0 reverse"), offGrid).items, 9);
  EXPECT_EQ(planKernel(mustParse("max i16[1048576,4] dim=0"), offGrid).items, 8);
  EXPECT_EQ(planKernel(mustParse("sum f16[8388608,4] dim=0 mask"), offGrid).items, 8);
  // i16 sums (in 8-byte accumulators) keep the usual budget.
  EXPECT_EQ(plan("sum i16[200000,4] dim=0").items, 2);
  // One group alone packs whatever its length (the pipeline copies its
  // ragged end); groups in lines off the 16-byte grid pack into shifted
  // stages (edges=1: each tile read from its place in its first word).
  for (const char *text : {"sum f32[1048577,2] dim=0", "sum f32[1048574,2] dim=0 mask", "max bf16[2097153,7] dim=0 reverse",
                           "sum f32[100001,3] dim=0 mask exclusive"}) {
    EXPECT_GT(plan(text).packedLanes, 1) << text;
    EXPECT_FALSE(plan(text).edges) << text;
  }
  for (const char *text : {"sum f32[3,1048574,2] dim=1 mask", "sum f32[3,1048577,2] dim=1",
                           "sum f16[4,200003,3] dim=1 mask reverse"}) {
    EXPECT_GT(plan(text).packedLanes, 1) << text;
    EXPECT_TRUE(plan(text).edges) << text;
  }
  for (const char *text : {"sum f32[1048576,2] dim=0 strides=[3,1]", // rows not whole groups
                           "logsumexp f32[1048576,3] dim=0"})         // a costly combine, lanes not tiling a warp
    EXPECT_EQ(plan(text).stages, 0) << text;
  // Log-sum-exp lanes that tile a warp: a lane a thread, whose pairs
  // combine with one exp (lane_threads.cuh); in parts past 32 bytes.
  for (const char *text : {"logsumexp f32[1048576,2] dim=0", "logsumexp f16[1048576,8] dim=0 mask",
                           "logsumexp f64[1048576,4] dim=0 reverse exclusive", "logsumexp f32[1048576,16] dim=0",
                           "logsumexp bf16[3,100001,4] dim=1"}) {
    const KernelPlan p = plan(text);
    EXPECT_GT(p.packedLanes, 1) << text;
    EXPECT_TRUE(p.laneThreads) << text;
    EXPECT_EQ(p.laneWidth, 1) << text;
    EXPECT_GT(p.stages, 0) << text;
  }
  EXPECT_EQ(plan("logsumexp f32[1048576,16] dim=0").lookbackWarps % 2, 0); // two parts, warps of each
  EXPECT_EQ(plan("logsumexp f64[1048576,16] dim=0").packedLanes, 0);        // 128 bytes: past the parts' 64
  EXPECT_EQ(planKernel(mustParse("logsumexp f32[1048576,4] dim=0"), {}, Target{80}).packedLanes, 0); // (no bulk copies)
  // Groups of 33-64 bytes that no lane threads tile a warp for publish in
  // two parts of at most 32 bytes, the last padded (8-byte accumulators of
  // 5-7 lanes, narrower integers summed into i64 x 5-7, 4-byte ones of 9-15
  // lanes): staged Lanes items where many tiles take one block an SM.
  for (const char *text : {"sum f64[1048576,5] dim=0", "max i64[1048576,7] dim=0 mask", "sum i32[1048576,6] dim=0",
                           "sum u8[1198372,7] dim=0", "sum f32[1048576,12] dim=0", "max f16[1048576,9] dim=0 mask",
                           "min i32[1048576,13] dim=0", "prod bf16[1048576,11] dim=0"}) {
    const KernelPlan p = plan(text);
    EXPECT_GE(p.stages, 3) << text;
    EXPECT_GT(p.packedLanes, 4) << text;
    EXPECT_FALSE(p.laneThreads) << text;
    EXPECT_EQ(p.minBlocksPerSm, 1) << text;
    EXPECT_EQ(p.lookbackWarps % 2, 0) << text << ": warps of each part";
  }
  // Max and min of i16 in parts within 192 bytes of accumulators a thread
  // (masked x 13 spilled 16 stores at 5 items); groups in parts of too few
  // tiles stay unpacked.
  EXPECT_EQ(plan("max i16[1048576,13] dim=0 mask").items, 3);
  EXPECT_EQ(plan("min i16[1864135,9] dim=0").items, 5);
  EXPECT_EQ(plan("max f32[1398101,13] dim=0").items, 5); // (272 bytes: 5)
  // Unmasked 8-byte accumulators in parts within 280 bytes, but integer
  // products (they spilled): 7 items of 5 lanes, 5 of 7.
  EXPECT_EQ(plan("sum f64[3355443,5] dim=0").items, 7);
  EXPECT_EQ(plan("max i64[2396745,7] dim=0").items, 5);
  EXPECT_EQ(plan("sum u8[3355443,5] dim=0").items, 7);
  EXPECT_EQ(plan("prod i64[2396745,7] dim=0").items, 3);
  EXPECT_EQ(plan("sum i64[2396745,7] dim=0 mask").items, 3);
  for (const char *text : {"sum f32[100000,12] dim=0", "sum f64[100001,5] dim=0", "max i16[100000,13] dim=0"})
    EXPECT_EQ(plan(text).packedLanes, 0) << text;
  // Groups of 17 to 32 bytes pack in blocks of 256 (128 registers a thread).
  for (const char *text : {"max f32[2097152,6] dim=0", "sum f64[1048576,3] dim=0", "sum i32[1048576,4] dim=0 reverse"}) {
    KernelPlan p = plan(text);
    EXPECT_GT(p.stages, 0) << text;
    EXPECT_GT(p.packedLanes, 1) << text;
    EXPECT_EQ(p.threads, 256) << text;
  }
}

// Groups of 33 to 64 bytes of accumulators in whole parts of 32 bytes
// (f32 x 16, max u8 x 16 in i32, f64 x 8) are packed for lane threads (of
// words of lanes where the accumulators are 4 bytes), the look-back
// publishing each part apart with whole warps of its own; on the grid or
// not.
TEST(Planner, SixteenLanesPublishInParts) {
  // Every kind takes one block an SM where the SM's shared memory holds
  // three stages of its items: unmasked 31 items, masked 23 (4- and 8-byte
  // elements 29: ColumnPolicy::kLaneThreadOneBlockMaskedWideItems); shifted stages
  // (off the grid) 17, but for items of at most 8 bytes of accumulators
  // narrower than 8 bytes (31; ColumnPolicy::kLaneThreadOneBlockWideItems).
  const std::tuple<const char *, int, int, int> cases[] = {
      {"sum f32[1048576,16] dim=0", 2, 31, 31},          {"max i32[1048576,16] dim=0 mask", 2, 29, 17},
      {"sum f16[1048576,16] dim=0", 4, 31, 17},          {"max bf16[2097152,16] dim=0 mask", 4, 23, 17},
      {"min f32[3,700001,16] dim=1 reverse", 2, 31, 31}, {"sum f64[1048576,8] dim=0", 1, 31, 17},
      {"max i64[1048576,8] dim=0 reverse", 1, 31, 17},   {"max f64[1048576,8] dim=0 mask", 1, 29, 17}};
  PlanTuning offGrid;
  offGrid.offGrid = 1;
  for (const auto &[text, width, onGridItems, shiftedItems] : cases)
    for (const auto &[p, items] :
         {std::pair{plan(text), onGridItems}, std::pair{planKernel(mustParse(text), offGrid), shiftedItems}}) {
      EXPECT_EQ(p.packedLanes, width == 1 ? 8 : 16) << text;
      EXPECT_TRUE(p.laneThreads) << text;
      EXPECT_EQ(p.laneWidth, width) << text;
      EXPECT_EQ(p.items, items) << text;
      EXPECT_EQ(p.minBlocksPerSm, 1) << text;
      EXPECT_GE(p.stages, 3) << text;
      EXPECT_EQ(p.lookbackWarps % 2, 0) << text;
    }
  // Byte max and min of 16 lanes: words of 8 lanes of 31 items, on the grid
  // and in shifted stages; masked, of 17 items on the grid, in as many
  // tiles as SMs (ColumnPolicy::kLaneWordBytesOfByteMaxMin).
  const std::tuple<const char *, int, int> byteCases[] = {{"max u8[1048576,16] dim=0", 31, 31},
                                                          {"min i8[2097152,16] dim=0 reverse", 31, 31},
                                                          {"max u8[4194304,16] dim=0 mask", 17, 17}};
  for (const auto &[text, onGridItems, shiftedItems] : byteCases) {
    const KernelPlan onGrid = plan(text), shifted = planKernel(mustParse(text), offGrid);
    for (const auto &[p, items] : {std::pair{onGrid, onGridItems}, std::pair{shifted, shiftedItems}}) {
      EXPECT_EQ(p.packedLanes, 16) << text;
      EXPECT_EQ(p.laneWidth, 8) << text;
      EXPECT_EQ(p.items, items) << text;
      EXPECT_EQ(p.minBlocksPerSm, 1) << text;
      EXPECT_GE(p.stages, 3) << text;
    }
  }
  // Masked in fewer tiles than SMs (65536 / 2176 items a tile): words of 4.
  EXPECT_EQ(plan("max u8[65536,16] dim=0 mask").laneWidth, 4);
  // sm_120's 100 KB an SM holds two stages of 23 items of 16 f32 lanes: it
  // keeps the plan of smaller blocks (9 items on an untimed arch), and byte
  // lanes there keep words of 4.
  const KernelPlan small = planKernel(mustParse("sum f32[1048576,16] dim=0"), {}, Target{120});
  EXPECT_TRUE(small.laneThreads);
  EXPECT_EQ(small.items, 9);
  for (const char *text : {"max u8[4194304,16] dim=0", "max u8[4194304,16] dim=0 mask", "max u8[8388608,8] dim=0"})
    EXPECT_EQ(planKernel(mustParse(text), {}, Target{120}).laneWidth, 4) << text;
  // A tuning's odd count of reading warps rounds down to whole warps a part.
  PlanTuning threeWarps;
  threeWarps.lookbackWarps = 3;
  EXPECT_EQ(planKernel(mustParse("sum f32[1048576,16] dim=0"), threeWarps).lookbackWarps, 2);
}

// Lane threads of 32-byte groups (8 lanes of 4-byte accumulators) on the
// grid take one block an SM of 31 items (masked 29 of 4-byte elements,
// else 23, and 31 for i32 sums and products into i64) from 262144 packed
// items on; fewer items (too few tiles for the SMs) and masked shifted
// stages keep the smaller blocks (ColumnPolicy::kLaneThreadOneBlock*).
TEST(Planner, LargeGroupsOfManyItemsTakeOneBlockAnSm) {
  const std::pair<const char *, int> cases[] = {
      {"sum f32[262144,8] dim=0", 31},        {"max u8[8388608,8] dim=0", 31},
      {"max i16[4194304,8] dim=0 reverse", 31}, {"max f32[36,39292,8] dim=1 reverse", 31},
      {"sum f32[4194304,8] dim=0 mask", 29},  {"prod i32[4194304,8] dim=0", 31},
      {"max i16[4194304,8] dim=0 mask", 23}};
  for (const auto &[text, items] : cases) {
    const KernelPlan p = plan(text);
    EXPECT_TRUE(p.laneThreads) << text;
    EXPECT_EQ(p.items, items) << text;
    EXPECT_EQ(p.minBlocksPerSm, 1) << text;
    EXPECT_GE(p.stages, 3) << text;
  }
  // Untimed archs keep 23 items.
  EXPECT_EQ(planKernel(mustParse("sum f32[4194304,8] dim=0"), {}, Target{100}).items, 23);
  PlanTuning offGrid;
  offGrid.offGrid = 1;
  for (const KernelPlan &p : {plan("sum f32[262143,8] dim=0"), planKernel(mustParse("max f32[1048576,8] dim=0 mask"), offGrid)}) {
    EXPECT_TRUE(p.laneThreads);
    EXPECT_EQ(p.items, 11);
    EXPECT_EQ(p.minBlocksPerSm, 2);
  }
  // Unmasked, shifted stages keep items of 8 lanes (ColumnPolicy::kShiftedWideLanesAsItems).
  EXPECT_FALSE(planKernel(mustParse("sum f32[1048576,8] dim=0"), offGrid).laneThreads);
  // 16-byte groups keep the smaller blocks whatever their size (13 items
  // unmasked on the timed arch).
  EXPECT_EQ(plan("sum f32[16777216,4] dim=0").items, 13);
  // Byte max and min of 8 lanes: words of 8 in one block an SM (masked: 17
  // items), words of 4 in the smaller blocks and, masked, in fewer tiles
  // than SMs (ColumnPolicy::kLaneWordBytesOfByteMaxMin).
  const KernelPlan byteWords = plan("max u8[8388608,8] dim=0"), maskedByteWords = plan("max u8[8388608,8] dim=0 mask");
  EXPECT_EQ(byteWords.laneWidth, 8);
  EXPECT_EQ(maskedByteWords.laneWidth, 8);
  EXPECT_EQ(maskedByteWords.items, 17);
  EXPECT_EQ(maskedByteWords.minBlocksPerSm, 1);
  const KernelPlan smallBlocks = plan("max u8[200000,8] dim=0"), fewTiles = plan("min i8[262144,8] dim=0 mask");
  EXPECT_EQ(smallBlocks.laneWidth, 4);
  EXPECT_EQ(smallBlocks.minBlocksPerSm, 2);
  EXPECT_EQ(fewTiles.laneWidth, 4);
  EXPECT_EQ(fewTiles.items, 23);
}

// Every op and dtype over 2-16 narrow columns of 16M elements, masked or
// not, plans within each arch's shared memory a block: unpacked lanes'
// stages once left out the mask's byte, and 234 of these took more than
// sm_75's 64 KB (sum f32[2097152,8] dim=0 mask: 73792 bytes).
TEST(Planner, NarrowColumnsFitEveryArchsSharedMemory) {
  for (int sm : {75, 80, 86, 90, 100, 120}) {
    const int64_t most = archPolicy(Target{sm}).maxDynamicSharedBytes;
    for (ScanOp op : kAllOps)
      for (DType t : kAllDTypes) {
        if (op == ScanOp::LogSumExp && !isFloating(t))
          continue;
        for (int c = 2; c <= 16; ++c)
          for (const char *mask : {"", " mask"}) {
            const std::string text = opName(op).str() + " " + dtypeName(t).str() + "[" +
                                     std::to_string((1 << 24) / c) + "," + std::to_string(c) + "] dim=0" + mask;
            EXPECT_LE(planKernel(mustParse(text), {}, Target{sm}).sharedBytes, most) << text << " on sm_" << sm;
          }
      }
  }
}

// Narrower integers summed or multiplied into i64 x 8 (64-byte groups,
// published in two parts) take lane threads on the timed arch: one block
// an SM of 31 items, masked, shifted and wider than the input (i32) too.
// Untimed archs keep their plans (sm_100: unpacked).
TEST(Planner, WidenedGroupsInPartsTakeLaneThreadsOfWideItems) {
  PlanTuning offGrid;
  offGrid.offGrid = 1;
  for (const char *text : {"sum u8[1048576,8] dim=0", "sum i16[2097152,8] dim=0 mask reverse",
                           "prod i8[1048576,8] dim=0 exclusive", "sum bool[1048576,8] dim=0",
                           "sum i32[2097152,8] dim=0 mask"}) {
    for (const KernelPlan &p : {plan(text), planKernel(mustParse(text), offGrid)}) {
      EXPECT_EQ(p.packedLanes, 8) << text;
      EXPECT_TRUE(p.laneThreads) << text;
      EXPECT_EQ(p.items, 31) << text;
      EXPECT_EQ(p.minBlocksPerSm, 1) << text;
      EXPECT_GE(p.stages, 3) << text;
    }
  }
  EXPECT_FALSE(planKernel(mustParse("sum u8[1048576,8] dim=0"), {}, Target{100}).laneThreads);
}

// Narrower integers summed or multiplied into i64 x 4 (whole 32-byte
// groups) take the same lane threads on the timed arch where they lie on
// the grid in many packed items (ColumnPolicy::kLaneThreadOneBlockMinItems).
// Shifted stages, fewer items and untimed archs keep staged Lanes items.
TEST(Planner, WidenedGroupsOfFourTakeLaneThreadsOnTheGrid) {
  for (const char *text : {"sum u8[8388608,4] dim=0", "sum i16[4194304,4] dim=0", "prod i8[1048576,4] dim=0 exclusive",
                           "sum bool[262144,4] dim=0 reverse", "sum i32[4194304,4] dim=0 mask",
                           "prod i16[3,100000,4] dim=1 mask reverse"}) {
    const KernelPlan p = plan(text);
    EXPECT_EQ(p.packedLanes, 4) << text;
    EXPECT_TRUE(p.laneThreads) << text;
    EXPECT_EQ(p.laneWidth, 1) << text;
    EXPECT_EQ(p.items, 31) << text;
    EXPECT_EQ(p.minBlocksPerSm, 1) << text;
    EXPECT_GE(p.stages, 3) << text;
  }
  PlanTuning offGrid;
  offGrid.offGrid = 1;
  const ScanSpec many = mustParse("sum u8[8388608,4] dim=0");
  for (const KernelPlan &p : {planKernel(many, offGrid), planKernel(many, {}, Target{100}), plan("sum u8[262143,4] dim=0"),
                              plan("max u8[8388608,4] dim=0 exclusive")}) {
    EXPECT_EQ(p.packedLanes, 4);
    EXPECT_LT(p.items, 31);
  }
  EXPECT_FALSE(planKernel(many, offGrid).laneThreads);
  EXPECT_FALSE(planKernel(many, {}, Target{100}).laneThreads);
}

// On the timed arch, four 2-byte lanes (staged Lanes items shifted and
// unmasked or on the grid and masked; lane threads on the grid unmasked),
// five 4-byte lanes on the grid, u8/i8 pairs and masked u8/i8 words of four
// lanes take one block an SM of more items where that still makes enough
// tiles (ColumnPolicy::kPackedOneBlock*, widerPackedItems); smaller
// problems and other archs keep their smaller blocks.
TEST(Planner, PackedLanesTakeOneBlockOfMoreItems) {
  PlanTuning offGrid;
  offGrid.offGrid = 1;
  const std::tuple<const char *, bool, bool, int> wide[] = {
      // (spec, shifted, lane threads, items)
      {"sum f16[8388608,4] dim=0", true, false, 20},        {"max i16[4194304,4] dim=0 exclusive", true, false, 20},
      {"prod bf16[2097152,4] dim=0 reverse", true, false, 20}, {"min u8[16777216,2] dim=0 reverse", false, true, 31},
      {"max i8[8388608,2] dim=0 mask", false, true, 31},     {"min u8[16777216,2] dim=0", true, true, 31},
      {"max u8[4194304,4] dim=0 mask", false, true, 31},     {"min i8[16777216,4] dim=0 mask reverse", false, true, 31},
      {"sum f16[8388607,4] dim=0 mask", false, false, 23},   {"max bf16[4194304,4] dim=0 mask reverse", false, false, 23},
      {"min bf16[4194304,4] dim=0 reverse", false, true, 31}, {"sum f16[8388608,4] dim=0", false, true, 31},
      {"max i32[3355443,5] dim=0 mask", false, false, 10},  {"sum f32[3355443,5] dim=0", false, false, 10},
      // Staged groups the byte budget leaves at 6 items or fewer: the most
      // odd items within 272 bytes of accumulators a thread, from 17, that
      // hold three stages in 2 tiles an SM (shifted five lanes among them).
      {"sum u8[16777216,2] dim=0", false, false, 17},       {"prod i8[8388608,2] dim=0 mask", false, false, 15},
      {"sum f32[2796202,6] dim=0", false, false, 11},       {"sum f32[2796202,6] dim=0 mask", false, false, 9},
      {"max i32[2396745,7] dim=0", false, false, 9},        {"max i32[2396745,7] dim=0 mask", false, false, 7},
      {"sum i16[4194304,4] dim=0", true, false, 7},         {"prod i64[4194304,4] dim=0", false, false, 7},
      {"sum f64[5592405,3] dim=0", false, false, 11},       {"sum f32[2796202,6] dim=0", true, false, 11},
      {"sum f32[3355443,5] dim=0", true, false, 13},        {"max f32[699050,6] dim=0", false, false, 9}};
  for (const auto &[text, shifted, laneThreads, items] : wide) {
    const KernelPlan p = shifted ? planKernel(mustParse(text), offGrid) : plan(text);
    EXPECT_EQ(p.items, items) << text;
    EXPECT_EQ(p.minBlocksPerSm, 1) << text;
    EXPECT_GE(p.stages, 3) << text;
    EXPECT_EQ(p.laneThreads, laneThreads) << text;
  }
  // Fewer tiles (pairs: 6 an SM, the others 3) or another arch: the smaller blocks.
  for (const auto &[text, shifted] : {std::pair{"sum f16[1048576,4] dim=0", true}, std::pair{"min u8[4194304,2] dim=0", false},
                                      std::pair{"max u8[1048576,4] dim=0 mask", false}}) {
    const ScanSpec spec = mustParse(text);
    for (const KernelPlan &p : {shifted ? planKernel(spec, offGrid) : plan(text),
                                planKernel(spec, shifted ? offGrid : PlanTuning{}, Target{100})}) {
      EXPECT_GT(p.minBlocksPerSm, 1) << text;
      EXPECT_LT(p.items, 20) << text;
    }
  }
  // Masked shifted four 2-byte lanes and unmasked byte words of four keep
  // their rules; bytes' max/min (4-byte accumulators) keep their budget.
  EXPECT_EQ(plan("max u8[8388608,4] dim=0").items, 23);
  EXPECT_EQ(planKernel(mustParse("sum f16[8388608,4] dim=0 mask"), offGrid).items, 8);
  EXPECT_GT(plan("max u8[2796202,6] dim=0").minBlocksPerSm, 1);
  EXPECT_GT(plan("min i8[2396745,7] dim=0 mask").minBlocksPerSm, 1);
  // Few tiles or another arch: the byte budget's items.
  for (const char *text : {"sum f32[200000,6] dim=0", "sum u8[400000,2] dim=0"}) {
    EXPECT_GT(plan(text).minBlocksPerSm, 1) << text;
    EXPECT_LE(plan(text).items, 6) << text;
  }
  EXPECT_LE(planKernel(mustParse("sum u8[16777216,2] dim=0"), {}, Target{100}).items, 6);
}

// Packed lanes are scanned by lane threads (lane_threads.cuh) where the
// lanes tile a warp and either each thread holds a word of lanes (8 bytes,
// 4 of byte elements) that accumulate in at most 4 bytes each, or the
// elements are words or wider and a group's accumulators fit 16 bytes;
// lane_threads= and lane_width= tune them.
TEST(Planner, PackedLanesOfWordsTakeAThreadALane) {
  const std::tuple<const char *, int, int, int> words[] = {
      // Groups under 32 bytes, unmasked on the timed arch, 13 items
      // (ColumnPolicy::kLaneThreadTimedItems); masked, or 32-byte groups
      // in the smaller blocks, or i32 sums and products into i64, 11.
      {"sum f32[1048576,2] dim=0", 2, 256, 13},        {"sum f32[4194304,4] dim=0 mask reverse", 2, 256, 11},
      {"max i32[300000,2] dim=0", 2, 256, 13},         {"max f32[4,100000,4] dim=1 exclusive", 2, 256, 13},
      {"sum f32[200000,8] dim=0", 2, 256, 11},         {"sum f16[1048576,4] dim=0", 4, 256, 13},
      {"max i16[200000,8] dim=0 reverse", 4, 256, 11},
      // With a mask, over 8 bytes of accumulators an item: 9 items.
      {"sum bf16[200000,8] dim=0 mask", 4, 256, 9},
      // Byte elements (4-byte words): 15 items, 13 masked over 8 bytes of
      // accumulators an item; two byte lanes as a 2-byte word. Unmasked
      // u8/i8 words of 4 on the timed arch: 23 items where that still
      // makes 4 tiles an SM (ColumnPolicy::kLaneThreadByteWordItems).
      // (Larger pairs and masked words of 4 take one block an SM:
      // PackedLanesTakeOneBlockOfMoreItems.)
      {"max u8[8388608,4] dim=0", 4, 256, 23}, {"max u8[2097152,4] dim=0", 4, 256, 15},
      {"min i8[200000,8] dim=0 exclusive", 4, 256, 15},
      {"max u8[200000,8] dim=0 mask reverse", 4, 256, 13}, {"min u8[4194304,2] dim=0", 2, 256, 15},
      {"max i8[4194304,2] dim=0 mask", 2, 256, 15},
      // A byte item of one thread with a mask (16 bytes of accumulators).
      {"max u8[1048576,4] dim=0 mask", 4, 256, 13}};
  for (const auto &[text, width, threads, items] : words) {
    KernelPlan p = plan(text);
    EXPECT_TRUE(p.laneThreads) << text;
    EXPECT_EQ(p.laneWidth, width) << text;
    EXPECT_EQ(p.threads, threads) << text;
    EXPECT_EQ(p.items, items) << text;
    EXPECT_NE(p.toString().find("packed_lanes=" + std::to_string(p.packedLanes) +
                                " lane_threads=1 lane_width=" + std::to_string(width)),
              std::string::npos);
  }
  // Untimed archs: 4 or more threads an item take 9 items (sm_100 spilled
  // at 11); fewer keep 11.
  auto planFor = [](const char *text, int sm) { return planKernel(mustParse(text), {}, Target{sm}); };
  EXPECT_EQ(planFor("sum f32[200000,8] dim=0", 100).items, 9);
  EXPECT_EQ(planFor("max i32[200000,8] dim=0 mask", 120).items, 9);
  EXPECT_EQ(planFor("sum f32[4194304,4] dim=0", 100).items, 11);
  EXPECT_EQ(planFor("sum f32[200000,8] dim=0", 90).items, 11);
  // 8-byte accumulators: a lane a thread, 13 items but for i32 summed into
  // i64 (prod i32[100003,2] spilled 8 stores at 13).
  const std::pair<const char *, int> wide[] = {{"sum f64[8388608,2] dim=0", 13},
                                               {"sum i32[300000,2] dim=0 exclusive", 11},
                                               {"prod i32[300000,2] dim=0", 11},
                                               {"prod i32[100003,2] dim=0", 11}};
  for (const auto &[text, items] : wide) {
    KernelPlan p = plan(text);
    EXPECT_TRUE(p.laneThreads) << text;
    EXPECT_EQ(p.laneWidth, 1) << text;
    EXPECT_EQ(p.threads, 256) << text;
    EXPECT_EQ(p.items, items) << text;
    EXPECT_EQ(p.toString().find("lane_width"), std::string::npos) << text;
  }
  for (const char *text : {"sum f32[1048576,3] dim=0",      // 3 lanes do not tile a warp
                           "sum f16[8388608,2] dim=0",      // 2-byte elements, not a whole word
                           "sum f16[8388608,4] dim=0 mask", // a thread's whole item: a mask, 16 bytes of accumulators
                           "sum bf16[2097152,6] dim=0",     // 6 lanes: no whole words
                           "sum u8[200000,4] dim=0",        // 1-byte elements in 8-byte accumulators, few items
                           "max u8[500000,3] dim=0",        // 3 byte lanes: no whole words
                           "prod i32[200000,4] dim=0",      // 32 bytes of 8-byte accumulators a group, few items
                           "max f64[1048576,4] dim=0"}) {
    KernelPlan p = plan(text);
    EXPECT_GT(p.packedLanes, 1) << text;
    EXPECT_FALSE(p.laneThreads) << text;
    EXPECT_EQ(p.toString().find("lane_threads"), std::string::npos) << text;
  }
  const PlanTuning on = *parsePlanTuning("lane_threads=1"), off = *parsePlanTuning("lane_threads=0");
  EXPECT_EQ(off.toString(), "lane_threads=0");
  EXPECT_TRUE(planKernel(mustParse("sum f16[8388608,4] dim=0"), on).laneThreads);
  EXPECT_FALSE(planKernel(mustParse("sum f32[1048576,3] dim=0"), on).laneThreads); // (never for 3 lanes)
  KernelPlan lanesItems = planKernel(mustParse("sum f32[8388608,2] dim=0"), off); // (words as Lanes items: blocks of 256)
  EXPECT_FALSE(lanesItems.laneThreads);
  EXPECT_EQ(lanesItems.laneWidth, 1);
  EXPECT_EQ(lanesItems.threads, 256);
  EXPECT_EQ(lanesItems.items, 12); // (staged: 96 bytes of accumulators, kPackedStagedAccBytes)
  // lane_width= sets the lanes a thread holds where they make whole groups
  // of at most 16 bytes; else a thread holds one lane.
  KernelPlan scalar = planKernel(mustParse("sum f32[8388608,2] dim=0"), *parsePlanTuning("lane_width=1"));
  EXPECT_TRUE(scalar.laneThreads);
  EXPECT_EQ(scalar.laneWidth, 1);
  EXPECT_EQ(scalar.threads, 384);
  EXPECT_EQ(planKernel(mustParse("sum f16[8388608,4] dim=0"), *parsePlanTuning("lane_width=2")).laneWidth, 2);
  EXPECT_EQ(planKernel(mustParse("sum f32[8388608,2] dim=0"), *parsePlanTuning("lane_width=4")).laneWidth, 1);
  EXPECT_EQ(planKernel(mustParse("sum f64[8388608,4] dim=0"), *parsePlanTuning("lane_threads=1,lane_width=4")).laneWidth, 1);
  EXPECT_EQ(plan("max f32[5592405,3] dim=0").threads, 256);
}

// Pointers off the 16-byte grid (off_grid=1: what the runtime plans for a
// launch whose input or mask pointer is): no plan counts on bulk copies
// from them. Staged plans become edges plans of their family (but the
// segmented family's rows of other widths than 2 bytes, which take
// registers), packed narrow columns among them (their stages shifted: each
// tile read from its place in its first word, with no spare tile a row);
// plans without stages are unchanged.
TEST(Planner, OffTheGridEveryStagedPlanTakesEdges) {
  const PlanTuning offGrid = *parsePlanTuning("off_grid=1");
  EXPECT_EQ(offGrid.toString(), "off_grid=1");
  for (const char *text : {"sum f32[16777216] dim=0", "sum f16[16777216] dim=0", "sum f32[4096,4096] dim=1",
                           "sum f32[32768,32768] dim=1 mask", "sum f32[4096,4096] dim=0"}) {
    KernelPlan onGrid = plan(text), off = planKernel(mustParse(text), offGrid);
    EXPECT_GT(onGrid.stages, 0) << text;
    EXPECT_FALSE(onGrid.edges) << text;
    EXPECT_EQ(off.family, onGrid.family) << text;
    EXPECT_GT(off.stages, 0) << text;
    EXPECT_TRUE(off.edges) << text;
    EXPECT_NE(off.toString(), onGrid.toString()) << text;
  }
  for (const char *text : {"sum f32[8388608,2] dim=0", "min bf16[1048576,4] dim=0 mask reverse", "sum f16[1048575,4] dim=0 mask",
                           "sum f32[1048576,3] dim=0"}) {
    KernelPlan onGrid = plan(text), shifted = planKernel(mustParse(text), offGrid);
    EXPECT_EQ(shifted.packedLanes, onGrid.packedLanes) << text;
    EXPECT_GT(shifted.stages, 0) << text;
    EXPECT_TRUE(shifted.edges) << text;
    EXPECT_FALSE(onGrid.edges) << text;
    EXPECT_EQ(shifted.workspaceBytes, onGrid.workspaceBytes) << text;
    EXPECT_GT(shifted.sharedBytes, onGrid.sharedBytes) << text; // (a word more a stage)
  }
  // Words of lanes with 16 bytes of accumulators scan their items again
  // from the stage, which shifted stages cannot: Lanes items there.
  EXPECT_EQ(plan("min bf16[4194304,4] dim=0 reverse").laneWidth, 4);
  EXPECT_FALSE(planKernel(mustParse("min bf16[4194304,4] dim=0 reverse"), offGrid).laneThreads);
  EXPECT_EQ(planKernel(mustParse("sum f32[8388608,2] dim=0"), offGrid).laneWidth, 2);
  EXPECT_EQ(planKernel(mustParse("logsumexp f32[16384,1000] dim=1"), offGrid).toString(),
            plan("logsumexp f32[16384,1000] dim=1").toString()); // no stages: nothing to change
  const KernelPlan segmented = planKernel(mustParse("sum f32[16384,1024] dim=1"), offGrid);
  EXPECT_EQ(segmented.family, KernelFamily::RowSegmented);
  EXPECT_GT(segmented.stages, 0);
  EXPECT_TRUE(segmented.edges);
  EXPECT_FALSE(plan("sum f32[16384,1024] dim=1").edges);
  EXPECT_EQ(planKernel(mustParse("logsumexp f32[16384,600] dim=1"), offGrid).stages, 0); // (registers)
}

// Columns of at most 16 bytes a row, and views with no contiguous dim, are
// lines of the look-back loaded at their stride (no stages); wider columns
// and short lines keep their families.
TEST(Planner, NarrowColumnsAndStridedViewsAreLookbackLines) {
  for (const char *text : {"logsumexp f32[1048577,3] dim=0 mask", "sum f32[100000,12] dim=0 mask", "sum f32[4194304] dim=0 strides=[7]",
                           "logsumexp f64[2,100001,3] dim=1 exclusive", "logsumexp f32[4,100000,3] dim=1"}) {
    KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::RowLookback) << text;
    EXPECT_EQ(p.stages, 0) << text;
    EXPECT_FALSE(p.edges) << text;
    // Lines at a stride of their own load more items a thread than a group of lanes.
    const bool ownStride = std::string(text).find("strides") != std::string::npos;
    EXPECT_EQ(p.items, ownStride ? 8 : 4) << text;
  }
  EXPECT_EQ(plan("sum f16[8388608] dim=0 strides=[2]").items, 16); // 2-byte elements: 16
  // Byte elements too where their spans are staged (max and min: 4-byte
  // accumulators), but not at wider strides, nor byte sums (i64).
  EXPECT_EQ(plan("max i8[33554432] dim=0 strides=[2]").items, 16);
  EXPECT_EQ(plan("max u8[1677721] dim=0 strides=[40]").items, 8);
  EXPECT_EQ(plan("sum u8[16777216] dim=0 strides=[2]").items, 8);
  // Narrow columns not packed (sm_80 packs them without stages where
  // packed_direct=0 does not ask otherwise: PackedLanesWithoutStages): a
  // block per tile step of every column (lookback_lanes.cuh), the step's
  // rows in shared memory.
  KernelPlan two = planKernel(mustParse("sum f32[1048577,2] dim=0"), *parsePlanTuning("packed_direct=0"), Target{80});
  EXPECT_EQ(two.stages, 0);
  EXPECT_EQ(two.grid, 1048576 / (512 * 4) + 1);
  EXPECT_EQ(two.sharedBytes, 2 * (2048 * 2 * 4) + 16 + 64);
  // (56-byte rows in too few tiles to pack in parts: 128-thread blocks, 56 KB of rows.)
  KernelPlan fourteen = plan("sum f32[131072,14] dim=0");
  EXPECT_EQ(fourteen.family, KernelFamily::RowLookback);
  EXPECT_EQ(fourteen.threads, 128);
  EXPECT_EQ(fourteen.sharedBytes, 2 * (512 * 14 * 4) + 16 + 64);
  EXPECT_EQ(plan("sum f32[1048576,17] dim=0").family, KernelFamily::Column);             // 17 columns
  EXPECT_EQ(planKernel(mustParse("sum f32[1048576,2] dim=0"), {}, Target{80}).stages, 0); // no bulk copies: no stages
  EXPECT_EQ(plan("sum f16[1048576,32] dim=0").family, KernelFamily::Column);             // 32 columns
  EXPECT_EQ(plan("sum f32[4194304] dim=0 strides=[7]").sharedBytes, 0);                 // no lanes: at the stride
  EXPECT_EQ(plan("sum f32[1000,2] dim=0").family, KernelFamily::Column);                 // lines too short
  EXPECT_EQ(plan("max f16[100,200] dim=1 strides=[1,100]").family, KernelFamily::Strided); // likewise
}

TEST(Planner, LinesAtASmallStrideStageTheirDenseSpans) {
  // A stage holds the stride times a tile's bytes, from any pointer (edges),
  // and the tile count is the line's own (no spare tile for a grid).
  KernelPlan two = plan("sum f32[4194304] dim=0 strides=[2]");
  EXPECT_EQ(two.family, KernelFamily::RowLookback);
  EXPECT_EQ(two.threads, 512);
  EXPECT_EQ(two.stages, 2);
  EXPECT_TRUE(two.edges);
  EXPECT_EQ(two.sharedBytes, 2 * (512 * 8 * 2 * 4 + 32 + 16 + 48) + 256);
  EXPECT_EQ(two.workspaceBytes, 16 + 2 * (4194304 / 4096) * 2 * 4);
  // Wider spans halve the block until two stages fit the budget.
  KernelPlan three = plan("max f32[4194304] dim=0 strides=[3]");
  EXPECT_EQ(three.threads, 256);
  EXPECT_GE(three.stages, 2);
  KernelPlan masked = plan("max u8[700001] dim=0 strides=[16] mask mask_strides=[3]");
  EXPECT_GT(masked.stages, 0);
  EXPECT_LE(masked.stages * (int64_t(masked.threads) * masked.items * (16 + 3) + 64), 84 * 1024);
  // Several lines apart stage too; lines whose spans overlap, a stride of
  // over 16 bytes, or a broadcast line do not.
  EXPECT_GT(plan("sum f32[8,1048576] dim=1 strides=[2097152,2]").stages, 0);
  EXPECT_EQ(plan("sum f32[2,1048576] dim=1 strides=[1,2]").stages, 0);
  EXPECT_EQ(plan("sum f32[4194304] dim=0 strides=[5]").stages, 0);
  EXPECT_EQ(plan("sum f16[4194304] dim=0 strides=[16]").stages, 0);
  EXPECT_EQ(plan("sum f32[4194304] dim=0 mask mask_strides=[0] strides=[2]").stages, 0);
}

TEST(Planner, LogSumExpColumnsTakeAColumnAThread) {
  // Latency of an exp and a log a row, not bytes: one column a thread, and
  // two threads to a column where the accumulator is a float.
  for (const char *text : {"logsumexp f32[8192,8192] dim=0", "logsumexp bf16[4096,4097] dim=0 mask reverse",
                           "logsumexp f32[16,65536,128] dim=1 exclusive"}) {
    KernelPlan p = plan(text);
    EXPECT_EQ(p.family, KernelFamily::Column) << text;
    EXPECT_EQ(p.vector, 1) << text;
    EXPECT_EQ(p.groups, 2) << text;
  }
  KernelPlan wide = plan("logsumexp f64[4096,4096] dim=0");
  EXPECT_EQ(wide.vector, 1);
  EXPECT_EQ(wide.groups, 4);
  // Other ops keep two columns a thread.
  EXPECT_EQ(plan("max f32[8192,8192] dim=0").vector, 2);
}

TEST(Planner, LogSumExpTakesLongTiles) {
  // Log-sum-exp of f32 and f64: exps and logs, not bytes, set its time, so
  // each thread scans 16 items (f64: 12) in blocks of 256, two an SM,
  // contiguous, off the grid or at a stride (where two stages of dense
  // spans must fit: the block halves, and the SM keeps its threads in three
  // blocks), with a window of 2 tiles a lane.
  for (const char *text : {"logsumexp f64[4194304] dim=0", "logsumexp f64[4194305] dim=0 mask reverse",
                           "logsumexp f64[3,5000003] dim=1", "logsumexp f64[4194304] dim=0 strides=[2] exclusive",
                           "logsumexp f32[4194304] dim=0", "logsumexp f32[3,5000003] dim=1 exclusive"}) {
    KernelPlan p = plan(text);
    const bool strided = std::string(text).find("strides") != std::string::npos;
    EXPECT_EQ(p.family, KernelFamily::RowLookback) << text;
    EXPECT_EQ(p.threads, strided ? 128 : 256) << text;
    EXPECT_EQ(p.items, std::string(text).find("f64") != std::string::npos ? 12 : 16) << text;
    EXPECT_EQ(p.minBlocksPerSm, strided ? 3 : 2) << text;
    EXPECT_EQ(p.lookbackPerLane, 2) << text;
    EXPECT_GE(p.stages, 2) << text;
  }
  // 2-byte inputs take the look-back's wide tiles: 24 items in blocks of 256.
  EXPECT_EQ(plan("logsumexp f16[8,4194304] dim=1 mask").threads, 256);
  EXPECT_EQ(plan("logsumexp f16[8,4194304] dim=1 mask").items, 24);
  // Rows of f64 streamed through stages: blocks of 256.
  KernelPlan rows = plan("logsumexp f64[1000,100003] dim=1");
  EXPECT_EQ(rows.family, KernelFamily::Row);
  EXPECT_GT(rows.stages, 0);
  EXPECT_EQ(rows.threads, 256);
}

TEST(Planner, ShortRowsOfLogSumExpTakeEightItems) {
  // Short rows of log-sum-exp, any dtype, in warp rows or chunks: 8 items a
  // thread (an exp an item: latency, not bytes, sets the tile).
  for (const char *text : {"logsumexp f64[65536,256] dim=1", "logsumexp f64[65536,48] dim=1",
                           "logsumexp bf16[100000,60] dim=1 mask", "logsumexp f32[262144,64] dim=1 reverse"}) {
    KernelPlan p = chunks(text);
    EXPECT_EQ(p.family, KernelFamily::RowSegmented) << text;
    EXPECT_EQ(p.items, 8) << text;
  }
  EXPECT_TRUE(plan("logsumexp f64[65536,256] dim=1").warpRows);
  // Sums of 2-byte types keep their 16 (in chunks).
  EXPECT_EQ(chunks("sum bf16[100000,333] dim=1").items, 16);
  // f64's ask for four blocks an SM (64 registers), three when masked; the
  // rest leave ptxas free.
  EXPECT_EQ(plan("logsumexp f64[65536,256] dim=1").minBlocksPerSm, 4);
  EXPECT_EQ(plan("logsumexp f64[100000,100] dim=1 mask").minBlocksPerSm, 3);
  EXPECT_EQ(plan("logsumexp f32[100000,333] dim=1").minBlocksPerSm, 1);
  EXPECT_EQ(plan("sum f64[65536,300] dim=1").minBlocksPerSm, 1);
}
