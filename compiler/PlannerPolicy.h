// Tuning choices of the planner as constexpr data, apart from the logic that
// applies them (as CUB keeps its policies). Values were timed on sm_90
// (H100/H200, BENCHMARKS.md); what differs between archs (bulk copies,
// shared memory, threads per SM, L2) is in ArchPolicy.cpp's table, which
// the planner applies over these.
#pragma once

#include <cstdint>

namespace scanjit::policy {

// SMs of the GPUs the sm_90 policy was timed on (H100 and H200): grids of
// blocks that loop over tiles by ticket are sized by it.
inline constexpr int kTimedSms = 132;

struct RowPolicy {
  static constexpr int kThreads = 256;        // block size for rows longer than a tile
  static constexpr int kBytesPerThread = 32;  // input bytes a thread holds per tile
  static constexpr int kAccBytesPerThread = 64; // accumulator bytes (i64 sums of bytes stay in registers)
  static constexpr int kMaxItems = 16;
  static constexpr int kMinThreads = 32;      // short rows use fewer threads, never below a warp
  // Log-sum-exp rows hold this many accumulator bytes a thread whatever the
  // input (f32: 16 items): the block scan's pair combines, an exp each, are
  // shared by twice the items (f32 1.85 -> 1.48 of copy on H200, accurate log).
  static constexpr int kLogSumExpAccBytesPerThread = 64;
  // Rows without stages on archs without bulk copies (row_scan_direct):
  // runs on their vector grid load and store a warp's run by lanes too, as
  // runs off it do (lanes_on_grid). As sm_80 on an H200, x copy, vectors ->
  // lanes: f32[32768,32768] 1.15 -> 1.10 (mask 1.20 -> 1.15, reverse 1.23
  // -> 1.15), f32[2000,50000] 1.29 -> 1.17, f16[4096,32768] 1.37 -> 1.30,
  // f64[8192,32768] 1.19 -> 1.12, logsumexp f16[4096,32768] 2.51 -> 1.99;
  // but elements of 4 bytes or more lost in log-sum-exp (f32[8192,32768]
  // 1.17 -> 1.30) and in fewer than kLanesOnGridMinRows rows (f32[1000,
  // 100000] 1.31 -> 1.44, [1024,65536] 1.30 -> 1.38; untimed between 1024
  // and 2000 rows). BENCHMARKS.md, forty-ninth pass.
  static constexpr bool kLanesOnGrid = true;
  static constexpr long long kLanesOnGridMinRows = 1536;
};

// Row tiles streamed through shared memory by bulk copies (sm_90 kernels;
// older targets ignore it and load to registers).
struct StagePolicy {
  static constexpr int kMaxStages = 8;          // row sum/prod: more small stages beat fewer large ones (H200 sweep)
  static constexpr int kMaxStagesCostlyOps = 4; // max/min/logsumexp: more blocks per SM beat deeper stages
  static constexpr int kMinStages = 2;
  static constexpr int kBudgetBytes = 50 * 1024;         // dynamic shared memory per block (row): 4 KB stages of f32, 16 KB of i32->i64
  static constexpr int kLookbackBudgetBytes = 84 * 1024; // look-back: room for four 16 KB stages with their mask
  // Kept free of stages where they are sized from the SM's shared memory
  // (bulkStages): the block's static shared memory, its stages' barriers
  // (pipelineSharedBytes) and the driver's kSharedBytesPerBlockReserved.
  static constexpr int kReservedSharedBytesPerBlock = 8 * 1024;
  static constexpr int kRowThreads = 128;       // row family when pipelined (tuned on H200: BENCHMARKS.md)
  // ... but log-sum-exp of f64, whose 8 items a thread each cost an exp and
  // a log, in blocks of 256 (H100, x copy, 128 -> 256: f64[1000,100003]
  // 2.95 -> 2.59, [2048,16384] mask reverse 2.77 -> 2.53, [8192,2048]
  // exclusive 2.34 -> 2.11, [4096,8192] 2.38 -> 2.34; BENCHMARKS.md).
  static constexpr int kWideLogSumExpRowThreads = 256;
  // ... and unmasked rows of 2-byte elements (but log-sum-exp's) in blocks
  // of 256: twice the bytes a tile, and half the tiles' start-ups (H200, x
  // copy, 128 -> 256, two rounds: sum bf16[947,50176] 1.18 -> 1.04,
  // f16[1000,100003] 1.37 -> 1.23, f16[1000,40001] one element in 1.36 ->
  // 1.22; f16[8192,32768] 1.06 -> 1.05). Masked ones lost (max
  // f16[2000,20011] mask one in 1.25 -> 1.32, max bf16[4096,50257] mask
  // reverse 1.11 -> 1.16; BENCHMARKS.md).
  static constexpr int kNarrowUnmaskedRowThreads = 256;
  // Row family: a pipelined block streams rows round-robin over the grid
  // until it has at least kMinTilesPerBlock tiles' worth of elements (one
  // row from 4 tiles up), while the grid keeps kMinRowBlocks blocks. Rows of
  // 2 tiles (f32[524288,2048]) went from 1.10 to 1.02 of copy on H200 with
  // two a block; more rows a block cost a longer tail (BENCHMARKS.md).
  static constexpr int kMinTilesPerBlock = 4;
  static constexpr int kMinRowBlocks = 1024;
  // Rows of up to kMinTilesPerBlock tiles pick their block size in this
  // range to leave the fewest empty slots in their last tile (f32 rows of
  // 1100: 160 threads, 1.29 -> 1.06 of copy on H200; BENCHMARKS.md).
  static constexpr int kFitThreadsMin = 64;
  static constexpr int kFitThreadsMax = 256;
  static constexpr bool kEvictFirst = false;     // row family: the evict-first L2 policy was slower (H200)
};

struct LookbackPolicy {
  // Tiles a pipelined look-back block scans before it finishes the oldest
  // (lookback_slack). Two give a tile's window two tiles' time for its
  // newest predecessors' aggregates (ncu, H200, f32[67108864]: 28% of the
  // stall samples at the block barrier after the window), for four stages
  // and items re-read from the stage; timed, they won only f64[4194304]
  // (1.39 -> 1.31) against the policy's plans and lost at 1M, 4M and bf16
  // 16M (BENCHMARKS.md, forty-eighth pass): one stays.
  static constexpr int kSlack = 1;
  // A pipelined block issues its stages past the first one a tile in its
  // tile loop (lazy_start), not all at its start, where a block has more
  // tiles than stages: its first tile waited for a ticket's round trip a
  // stage (H200, x copy: sum f32[16777216] 1.22 -> 1.09, f32[4,4194304]
  // 1.27 -> 1.18, f32[1048576,16] dim=0 1.84 -> 1.70; with two tiles a
  // block, sum f32[1048576,2] dim=0 measured 8% slower, though at 8 MB
  // the noise is as large; BENCHMARKS.md, sixty-sixth pass).
  static constexpr bool kLazyStart = true;
  // ... with at most four stages (five with a slack of two). Tile q
  // refills stage q - 2 (q - 3 with a slack of two) and fills stage q + 1
  // for the first time, so from five stages a refill drew its ticket before
  // a later stage's first fill did, and a block's tiles left ticket order:
  // where the end marker came first, the block returned with a tile still
  // in a stage, unscanned and never published, and the tiles after it
  // waited for ever (tuned stages=6 and 8 on the H200; lookback_scan.cuh
  // checks the bound). More stages than that issue all at the start.
  static constexpr int kLazyStartMaxStages = 4;
  // A tile's items scanned again from its stage for its results instead of
  // held across the next tile's scan (reread_tiles): a block holds one
  // tile's items, not two. At the block the tile was planned with it lost
  // (H200, x copy, 256 x 24 read again: sum bf16[101238608] 1.26 -> 1.33-
  // 1.40, max bf16[16777216] 1.62-1.74 -> 2.17; BENCHMARKS.md, sixty-first
  // pass, its thread scan run again after the prefix; on the grid it now
  // runs before, 5-15% faster, not yet timed against held tiles): off, but
  // where the freed registers widen the block (kRereadWideTiles).
  static constexpr bool kRereadTiles = false;
  // ... 2-byte rows' wide tiles (kWideTileAccBytes: 24 items) of sums and
  // products, read again, fit blocks of kRereadTileThreads in 64 registers
  // without spills, which halves the look-back chain's links; they take
  // them where the wider block's stages let its tiles be read again (three
  // or more: not masked rows, whose 512 x 24 tiles keep two; results as
  // wide as the input: not i16 -> i64 sums). H200, x copy, 256 x 24 ->
  // 512 x 24 read again, best of two runs: sum bf16[101238608] 1.26 ->
  // 1.18, one element in 1.37 -> 1.22, f16[44192241] three in 1.43 -> 1.34,
  // f16[8,12534816] dim=1 1.38 -> 1.15, bf16[433,138285] three in 1.45 ->
  // 1.33, bf16[60132273] reverse one in 1.49 -> 1.36. Max and min keep
  // theirs (max bf16[16777216] 1.68 -> 1.78, f16 1.60 -> 1.66; max f16
  // [64,4194304] reverse 1.54 -> 1.44), and so do held shares (f16[4194304]
  // 1.52 -> 1.63). Masked rows at 512 x 20 (three stages, two blocks an SM)
  // lost (bf16[3,6520244] mask two in 1.45 -> 1.61; BENCHMARKS.md, sixty-
  // second pass).
  static constexpr bool kRereadWideTiles = true;
  static constexpr int kRereadTileThreads = 512;
  // Without stages (sm_75/80/86/89), tiles of contiguous rows off their
  // runs' vector grid load each warp's run lane by lane and unstripe it
  // through shared memory, as row_scan_direct does. As sm_80 on an H200
  // (x copy, lane_runs=0 -> 1): f32[3,5000003] 6.09 -> 1.83, f32[16777216]
  // @0:1 5.57 -> 2.18, bf16[3,6520244] mask @2 5.29 -> 2.45, max
  // i16[4,4194305] mask reverse exclusive @1:2 10.0 -> 2.44; tiles on the
  // grid unchanged (BENCHMARKS.md, forty-ninth pass). The warps' scratch (a
  // tile's input or results, the wider, and its mask) is static shared
  // memory: at most kLaneRunScratchBytes.
  static constexpr bool kLaneRunsWithoutStages = true;
  // ... and tiles on their grid by lanes too (lanes_on_grid), as sm_80 on
  // an H200, x copy, vectors -> lanes: f32[16777216] 2.62 -> 2.36,
  // [67108864] 3.48 -> 2.90, [4194304] 2.44 -> 2.04, [1048576] 1.66 -> 1.32,
  // f32[16,4194304] 3.86 -> 3.05, prod f64[8388608] 2.31 -> 1.83; f16
  // [16777216] 2.31 -> 2.41 the one loss (BENCHMARKS.md, forty-ninth pass).
  static constexpr bool kLanesOnGrid = true;
  static constexpr int kLaneRunScratchBytes = 32 * 1024;
  static constexpr long long kMaxRows = 512;  // more rows fill the GPU a block per row
  // ... but not contiguous rows of 4- or 8-byte elements, or of 8-byte
  // accumulators (integer sums), but log-sum-exp: those take the look-back
  // at any row count. The row family's blocks ran a row each in waves, the
  // last wave part empty, each row starting its stages empty (H100, x copy,
  // row family -> look-back: f32[1000,100003] 1.20 -> 1.04, [1024,50257]
  // 1.22 -> 1.06, [32768,32768] 1.04 -> 1.00, f64[8192,32768] 1.06 -> 1.00,
  // prod f64[700,70001] 1.22 -> 1.05, u8[1500,100000] 1.15 -> 1.09). Kept
  // at kMaxRows: f16 and max of i16 (f16[4096,32769] 1.09 -> 1.24, i16
  // 1.13 -> 1.25) and log-sum-exp (f64[1000,100003] 2.47 -> 2.85).
  static constexpr bool kDenseRowsUncapped = true;
  // ... but max and min: their look-back tiles take 62 registers, two
  // blocks an SM where sums fit three, and the row family ran them faster
  // (H200, x copy, look-back -> row family: max f32[8192,32768] 1.27 ->
  // 1.08, min 1.27 -> 1.08, max f32[32768,32768] 1.26 -> 1.07, [1000,100000]
  // 1.50 -> 1.28, max i32[8192,32768] 1.15 -> 1.07, min f64[4096,32768]
  // 1.10 either way; BENCHMARKS.md).
  static constexpr bool kDenseMaxMinUncapped = false;
  // Masked, up to 8192 rows: beyond (31 waves of 264 blocks) the row
  // family's last wave costs under 3%, and the masked seed
  // f32[32768,32768] ran 0.2-0.8% faster by rows (f32[700,65536] mask one
  // element in 1.34 -> 1.09, f64[1397,80078] mask 1.17 -> 1.06,
  // f32[1000,100003] mask exclusive three in 1.25 -> 1.13; BENCHMARKS.md).
  static constexpr long long kMaskedDenseMaxRows = 8192;
  // Rows off the 16-byte grid (edges plans), masked or not, up to 2048:
  // more fill the GPU a block a row in many waves, and the row family's
  // blocks ran them faster than the look-back's edges tiles (H200, x copy,
  // look-back -> row family: f32[32768,32767] strides=[32768,1] one
  // element in (x[:, 1:] of the seed) 1.21 -> 1.08-1.09, f32[8192,32767]
  // one in 1.20 -> 1.12-1.14, f64[4096,16381] one in 1.22 -> 1.15,
  // f32[4096,20011] mask one in 1.17 -> 1.13, prod f64[16384,8209]
  // reverse 1.25 -> 1.08; even at 2048-2500 rows: f32[2048,32767] one in
  // 1.20 / 1.21, f64[2048,32771] 1.18 / 1.20; f32[1000,100003] 1.05 ->
  // 1.20 and f64 1.17 -> 1.36, so fewer rows keep the look-back;
  // BENCHMARKS.md).
  static constexpr long long kEdgesDenseMaxRows = 2048;
  // ... and integer sums widened to 8 bytes off the grid from
  // kWidenedEdgesMaxRows: their look-back ran 1.23-1.47x at every row count
  // timed (H200, look-back -> row family: u8[1024,120001] 1.43 -> 1.24,
  // i16[1024,100001] 1.40 -> 1.19, i32[1000,100003] 1.23 -> 1.17,
  // i32[1024,65537] one in 1.29 -> 1.23, u8[8192,30001] 1.44 -> 1.17).
  // Fewer rows leave the row family's last wave part empty (its blocks hold
  // four an SM, 528 on 132 SMs): i32[600,100003] 1.23 -> 1.48 and
  // u8[600,40001] 1.38 -> 1.65 at 1.14 waves; 960 rows are 1.8.
  static constexpr long long kWidenedEdgesMaxRows = 960;
  // On the grid, 1- and 2-byte integers widened take it from
  // kNarrowWideningMaxRows (u8[4096,32768] 1.26 -> 1.17, i16[4096,32768]
  // 1.20 -> 1.13, u8[1500,100000] 1.24 -> 1.21); i32 keeps its look-back
  // at any count (i32[1000,100000] 1.12 against 1.15, [600,100000] reverse
  // 1.13 against 1.59, [8192,32768] 1.13 / 1.10).
  static constexpr long long kNarrowWideningMaxRows = 1024;
  static constexpr long long kMinTilesPerRow = 4;
  static constexpr int kThreads = 512;        // tuned on H200: fewer, larger tiles (BENCHMARKS.md)
  static constexpr int kItemsScale = 1;       // tile = threads * the row family's items
  static constexpr int kMaxItems = 16;
  // Four 16 KB stages and a window of 4 warps x 32 lanes x 4 = 512 tiles:
  // 1.38 -> 1.16 of copy on H200 once the window is read coalesced (about a
  // thousand tickets are in flight: 264 blocks x 4 stages; BENCHMARKS.md).
  static constexpr int kStages = 4;
  static constexpr int kWarps = 4;            // warps reading the window
  // Evict-first L2 policy: 1.52 -> 1.38 of copy on H200 with the old window;
  // with the 512-tile one it is still a little ahead (8 x 16M 1.18 vs 1.20).
  static constexpr bool kEvictFirst = true;
  static constexpr int kPerLane = 4;          // tiles a reading lane holds
  static constexpr int kMinBlocksPerSm = 2;   // 32-byte register tiles: registers capped at 64 for 512 threads
  // Pipelined plans' blocks loop over tiles by ticket, so a grid larger
  // than the blocks an SM keeps (2-3 of these plans') adds only blocks that
  // start late to find the tickets taken, and scans of a few thousand tiles
  // get a tile a block with nothing in their stages behind it. Four an SM
  // of an H100/H200 (132 SMs), not 1024 blocks (H100, ms, 1024 -> 528:
  // f32[4194304] 0.022 -> 0.020, f32[8,524288] 0.022 -> 0.018, f16[8388608]
  // 0.025 -> 0.022, f32[3,5000003] 0.058 -> 0.055, max f32[4194304] 0.026
  // -> 0.023, f32[67108864] 0.198 -> 0.195, [64,4194304] 0.742 -> 0.742;
  // 264 was faster still below 16M elements but lost 2% on f32[8,16777216]
  // and [64,4194304]; BENCHMARKS.md).
  static constexpr int kMaxBlocks = 4 * kTimedSms;
  // Held shares (1-D and few-row scans whose tiles all fit the SMs' shared
  // memory): two blocks an SM, each holding at least kSharesMinTiles tiles
  // (with two, since they also store through their stages, they tie with
  // the look-back tile by tile); the reserve is the blocks' static
  // shared memory (the look-back's and the scan's). H100, ratio to copy,
  // tile by tile -> a block an SM -> two: f32[4194304] 1.43 / 1.43 / 1.33,
  // f16[8388608] 1.64 / 1.58 / 1.36, masked bf16[4194304] 1.75 / 1.70 /
  // 1.63; shares of two tiles lost (f32[2097152] 1.51 / 1.52 / 1.81;
  // BENCHMARKS.md).
  static constexpr int kSharesBlocks = 2 * kTimedSms;
  static constexpr int kSharesMinTiles = 3;
  static constexpr int kSharesMaxRows = 64; // (more rows: a share would be most of a row)
  // Without stages, look-back tiles by lanes of as few rows take shares
  // too, each read twice: once for its total, again to scan it after one
  // look-back over the shares before it (reread_shares; the second read
  // comes from L2 where the input fits it, else from DRAM: 1.5 copies). As
  // sm_80 on an H200, x copy, a tile's look-back / shares read twice:
  // f32[16777216] 2.03 / 1.60, f32[67108864] 2.92 / 1.54, f32[16,4194304]
  // 2.93 / 1.67, bf16[28053728] 2.60 / 1.83, prod f64[8388608] 1.83 / 1.70,
  // masked max f32[4194304] 2.30 / 2.12; f32[1048576] 1.51 / 1.55 (as sm_75,
  // f32[16777216] 2.66 / 1.69; BENCHMARKS.md, fiftieth pass).
  static constexpr bool kRereadShares = true;
  static constexpr int kSharesStaticReserveBytes = 4 * 1024;
  // Rows off the 16-byte grid hold their shares only for elements of at
  // most 2 bytes: bf16[10000001] reverse 0.0255 -> 0.0215 ms, f16[12000001]
  // 0.0305 -> 0.0275, masked u8[6000001] 0.022 -> 0.0205; 4- and 8-byte
  // rows gained nothing or lost (f32[5000001] two elements in 0.0235 ->
  // 0.026, f32[3,1000003] mask 0.018 -> 0.0195; H100, BENCHMARKS.md).
  static constexpr int kSharesEdgesMaxInBytes = 2;
  // Sums and products of 32-byte register tiles of 4-byte accumulators (f32)
  // fit in 40 registers: three blocks an SM, each with three stages, and the
  // same 512-tile window read by every warp, a tile a lane. The block's
  // window work is spread over all its warps instead of four (which the
  // rest waited for at the tile's second barrier). 8x16M / 64x4M / 1x1G:
  // 1.19 / 1.17 / 1.15 -> 1.14 / 1.13 / 1.13 of copy on H200 (BENCHMARKS.md).
  // Max, min and log-sum-exp, and masked scans (a forward masked sum spilled
  // 8 stores), exceed 40 registers and keep the plan above.
  static constexpr int kLeanMinBlocksPerSm = 3;
  // Without stages (one line at a stride of its own, x[::2]), the lean plan
  // fits 32 registers without spills: four blocks an SM put a third more
  // tiles in flight (H100, two runs, three blocks -> four: f32[4194304] at
  // stride 2 2.74-2.93 -> 2.44-2.56 of copy, [33554432] 3.26-3.35 ->
  // 3.02-3.06, prod reverse exclusive 2.56 -> 2.21-2.30; BENCHMARKS.md).
  static constexpr int kLeanDirectMinBlocksPerSm = 4;
  // And the others of 32-byte tiles of 4-byte accumulators (max, min,
  // log-sum-exp, masks) three, within 40 registers (H100, two runs, two
  // blocks -> three, ms: max f32[4194304] at stride 2 0.040 -> 0.037,
  // log-sum-exp 0.050-0.051 -> 0.045-0.046, masked exclusive sum
  // 0.041-0.046 -> 0.038-0.039, min f32[16777216] masked reverse
  // 0.157-0.158 -> 0.139-0.140; BENCHMARKS.md).
  static constexpr int kDirectMinBlocksPerSm = 3;
  // A row of fewer tiles than the window reads no wider a window than it
  // needs: the fewest warps, a tile a lane, that cover its predecessors
  // (H200, x copy, 16 reading warps or 4 x 4 tiles -> fitted: f32[32768,
  // 32768] 1.06 -> 1.03, reverse 1.08 -> 1.05, exclusive 1.07 -> 1.05,
  // [1000,100000] 1.16 -> 1.08, [2048,65536] 1.08 -> 1.05, f64[4096,32768]
  // 1.08 -> 1.07, i32[8192,32768] 1.14 -> 1.11, masked f32[8192,50000] 1.15
  // -> 1.13; [256,262144] 1.11 -> 1.09 with 2 warps, 1.42 with 1, whose
  // window of 32 left a chain link a row; u8[1500,100000] 1.37 -> 1.25,
  // masked i8[1000,150000] 1.31 -> 1.22; BENCHMARKS.md). Log-sum-exp keeps
  // its window: fitted, it gained and lost by turns (f32[64,300000] 1.88 ->
  // 1.78, f64[256,65536] 3.22 -> 3.12, f32[256,131072] 1.45 -> 1.50,
  // bf16[256,131072] 2.85 -> 3.05).
  static constexpr bool kWindowFitsTheRow = true;
  static constexpr int kLeanStages = 3;
  static constexpr int kLeanPerLane = 1; // readers: every warp of the block (but kWindowFitsTheRow)
  // Edges plans (rows off the 16-byte grid) of 4-byte accumulators in
  // 32-byte tiles need 80 registers: two blocks of 384 threads an SM. H100,
  // f32[3,5000003] / [16777213] one element in: one block of 512 1.63 /
  // 1.32 of copy, two of 256 1.38 / 1.17, three of 256 1.29 / 1.23, two of
  // 384 1.26 / 1.05 (BENCHMARKS.md).
  static constexpr int kEdgesThreads = 384;
  // Larger register tiles (f16/bf16 x 16, and 8-byte accumulators) took
  // one 512-thread block an SM (86-96 registers). Two blocks an SM: of 384
  // threads for 4-byte accumulators (72-80 registers, no spills), of 256
  // for 8-byte ones and in edges plans (up to 128; i32 -> i64 sums spilled
  // at 384). H100: f16[16777216] 1.55 -> 1.40 of copy, i32[16777216] (i64
  // out) 1.70 -> 1.24, f64[8388608] 1.59 -> 1.48, edges f16[16777217] one
  // element in 1.77 -> 1.50, f64[4194305] 1.84 -> 1.37, bf16[3,5000003]
  // 1.90 -> 1.62 (BENCHMARKS.md).
  static constexpr int kLargeTileThreads = 384;
  // Contiguous rows' look-back tiles, but the lean plan's: 96 accumulator
  // bytes a thread (at most 24 items) in blocks of 256, two an SM. Per tile
  // a block waits once for its window and steps its stages and edges once,
  // so larger tiles pay those less often (H200, x copy, before -> 24 items:
  // edges f32[16777213] three elements in 1.53 -> 1.27, f32[3,5000003]
  // 1.57 -> 1.24, bf16[122514339] 2.14 -> 1.67, masked bf16[73569530] 2.01
  // -> 1.53, aligned f16[67108864] 1.44 -> 1.34, max f16[16777216] 1.92 ->
  // 1.73, logsumexp bf16[3,5000003] 3.09 -> 2.48; BENCHMARKS.md). 8-byte
  // accumulators take the same 96 bytes (12 items), but masked integer
  // products 64 (8 items): their combines hold twice the registers, and
  // 12 masked i16 products spilled 24 stores at 128 (H100, ms, 8 -> 12
  // items: i32[16777216] (i64 sums) 0.093 -> 0.082, masked i32[7,6992909]
  // one element in 0.303 -> 0.247, f64[98360312] three in 0.644 -> 0.571,
  // f64[8388608] 0.066 -> 0.057, masked reverse exclusive f64[16777216]
  // 0.121 -> 0.109, masked i16 reverse 0.106 -> 0.079, masked f64 products
  // 0.123 -> 0.108; BENCHMARKS.md).
  static constexpr int kWideTileAccBytes = 96;
  static constexpr int kWideTileWideAccBytes = 64;
  // Masked scans of 4-byte elements into 4-byte accumulators (but
  // log-sum-exp, not timed so): 80 bytes (20 items). At 24 their stages
  // fell to two (H100, x copy, 24 -> 20 items: f32[16777216] mask one
  // element in 4.67 -> 1.18, f32[64,1000003] mask one in 4.93 -> 1.10,
  // f32[500,50257] mask 1.52 -> 1.05, max f32[256,131071] mask 1.45 -> 1.10,
  // prod f32[4194305] mask reverse 1.64 -> 1.17; 16 items 1.14-1.40, 8 items
  // 1.44-1.68). Narrower masked inputs keep 24 (bf16[53360752] mask three
  // in: 1.16, 20 items 1.25; BENCHMARKS.md).
  static constexpr int kWideTileMaskedWordBytes = 80;
  static constexpr int kWideTileMaxItems = 24;
  // Wide tiles only where the scan holds at least this many of them: every
  // timed case had 1M elements or more (the smallest, f32[1048573] one
  // element in, 171 wide tiles: 1.32 -> 1.16 of copy). Smaller scans, not
  // timed with wide tiles, keep the smaller tiles and so more blocks
  // (f32[8,20001]: 56 blocks, against 32 wide ones).
  static constexpr long long kWideTileMinTiles = 128;
  // 8-byte accumulators, edges plans, and packed max/min of 2-byte elements
  // (H100, two runs, ms, 384 -> 256: min bf16[4194304,4] dim=0 reverse
  // 0.078-0.079 -> 0.073, min f16 0.069-0.070 -> 0.066-0.068, max f16
  // 0.068-0.069 -> 0.066-0.067; their sums stay at 384: 0.095 -> 0.120).
  static constexpr int kLargeTileWideThreads = 256;
  // Log-sum-exp of f32 and f64 inputs: 16 items a thread in blocks of 256.
  // Each item costs an exp and a log, so the tile wants many items a
  // thread; 4 items a thread in blocks of 256 spent 6.6-7.9x copy in f64
  // (H100, ms, 4 x 256 -> 16 x 128: f64[4194304] 0.200 -> 0.141,
  // [8,4194304] mask reverse 1.559 -> 0.932). f32 took 8 items in blocks of
  // 512 before. Once the window folded in linear space (window_fold.cuh),
  // f64 in blocks of 256 beat 128 (x copy, 128 x 16 with a window of 4 a
  // lane -> 256 x 16 with 2: f64[4194304] 3.38 -> 3.08, [16777213]
  // exclusive 4.03 -> 3.01, [8,4194304] mask reverse 2.95 -> 2.84,
  // [512,32768] 3.05 -> 2.87); with a window of 4 a lane it timed faster
  // still on two of those but spilled (18-74 stores at 128 registers), and
  // every plan compiles without spills. 2-byte inputs keep their row tiles
  // (16 items: f16[8,4194304] mask 1.84 at 384 threads, 1.99 at 256).
  static constexpr int kLogSumExpItems = 16;
  static constexpr int kLogSumExpThreads = 256;
  // f64 (in f64 accumulators) at 12 items: three stages where 16 had two,
  // and at 4M elements and more 7-9% faster (H200, x copy, two rounds:
  // f64[4194304] 3.51 -> 3.27, [67108864] 3.57 -> 3.31, [16777216] mask
  // reverse 3.46 -> 3.27, [4,4194304] exclusive 3.53 -> 3.25; [1048576]
  // 3.15 -> 3.43, within its spread; 8 items lost everywhere).
  static constexpr int kLogSumExpF64Items = 12;
  // Log-sum-exp reads 2 tiles a lane (a 256-tile window): its tiles are
  // slow enough that fewer are in flight, and each reader's exps are the
  // window's cost (H100, x copy, 8 x 512 with 4 -> 16 x 256 with 2:
  // f32[4194304] 2.30 -> 1.90, [16777216] reverse 1.55 -> 1.29,
  // [32,524288] exclusive 1.57 -> 1.28, [67108864] 1.44 -> 1.29;
  // f16[8,4194304] mask 1.84 -> 1.78, bf16[3,5000003] 2.39 -> 2.38). In f64
  // it is also what keeps 16 items in blocks of 256 within 128 registers.
  static constexpr int kLogSumExpPerLane = 2;
  // Dense spans of lines at a stride (a stage holds the stride times a
  // tile's bytes): blocks no smaller than this, then items no fewer, to fit
  // two stages.
  static constexpr int kMinSpanThreads = 128;
  static constexpr int kMinSpanItems = 4;
  // Span plans take two blocks an SM, lean or not: a third (40 registers)
  // timed the same and spilled where the tile is exclusive or the lines
  // several (H100, ms, three blocks -> two: f32[33554432] at stride 2
  // 0.178 -> 0.174, [8,1048576] 0.055 -> 0.053, prod [4194305] reverse
  // exclusive 0.033 -> 0.032; BENCHMARKS.md).
  static constexpr int kSpanMinBlocksPerSm = 2;
  // Large register tiles: two blocks an SM, as many threads as that where
  // spans halved the block, so far as shared memory fits them (H100, x copy,
  // two blocks of 128 -> three: logsumexp f64[4194304] at stride 2 exclusive
  // 3.52 -> 3.15, 182 -> 158 registers, no spills).
  static constexpr int kLargeTileBlocksPerSm = 2;
};

struct SegmentedPolicy {
  static constexpr int kMinRowsPerTile = 2;   // below this, a plain row scan is as good
  static constexpr int kTilesPerChunk = 8;    // work per block, in tiles
  static constexpr int kMinBlocks = 264;      // small problems: smaller chunks, so every SM has work
  // Chunks stream through kStages bulk-copy stages where they are whole
  // 16-byte words, and rows of kStagedInBytes elements off the grid too.
  // 2-byte rows loaded from registers an element at a time ran at 1.5-2.1
  // of copy (H100, ratio to copy, registers / 3 / 4 stages: bf16[261871,326]
  // 1.75 / 1.36 / 1.34, f16[100000,333] reverse 1.54 / 1.25 / 1.24; then 4
  // stages: max bf16 2.07 -> 1.81, f16[16384,1024] 1.55 -> 1.08). Other
  // widths had stayed in registers on the H100 (f32[77777,333] 1.14 / 1.16
  // / 1.14 as edges plans); on the H200, in chunks of whole words, 4 stages
  // beat registers for every width (x copy: f32[77777,333] 1.34 -> 1.13,
  // f32[65536,336] 1.33 -> 1.14, max 1.44 -> 1.26, i32 -> i64 1.29 -> 1.14,
  // u8 -> i64 1.41 -> 1.22, f64 1.36 -> 1.13; 8 stages no better), though
  // the staged kernel compiles ~50 ms slower (issue 18). Log-sum-exp, bound
  // by its exp and log, keeps registers (f32 0.177 ms / 0.194 / 0.190).
  // Other widths off the grid kept registers too, the edges plan no faster
  // on the H100; on the H200 it is (kOffGridChunksStaged: x copy, registers
  // / 4 stages, launches off the grid: sum f32[596037,163] @1 1.31 / 1.12,
  // f32[100000,700] reverse @1 1.32 / 1.12, max f32[300000,100] mask @3
  // 1.41 / 1.36, min f64[400000,120] reverse @1 1.34 / 1.13, sum
  // f64[200000,170] mask exclusive @1 1.54 / 1.18, f64[556006,42] mask @1
  // 1.57 / 1.16, max u8[800000,150] @1 3.67 / 3.21, sum u8[500000,99] @3
  // 1.44 / 1.36, sum i32[400000,77] @2 1.36 / 1.36). BENCHMARKS.md has the
  // tables.
  static constexpr int kStagedInBytes = 2;
  static constexpr bool kOffGridChunksStaged = true;
  static constexpr int kStages = 4;
  // Chunks of whole words run in blocks of 256 (the row family's pipelined
  // blocks are 128): 16 of 16 shapes gained on an H100 (x copy:
  // f32[65536,336] 1.16 -> 1.07, max f32[18471,214] mask 1.41 -> 1.28, max
  // bf16[100000,333] 1.51 -> 1.36), 10 of 22 on an H200 and 1 lost (max
  // f32[18471,214] mask 1.82 -> 1.56, f16[86975,295] 1.45 -> 1.30; prod
  // f32[23246,565] mask exclusive 1.05 -> 1.18). Edges plans keep 128:
  // bf16[261871,326] mask one element in lost 1.61 -> 1.78 (BENCHMARKS.md).
  static constexpr int kStagedThreads = 256;
  static constexpr int kMinStagedStages = 3; // else blocks of 128 (StagePolicy::kRowThreads)
  // Rows off the 16-byte grid (odd lengths) take chunks of whole 16-byte
  // words (rows rounded down to a multiple of 2-16), so their tiles stream
  // through the aligned pipeline: only the tensor's last tile ends inside a
  // word. The grid pipeline (edges) stays for pointers off the grid.
  static constexpr bool kChunksOfWholeWords = true;
  // Rows that tile a warp's run (32 x items, items dividing the row) are
  // scanned by each warp alone: no block scan, no barrier.
  static constexpr bool kWarpRows = true;
  // Rows that do not tile a warp's run but fit one of 7 to 16 items a lane,
  // at most 96 accumulator bytes a lane, are a warp's each, padded with the
  // identity past the row's end: no row heads in the combines, no block
  // barrier (H200, x copy, chunks / padded warp rows, two rounds: logsumexp
  // f64[65536,300] 3.24 / 2.80, f32 2.54 / 1.89, f32[100000,193] 2.44 /
  // 2.09; max f32[18471,214] mask 1.55 / 1.10, sum f32[77777,333] @1 1.37 /
  // 1.05, max bf16[100000,333] 1.79 / 1.50, prod f32[23246,500] mask
  // exclusive 1.10 / 1.00, max u8[65536,300] 2.86 / 1.83-2.20). What lost
  // keeps its chunks: rows of 4-5 items a lane (a fifth of the lanes idle:
  // logsumexp f64[262144,100] 3.1 / 4.1, f16[200000,129] 4.03 / 4.62), of
  // over 96 bytes (sum i64[65536,400] 1.10 / 1.15, logsumexp f64[50000,450]
  // mask 3.42 / 3.95, though f64[30000,500] gained 3.2 / 2.35), masked rows
  // of 2-byte elements but log-sum-exp's, which the chunks stream through
  // bulk copies (sum f16[86975,295] mask 1.15 / 1.28). BENCHMARKS.md, forty-fourth pass.
  static constexpr bool kPaddedWarpRows = true;
  static constexpr int kPaddedWarpRowMinItems = 7;
  static constexpr int kPaddedWarpRowMaxItems = 16;
  static constexpr int kPaddedWarpRowMaxAccumulatorBytes = 96;
  // Padded rows of 1- and 2-byte elements (kPaddedHalfWarpMaxInBytes) of
  // fewer than kPaddedHalfWarpBelowItems items a lane of a whole warp (rows
  // of 193-288) take half a warp each, twice the items a lane (at most
  // kPaddedHalfWarpMaxItems, and the accumulator bytes above), two rows a
  // warp: a row's shuffle scan, loads' setup and store through the scratch
  // were most of a lane's instructions beside its 7-9 items (issue-bound;
  // H200, x copy, a warp / half a warp a row: min i16[300000,257] 1.60 /
  // 1.32, max i8[200000,201] reverse 2.50 / 2.05, sum bf16[293952,210]
  // reverse one element in 1.50 / 1.29, max bf16[100000,263] exclusive 1.52
  // / 1.34, sum f16[131072,288] one element in 3.56 / 1.22; sum
  // f16[100000,230] 1.24 / 1.37 lost). Half-warp rows that tile the warp's
  // run keep a lane's items in its registers when masked or of at most 32
  // bytes, and lost so (max i8[200000,240] mask 1.85 / 3.67): a warp a row
  // there (SegmentedPlanner.cpp). Wider elements lost
  // (min i32[100000,250] 1.03 / 1.59, sum f32[100000,288] 1.04 / 1.15;
  // BENCHMARKS.md).
  static constexpr int kPaddedHalfWarpMaxInBytes = 2;
  static constexpr int kPaddedHalfWarpBelowItems = 10;
  static constexpr int kPaddedHalfWarpMaxItems = 18;
  // Rows of exactly 32 x items (a warp a row) tile the warp's run, and each
  // lane keeps its run in registers: 2- and 4-byte runs that are not whole
  // 16-byte vectors loaded and stored element by element or by 4-byte words,
  // each instruction spanning the run. One item more pads the row instead
  // (H200, x copy, tiling / padded: sum f16[100000,480] dim=1 7.56 / 1.01,
  // one element in 7.39 / 1.39; sum bf16[100000,352] 4.54 / 1.06, sum
  // f16[100000,224] 2.12 / 1.17, sum f32[100000,224] 2.01 / 1.11; max
  // f32[100000,352] 1.03 / 1.02, min i32[100000,288] 0.96 / 0.93). Not 1-
  // and 8-byte ones (max u8[100000,224] 1.51 / 2.06, sum f64[100000,224]
  // 1.07 / 1.31; BENCHMARKS.md). Masked rows (4-byte: masked 2-byte rows
  // take chunks) take it only where one item more makes whole vectors, as
  // their loads stay each lane's own (H200, x copy, tiling / one more: sum
  // f32[100000,224] mask 1.93 / 0.92, max f32[100000,224] mask reverse
  // 1.87 / 0.94, max i32[100000,480] mask 1.26 / 1.06, sum f32[100000,480]
  // mask 1.16 / 1.05, max f32[100000,352] mask 1.08 / 1.01; not sum
  // f32[100000,288] mask 1.01 / 1.08, min f32[100000,416] mask 1.13 /
  // 1.12). Log-sum-exp's keep their tiles.
  static constexpr bool kPaddedOneMoreItem = true;
  // Unmasked 2-byte log-sum-exp rows that tile a warp's run with lane runs
  // off whole 16-byte vectors take twice the items, where those still tile
  // it and are at most kLogSumExpDoubledMaxItems: fewer, longer lane runs
  // (H200, x copy, items / twice: f16[400000,48] 1.37 / 1.20,
  // f16[200000,160] 1.46 / 1.29, f16[37500,320] 1.45 / 1.27,
  // bf16[100000,352] 1.56 / 1.28, f16[136363,88] 1.66 / 1.43,
  // bf16[83333,144] 1.64 / 1.46, f16[200000,96] 1.30 / 1.23; bf16[31250,384]
  // 1.19 / 1.25 lost; at 28 items bf16[107142,112] 1.35 / 1.44 lost, and
  // masked rows lost up to 2.27 / 3.05: BENCHMARKS.md).
  static constexpr bool kLogSumExpNarrowRowsDoubled = true;
  static constexpr int kLogSumExpDoubledMaxItems = 24;
  // Warp rows of 1- and 2-byte elements of the other ops take half the
  // lanes and twice the items a lane, where those are at most
  // kNarrowRowsDoubledMaxItems (and 104 accumulator bytes): a row's set-up,
  // shuffle scan and store through the scratch cost a lane about as much as
  // its 11-13 items, and rows of 7-11 items a lane issued about 37
  // instructions an item (H200, x copy, items / twice, best of two: max
  // bf16[100000,333] 1.30 / 1.09, sum bf16[100000,352] 1.18 / 0.96, max
  // f16[349525,96] 1.02 / 0.86, sum bf16[559209,48] mask 1.05 / 0.92, max
  // i8[200000,201] reverse 1.99 / 1.52, max i8[133860,188] reverse two in
  // 1.57 / 1.41, max i8[200000,196] 1.70 / 1.48; sum f16[86975,296] 1.02 /
  // 1.03 and max u8[335544,100] exclusive two in 1.45 / 1.47 alike). More
  // lost (sum bf16[293952,210] reverse one in, 27 items, 1.06 / 1.16; max
  // u8[65536,512], 32, 1.07 / 1.19), as did byte rows that would then tile
  // the warp's run (max u8[107142,224], 14 items, 1.32 / 1.58; min
  // i8[100000,416], 26, 1.37 / 1.38) and masked byte rows, whose registers
  // went from 56-63 to 83-90 (max u8[86424,358] mask 1.70 / 2.36, min
  // u8[240058,163] mask 1.93 / 2.59, max i8[110934,183] mask 1.82 / 2.19;
  // min i8[272799,153] mask reverse exclusive three in gained, 2.84 / 1.88).
  // Of 29 drawn rows whose plan changed, 22 gained more than 3% (max
  // i16[278209,143] two in 1.41 / 1.14, max i16[163827,150] reverse
  // exclusive 1.42 / 1.13, sum f16[192275,202] reverse 1.44 / 1.20) and 7
  // lost (the three masked byte rows, max u8[76948,387] exclusive 1.67 /
  // 1.99, min i16[101234,172] exclusive three in 1.20 / 1.27, min
  // f16[99277,370] 1.26 / 1.31). BENCHMARKS.md, eighty-ninth pass.
  static constexpr bool kNarrowRowsDoubled = true;
  static constexpr int kNarrowRowsDoubledMaxItems = 26;
  static constexpr int kNarrowRowsDoubledMaxAccumulatorBytes = 104;
  // Doubled rows ask for four blocks an SM: left alone, ptxas gave many of
  // them 54-76 registers (three or four blocks of 256); under the bound it
  // gives them 40-64 without a spill, and most others keep theirs (H200, x
  // copy, alone / four blocks, six rounds each: min f16[55611,401] reverse
  // exclusive two in 1.36-1.43 / 1.17-1.21, min i8[194522,157] reverse
  // 1.66-1.81 / 1.44-1.57, sum f16[86975,296] 1.08-1.11 / 1.04-1.07; of 79
  // rows whose plan changed, 22 gained more than 3% and 10 lost, of which
  // the five that lost most, timed again, were within their spread but min
  // f16[144127,200] reverse two in, 1.12-1.18 / 1.15-1.19, its registers 48
  // -> 53). Five blocks spilled 4-74 stores in four kernels. BENCHMARKS.md,
  // ninetieth pass.
  static constexpr int kNarrowRowsDoubledMinBlocksPerSm = 4;
  // Byte rows keep their lanes where the doubled rows' lanes would meet in
  // the span's banks at 3 or more wavefronts an access and more often than
  // the whole rows' (warpSpanBankWays): a lane reads and writes its bytes
  // there one a load, and a half warp's rows of 385-390 and 406-414 land on
  // each other's banks (ncu, max u8[50000,408]: 1.96M of 2.79M shared load
  // wavefronts conflicts, 36.2 us; 403: 0.99M of 2.01M, 27.4 us). Of the 75
  // byte rows timed both ways that it was drawn from (H200, x copy, best of
  // two), it chose the faster plan in all 75 (max u8[49019,408] whole 1.42 /
  // doubled 1.87, 4.0 / 2.0 ways; max u8[378269,51] 2.02 / 2.67, 6.5 / 4.0;
  // kept doubled: max i8[200000,201] reverse 1.81 / 1.49, 3.0 / 3.0). On 31
  // fresh rows whose plan it changed, 17 gained 5-27% (min u8[780374,51]
  // 2.75 / 2.02, max u8[59730,408] 1.85 / 1.38) and 8 lost 5-15%, all where
  // the two differ by 1-1.5 ways (min u8[200742,145], 8 lanes of 19, 1.72 /
  // 1.97): the model counts the conflicts, not doubling's other savings.
  // BENCHMARKS.md, ninetieth pass.
  static constexpr double kDoubledByteRowsBankWays = 3.0;
  // Shorter rows of log-sum-exp (under 7 items a lane of a warp's run) are
  // padded rows of the fewest lanes whose items hold them (a power of two),
  // several rows a warp, at most an eighth of their slots idle (H200, ratio
  // to copy, chunks / padded: f32[262144,100] 2.59 / 1.21, [1048576,20]
  // 2.44 / 1.03, [65536,150] mask 2.72 / 2.32; bf16[524288,50] 4.41 / 1.92,
  // [1000000,48] mask 3.88 / 2.94; f16[200000,129] 4.16 / 4.11). f64's take
  // at most 8 lanes a row: [1048576,37] in 8 lanes went 2.81 / 2.42, but
  // [262144,100] in 16 lanes 3.10 / 3.18 and [131072,180] in a whole warp
  // of 6 items 2.92 / 3.06 (BENCHMARKS.md).
  static constexpr bool kPaddedShortLogSumExpRows = true;
  static constexpr int kPaddedShortRowMaxLanes = 16;
  static constexpr int kPaddedShortWideLogSumExpRowMaxLanes = 8;
  // Shorter rows of the other ops (under 7 items a lane of a warp's run,
  // at most an eighth of their slots idle) are padded rows too, in the
  // fewest lanes whose items hold them: the chunks' row heads cost every
  // combine a select (their 2-byte kernels issued 0.76 a scheduler a
  // cycle), and their off-grid plans copy each tile's words (H200, x copy,
  // chunks / padded, best of two: max f16[349525,96] 1.71 / 1.11, min
  // f16[349525,48] @3 1.89 / 1.07, max u8[335544,100] exclusive @2 3.01 /
  // 1.69, sum bf16[559209,48] mask @3 1.66 / 1.17, min i32[167772,150] mask
  // exclusive @1 1.29 / 1.03, sum f32[449389,56] exclusive @1 1.17 / 0.98,
  // sum i32[524288,48] 1.04 / 0.93; 93 of 111 drawn rows gained, median
  // 1.51 / 1.19). Sums of 2-byte elements keep their chunks on the 16-byte
  // grid, where bulk copies bring them (sum bf16[585251,86] mask reverse
  // 1.00 / 1.71, f16[1000000,100] 1.19 / 1.41, f16[193583,130] 1.14 /
  // 1.54, bf16[1797558,14] mask 1.03 / 1.75, timed before runs of seven
  // words left through the scratch: it is a warp row now, under
  // kShortTwoByteSumsTiling, not timed again), and pad only in their
  // off-grid plans. Lost: prod f16[449389,56] @2 1.53 / 2.33, sum
  // f16[299593,56] mask @1 1.42 / 1.97 (both 4 lanes of 14 items), max
  // i8[229824,146] mask 1.79 / 2.37, sum bf16[129055,130] mask @2 1.37 /
  // 1.53, sum f64[104857,120] reverse @1 1.13 / 1.21 (BENCHMARKS.md,
  // sixty-third pass).
  static constexpr bool kPaddedShortRows = true;
  // Short rows of 2-byte sums on the grid that tile a warp's run (L / items
  // lanes a row, 32 x items a warp), masked or not, and unmasked exclusive
  // ones, padded or tiling, are warp rows after all, once runs of seven
  // 2-byte or 4-byte words leave through the warp's scratch
  // (store_by_warp_run): the chunks' heads cost more than their bulk copies
  // save (H200, x copy, chunks / warp rows, best of two: sum f16[3595117,14]
  // 1.31 / 1.01, bf16[1797558,28] exclusive 1.63 / 1.07, bf16[477493,28]
  // exclusive mask 1.40 / 0.96, bf16[3224515,6] mask 1.25 / 1.10,
  // f16[93139,192] 1.29 / 1.00, bf16[1677721,10] 1.37 / 1.05; padded
  // unmasked exclusive f16[76012,190] 1.70 / 1.15, bf16[199226,68] 1.80 /
  // 1.32; 37 of 43 gained, none lost; of masked tiling rows four were
  // timed, all gained). Other padded rows keep their chunks
  // (f16[682552,51] reverse 1.11 / 1.77, f16[1102729,35] mask 1.09 / 1.54:
  // 20 of 27 lost, 3 gained; BENCHMARKS.md, sixty-fourth pass).
  static constexpr bool kShortTwoByteSumsTiling = true;
  // Masked short 2-byte rows of the other ops on the grid that do not tile a
  // warp's run keep their chunks too, as masked sums do (H200, x copy,
  // padded rows / chunks, best of two: prod bf16[382884,123] mask reverse
  // 1.41 / 1.13, prod f16[249973,103] mask exclusive 1.93 / 1.48, max
  // i16[284119,182] mask 1.50 / 1.34, max f16[701606,79] mask 1.80 / 1.64;
  // 13 of 16 drawn gained; lost: min bf16[115130,109] mask reverse exclusive
  // 1.39 / 1.74, max bf16[199943,70] mask reverse exclusive 1.44 / 1.73, min
  // i16[303067,187] mask exclusive 1.38 / 1.64). Off the grid padded rows
  // stay ahead (26 of 38 drawn, chunks 9: sum f16[621985,17] mask @2 1.33 /
  // 1.71; BENCHMARKS.md, sixty-fourth pass).
  static constexpr bool kShortTwoByteMaskedChunks = true;
  // Since masked 1- and 2-byte warp rows copy their mask bytes by words
  // beside their elements (warp_span.cuh), masked 2-byte rows of up to 16
  // items a lane are padded warp rows off the grid, whatever their length,
  // and on it where they are max and min, but not where a whole warp's
  // lanes' runs are whole 16-byte words, which meet in the span's banks
  // (H200, x copy, chunks / padded rows: off the grid, sum f16[75094,288]
  // mask exclusive @3 1.78 / 1.09, min f16[96052,334] mask @2 1.84 / 1.20,
  // sum bf16[56033,443] mask @2 1.42 / 1.02, prod i16[104050,214] mask
  // reverse exclusive @1 1.39 / 1.02, 8 of 8 gained; on the grid, max
  // f16[64710,351] mask exclusive 1.58 / 1.13, min f16[393788,61] mask
  // exclusive 1.50 / 1.12, max bf16[64252,268] mask reverse 1.53 / 1.27;
  // lost: min f16[68689,482] mask reverse, 16 items, 1.44 / 1.58; on the
  // grid sums and products stay chunks: sum f16[66232,323] mask 1.14 /
  // 1.40, prod bf16[66696,297] mask reverse 1.08 / 1.18; BENCHMARKS.md,
  // ninety-first pass).
  static constexpr bool kMaskedTwoByteRowsPadded = true;
  // Padded f64 log-sum-exp rows of more than 8 items ask for three blocks
  // an SM (the chunks' four spilled 4-16 stores at 11-16 items); tuned ones
  // of more than 12, two (`f64[1000,500] exclusive` spilled 16 stores in three).
  static constexpr int kPaddedWideLogSumExpThreeBlockItems = 12;
  static constexpr int kPaddedWideLogSumExpFewItemsMinBlocksPerSm = 3;
  static constexpr int kPaddedWideLogSumExpMinBlocksPerSm = 2;
  // Unmasked 2-byte padded rows whose lanes' runs are whole 16-byte words
  // on a 16-byte row grid (segmented_scan_warp_rows' kLaneRunsOfWords)
  // carry both loads, their own vectors and by words: six blocks an SM keep
  // rows of a whole warp at the 40 registers the words alone took (47
  // without: sum f16[100000,480] dim=1 one element in, by words, 1.68 ->
  // 1.80). (Rows of two a warp keep the words alone.)
  static constexpr int kPaddedWordRunsMinBlocksPerSm = 6;
  // Log-sum-exp takes 8 items a thread, whatever its dtype, in chunks and
  // in warp rows alike: its (max, sum) pairs and linear sums cost an exp an
  // item, so the tile's size is set by latency, not by bytes (H100, ratio
  // to copy, 4 / 8 / 16 items: f64[65536,300] 3.76 / 3.00 / 3.65,
  // [100000,100] mask 3.93 / 3.05 / 4.16, [262144,64] 2.07 / 1.64 / 1.99;
  // f32[100000,333] 2.29 / 1.79 / 1.61, [65536,100] mask 2.69 / 2.00 / 2.53;
  // bf16[100000,333] 4.55 / 3.42 / 4.05; BENCHMARKS.md).
  static constexpr int kLogSumExpItems = 8;
  // Log-sum-exp of f64 asks for four blocks of 256 an SM (64 registers):
  // left to itself, ptxas took 84-86 once the series' coefficients came from
  // the constant bank, and 88 allocated a thread left two blocks (H100,
  // ratio to copy, free / three / four blocks: [100000,100] mask 3.60 /
  // 2.65 / 2.72, [65536,256] 1.83 / 1.51 / 1.39, [65536,300] 2.65 / 2.71 /
  // 2.38, [262144,64] 1.70 / 1.39 / 1.30, [1048576,16] exclusive 1.24 /
  // 1.25 / 1.15; BENCHMARKS.md).
  // Masked, four spilled (8 stores at 64 registers): three (72 registers).
  static constexpr int kWideLogSumExpMinBlocksPerSm = 4;
  static constexpr int kWideLogSumExpMaskedMinBlocksPerSm = 3;
};

struct ColumnPolicy {
  // Rows (of the contiguous dim) of at most this many bytes and 16 columns
  // are scanned as lines of the look-back, packed into one row where
  // kMaxPackedBytes allows (packed_lanes.cuh), else a block taking a tile
  // step of all of them through shared memory (lookback_lanes.cuh):
  // f32[1048576,2] dim=0 took 67x copy in panels of 64 columns holding 2,
  // f32[2097152,8] 27x (BENCHMARKS.md).
  static constexpr int kNarrowRowBytes = 64;
  static constexpr int kMaxLanes = 16;
  // Sums, products, max and min (masked or not) of groups of up to this
  // many bytes of accumulators (a look-back's published value) whose rows
  // lie on the 16-byte grid are scanned packed, a group's rows as one row
  // of items (packed_lanes.cuh), by the pipelined look-back: f32[8388608,2]
  // dim=0 2.4 -> 1.2 of copy, f16 [8388608,4] 4.6 -> 1.8 (H100,
  // BENCHMARKS.md). Groups of 32 bytes (f32 x 8, f64 x 4, i32 -> i64 x 4)
  // first spilled (bf16 x 8: 3860 stores); in blocks of 256 they do not.
  static constexpr int kMaxPackedBytes = 32;
  // Without stages (sm_75/80/86/89), narrow columns of a power of two of
  // lanes are packed all the same where a group holds at most
  // kPackedWithoutStagesGroupBytes of accumulators (twice that for 2-byte
  // elements in 4-byte ones): their Lanes items (and masks' items) are
  // loaded a warp's run by lanes through the look-back's register tiles
  // (packed_direct). As sm_80 on an H200, x copy, unpacked / packed:
  // f32[4194304,4] 4.32 / 3.41, f32[8388608,2] 3.05 / 2.40, f16[8388608,4]
  // 6.01 / 3.58, masked f16[8388607,4] 5.02 / 3.17, min bf16[4194304,4]
  // reverse 5.42 / 2.66, f64[8388608,2] 3.04 / 2.73, f16[2097152,8] 6.81 /
  // 4.92. Wider groups lost: f32[2097152,8] 6.43 / 7.83, max u8[4194304,8]
  // (in i32) 9.23 / 16.9, f32[1048576,16] 7.49 / 14.6; so did 3 lanes,
  // whose items are no word (f32[4194304,3] 2.45 / 3.13; BENCHMARKS.md,
  // fiftieth pass).
  static constexpr bool kPackedWithoutStages = true;
  static constexpr int kPackedWithoutStagesGroupBytes = 16;
  // Wider groups of 4-byte accumulators are packed too, unmasked: of 4-byte
  // elements (8 or 16), and of 16 narrower ones (max u8 x 8 won 5% at 4M
  // rows and lost 8-16% at 16M: left unpacked), kPackedWithoutStagesWideAccBytes
  // of accumulators a thread, in blocks of 128 for 4-byte elements, 256
  // for narrower ones (128 with twice the items where those spilled 4-16
  // stores: narrower integers' exclusive scans, and f16 for sm_75). The
  // losses above were tiles of 1-2 items a thread, and items of 32 bytes
  // or more that left member by member (8 store sectors for 1;
  // copy_member_run_by_lanes). As sm_80, x copy, unpacked / packed:
  // f32[1048576,8] 6.54 / 3.22, f32[2097152,8] 5.99 / 3.63, f32[16777216,8]
  // 6.65 / 6.37, max f32[8388608,8] reverse 6.86 / 4.01, f32[1048575,8] @1
  // 5.85 / 3.36, max i32[8388608,8] 6.64 / 5.81; f32[1048576,16] 7.32 /
  // 6.06, max f32[1048576,16] reverse 7.98 / 4.30, f32[16777216,16] 8.22 /
  // 8.12; f16[1048576,16] 10.51 / 3.82, f16[4194304,16] 11.74 / 5.42, max
  // bf16[2097152,16] reverse 12.00 / 3.98, prod f16[1048575,16] exclusive
  // 9.60 / 3.46; max u8[1048576,16] 14.17 / 7.16, max u8[4194304,16]
  // exclusive 13.67 / 9.74; sm_75 alike (BENCHMARKS.md, fifty-first pass).
  // f64 groups stay unpacked: f64 x 4 won at 2M rows and lost at 8M (4.14
  // / 3.64, 4.21 / 4.50), f64 x 8 lost (4.98 / 5.9-8.8).
  // (16 lanes of 2- or 4-byte elements, f32 x 16 and f16 x 16, are
  // switched by kPackedWithoutStagesWideSixteen: on since their blocks
  // passed Edges.PackedLanesWithoutStagesOfSm80 on the GPU.)
  static constexpr bool kPackedWithoutStagesWideSixteen = true;
  static constexpr int kPackedWithoutStagesWideAccBytes = 256;
  static constexpr int kPackedWithoutStagesWideThreads = 128;
  static constexpr int kPackedWithoutStagesWideNarrowThreads = 256;
  // Groups of more, up to this many bytes of accumulators (f32 x 9-16, max
  // u8 x 16 in i32, f64 x 5-8), are packed where lane threads scan them or
  // Lanes items are staged: the look-back publishes each part of at most
  // kMaxPackedBytes apart, the last padded, and reads it with warps of its
  // own (PublishedParts, flagged_value.cuh; LanesParts, packed_lanes.cuh).
  // Unpacked, a block scanned and chained a tile step's 8 or 16 lines one
  // by one: 3.5-12x copy (H100, BENCHMARKS.md).
  static constexpr int kMaxSplitPackedBytes = 64;
  // A packed tile: about this much input, within this many bytes of
  // accumulators a thread (f64 x 2: 4 items 1.5 of copy, 2 items 2.2).
  static constexpr int kPackedTileBytes = 16 * 1024;
  static constexpr int kPackedAccBytes = 64;
  // 2-byte elements in 4-byte accumulators (f16/bf16 sums, products, max
  // and min; i16 max and min) are latency-bound at that budget (min bf16
  // [4194304,4] reverse: DRAM 16%, 0.52 warps issued a cycle). In groups of
  // up to 16 bytes of accumulators (2-4 lanes) they take blocks of 256 and
  // twice the budget: H200, x copy, the policy's items then twice them,
  // min bf16[4194304,4] reverse 2.77 -> 1.90, max bf16[16777216,2] mask
  // 2.18 -> 1.59; H100, sums and products from blocks of 384, sum bf16
  // [4194304,4] mask reverse 1.68 -> 1.40, prod bf16[5592400,3] exclusive
  // 1.79 -> 1.49 (128 registers at most, no spills). Groups of 5-8 lanes
  // spilled 72-76 stores at 4 items in blocks of 256; in blocks of 128
  // they take four times the budget, 8 items (238 registers at most, no
  // spills; H100: max f16[2796192,6] mask 2.57 -> 1.68, sum f16[3355440,5]
  // 3.89 -> 2.76, min bf16[2097152,8] exclusive 3.14 -> 2.28).
  static constexpr int kPackedTwoByteAccBytes = 128;
  static constexpr int kPackedTwoByteMaxGroupBytes = 16;
  static constexpr int kPackedTwoByteWideThreads = 128;
  static constexpr int kPackedTwoByteWideAccBytes = 256;
  // Staged, 2-byte elements of 2 lanes (unmasked) and of 3 take the most
  // items that keep 128 registers without spills, not the budget's power of
  // two (H200, x copy, 16 -> 23 items: sum f16[16777216,2] dim=0 1.42 ->
  // 1.14, sum bf16[33554432,2] 1.39 -> 1.06, min i16[16777216,2] exclusive
  // 1.53 -> 1.22, prod f16[8388608,2] reverse 1.50 -> 1.21, sum
  // f16[8388608,2] @1 1.70 -> 1.44, max bf16[2,8388607,2] dim=1 reverse
  // 1.79 -> 1.67, sum f16[4194304,2] 2.05 -> 1.70; 8 -> 11 items: sum
  // f16[5592405,3] 1.59 -> 1.35, prod bf16[5592400,3] exclusive 1.66 ->
  // 1.45, max f16[5592405,3] mask 1.65 -> 1.48; 15 spilled 12 stores).
  // On the grid 20 items of 2 lanes and 11 of 3, shifted 18 and 10: the
  // most without spills on sm_90 over every op, 2-byte dtype and flag (sum
  // f16[300000,2] spilled 8 stores at 21, shifted 2 lanes at 19-20 and 3
  // lanes at 11). Masked 2 lanes keep 16: at 19 and 23 their stages of
  // input and mask fell to two and they ran 4.2-5.0 (sum bf16[8388608,2]
  // mask 1.38). BENCHMARKS.md, sixty-ninth pass.
  static constexpr int kPackedTwoByteStagedTwoLaneItems = 20;
  static constexpr int kPackedTwoByteStagedTwoLaneShiftedItems = 18;
  static constexpr int kPackedTwoByteStagedThreeLaneItems = 11;
  static constexpr int kPackedTwoByteStagedThreeLaneShiftedItems = 10;
  // Four f16/bf16 lanes in shifted stages (unmasked: where lane threads do
  // not take 16 bytes of accumulators) take 9 items, not the budget's 8:
  // the most without spills on sm_90 over every op and flag (10 spilled
  // 12-16 stores: max bf16[100003,4]; i16 max and min spilled 16 at 9 and
  // keep 8), four stages. H200, x copy, a sweep of 8 / 10 items: sum
  // f16[8388608,4] dim=0 @3 1.84 / 1.52, min bf16[4194304,4] reverse @1
  // 1.99 / 1.66, max i16[4194304,4] exclusive @2 1.89 / 1.62, sum
  // bf16[16777216,4] @1 1.83 / 1.45; masked, 10 items leave two stages and
  // spill 20-24. BENCHMARKS.md, seventieth pass.
  static constexpr int kPackedTwoByteStagedFourLaneShiftedItems = 9;
  // Staged packed lanes of other kinds (not lane threads): tiles of up to
  // 32 KB, 96 bytes of accumulators a thread (2-byte elements: their
  // budgets above), not rounded down to a power of two, while three stages
  // fit (a sweep, H200, x copy: sum f32[5592404,3] 4 -> 6 items 1.61 ->
  // 1.23, max i32[5592404,3] mask reverse 1.68 -> 1.25, at 8 items two
  // stages 1.74; sum f32[2796202,6] 2 -> 4 items 2.55 -> 1.39). The A/B
  // against power-of-two items, two rounds, 18 of 18 gained 14-48%: sum
  // f32[5592404,3] 1.67 -> 1.13 (8 items), max i32[5592404,3] mask reverse
  // 1.57 -> 1.23 (7), sum f32[3355443,5] 3.40 -> 1.76, sum u8[5592405,3]
  // (i64 accumulators) 4.29 -> 2.21, sum f64[5592405,3] 2.85 -> 1.55, sum
  // u8[16777216,2] 2.53 -> 1.71, sum f16[3355440,5] 3.29 -> 2.16 (12), sum
  // f32[16777216,3] 2.04 -> 1.23, min f32[5592405,3] @1 1.89 -> 1.48.
  // Timed archs only: sm_100 and sm_120 spilled 8-48 stores (shifted
  // products of 3 lanes, byte max/min of 6). BENCHMARKS.md, sixty-ninth
  // pass.
  static constexpr int kPackedStagedTileBytes = 32 * 1024;
  static constexpr int kPackedStagedAccBytes = 96;
  static constexpr int kPackedStagedMinStages = 3;
  // ... in groups of up to 24 bytes of accumulators, blocks of up to 256:
  // 7 lanes of 4 bytes spilled 8-24 stores at 3 items, byte max/min of 3
  // lanes in blocks of 384 (80 registers) 20 at 8, i16 products of 4 lanes
  // (32 bytes) 32 at 3.
  static constexpr int kPackedStagedMaxGroupBytes = 24;
  static constexpr int kPackedStagedMaxThreads = 256;
  // Packed lanes that tile a warp (2, 4, 8 or 16 of them), of elements of
  // at least kLaneThreadMinBytes and at most kLaneThreadGroupBytes of
  // accumulators a group (32-byte groups spilled 20-92 bytes in these
  // blocks; they keep Lanes items) are scanned a thread a lane
  // (lane_threads.cuh): a thread's items are one lane's scalars, an odd
  // count (conflict-free stage reads), where Lanes items combine every
  // lane at every rung. H200, ms, Lanes items / a thread a lane:
  // f32[4194304,4] 0.083 / 0.068, f32[33554432,2] 0.191 / 0.165,
  // f64[8388608,2] 0.138 / 0.095 (384 x 11 and 256 x 11). 2-byte elements
  // lost (f16[8388608,4] 0.088 / 0.093 at best: a scalar 2-byte access
  // an element in and out of the stage), so they keep Lanes items.
  // Smaller tiles lost throughout (f32 x 4, 256 x 7: 0.120), and so did
  // fewer, larger blocks (512 x 15, one an SM: 0.081); BENCHMARKS.md.
  static constexpr int kLaneThreadMinBytes = 4;
  static constexpr int kLaneThreadGroupBytes = 16;
  static constexpr int kLaneThreadItems = 11;
  // Unmasked on the timed arch: 13 items, two blocks of 256 still within
  // 128 registers (108-128 on sm_90, shifted stages too, every op and
  // dtype) and three stages (H200, x copy, 11 / 13 items: sum
  // f32[4194304,4] dim=0 1.25 / 1.16, [16777216,4] 1.16 / 1.09,
  // [33554432,2] 1.14 / 1.12, sum f16[8388608,4] 1.44 / 1.37, @3 2.12 /
  // 1.66, min bf16[4194304,4] reverse 1.74 / 1.72; BENCHMARKS.md,
  // seventieth pass). With a mask, 13 items leave two stages; groups of
  // 32 bytes (f32 x 8) in shifted stages spilled 4-12 stores at 13, and
  // so did prod i32[100003,2] (8: i32 into 8-byte accumulators).
  static constexpr int kLaneThreadTimedItems = 13;
  // A lane thread holds a word of adjacent lanes of each item, read from
  // and written to the stage at once (lane_width), where the lanes are
  // whole words and accumulate in at most 4 bytes each: 8-byte words (2
  // lanes of f32/i32, 4 of f16/bf16/i16), 4-byte words of byte elements
  // (4 lanes). H100, x copy, policy then words: f32[4194304,4] 1.47 ->
  // 1.18, mask reverse 1.46 -> 1.18, max i32[4194304,4] mask 1.44 -> 1.16,
  // f32[33554432,2] 1.15 -> 1.05, f32[4194304,8] 2.49 -> 1.72 (which had
  // Lanes items), f16[8388608,4] exclusive 1.55 -> 1.33, max f16[4194304,4]
  // 1.69 -> 1.54, max f16[2097152,8] 2.41 -> 2.04, max u8[8388608,4]
  // reverse 3.02 -> 2.30, max u8[8388608,8] mask reverse 6.18 -> 2.40.
  // Lost, so not taken: narrower words (f16[16777216,2] as 4-byte words
  // 1.31 -> 1.43, min u8[16777216,2] 2.27 -> 2.45); 8-byte accumulators
  // (f64[8388608,2] mask as 16-byte words 1.11 -> 2.62, prod i32[4194304,4]
  // 2.31 -> 3.53); a thread holding a whole item with a mask and 16 bytes
  // of accumulators (sum bf16[4194304,4] mask reverse: 11 items spilled 92
  // stores, 8.6; 7 items 1.54 against Lanes items' 1.40; 9 items with the
  // reload 1.40-1.43 against 1.41-1.42), except of byte elements (13 items:
  // max u8[8388608,4] mask 2.32 -> 1.75, min i8[4194304,4] mask reverse
  // 2.41 -> 1.92, max bool[4194304,4] mask 2.52 -> 2.07), or 16 bytes of
  // them in shifted stages (which spill 56-232 stores: they cannot scan
  // their items again from the stage, lane_threads.cuh's kReload; prod
  // f16[46,18928,8] dim=1 reverse @1 2.20 -> 2.47). (Shifted 8-byte items
  // of 8 lanes with a mask spill 24-48 stores and are kept: min f32[847449,
  // 8] mask @1 2.24 -> 1.38, sum f32[61,99372,8] dim=1 mask @2 2.30 -> 1.48.)
  // With a mask, more
  // than 8 bytes of accumulators an item take kLaneThreadMaskedWideItems
  // (11 items spilled 228-236 stores; H100, 7 -> 9 items: sum bf16[2097152,
  // 8] mask reverse 2.03 -> 1.70, max f16[2097152,8] mask 1.96 -> 1.67).
  // Byte elements' words are 4 bytes, half the others': their items take
  // kLaneThreadByteItems (masked wide: ...MaskedWideByteItems), the most
  // that kept 128 registers without spills, so a tile still holds bytes
  // enough (H100, x copy: max u8[8388608,8] 3.10 -> 2.42, mask reverse
  // 3.52 -> 2.12, max u8[8388608,4] reverse 2.13 -> 1.93). With them, two
  // byte lanes pay as a 2-byte word (min u8[16777216,2] 2.24 -> 1.94, max
  // i8[16777216,2] mask 1.90 -> 1.67), where 11 items lost (2.27 -> 2.45).
  // BENCHMARKS.md.
  static constexpr int kLaneWordBytes = 8;
  // Words of four 2-byte lanes (16 bytes of 4-byte accumulators) pay in
  // shifted stages too where a group holds several (8 lanes), though they
  // hold their scan across the next tile (216-232 spilled stores at 11
  // items): items of 8 lanes took 236 registers, one block of 128 an SM
  // (H200, x copy, items / lane threads: sum f16[2598355,8] @2 3.50 / 2.18,
  // sum f16[10000000,8] @2 4.42 / 2.55, prod f16[2097152,8] exclusive @3
  // 3.95 / 2.31, sum f16[2097152,8] mask @3 3.16 / 2.36, max
  // bf16[2598355,8] @1 2.49 / 2.24, min bf16[2097152,8] reverse @1 2.76 /
  // 2.64; words of four of four lanes lost, f16[4194304,4] @3 1.40 / 1.92;
  // BENCHMARKS.md, ninety-first pass).
  static constexpr bool kShiftedTwoByteLaneWordsOfFour = true;
  // In shifted stages, unmasked groups of 16 or more bytes of accumulators
  // of 4- and 8-byte elements but those published in parts keep items of C
  // lanes (H200, x copy, items / lane threads: sum f32[2097152,8] reverse
  // @1 1.51 / 1.87, sum f32[2598355,8] @1 1.41 / 1.81, sum f32[4194304,4]
  // @1 1.12 / 1.18, sum f64[8388608,2] @1 1.08 / 1.21; f32 x 2 keeps lane
  // threads, 1.30 / 1.10, as do masked ones, max f32[2097152,8] mask @1
  // 1.68 / 1.61; BENCHMARKS.md, ninety-first pass).
  static constexpr bool kShiftedWideLanesAsItems = true;
  static constexpr int kShiftedLanesAsItemsMinGroupBytes = 16;
  static constexpr int kLaneWordBytesOfBytes = 4;
  // u8/i8 max and min of 8 or 16 lanes take words of 8 where they plan one
  // block an SM (H200, x copy, words of 4 / 8: max u8[1048576,16] dim=0
  // 3.40 / 2.22, max u8[4194304,16] 3.18 / 1.94, 146-150 registers; 8
  // lanes, one thread an item, 128 registers: max u8[8388608,8] 1.89 /
  // 1.52, min i8[2097152,8] exclusive 2.47 / 1.97, max u8[1048573,8] 1.91 /
  // 1.62; shifted stages, 250 registers, no spills: max u8[4194304,16] @1
  // 4.13 / 2.65, min u8[1048573,16] reverse @2 3.56 / 2.37; masked, in
  // kLaneThreadOneBlockMaskedByteWordItems: max u8[4194304,16] mask 2.32 /
  // 1.95, max u8[8388608,8] mask reverse 1.87 / 1.66; BENCHMARKS.md,
  // sixty-ninth pass). Else words of 4: smaller blocks of words of 8
  // spilled 56 stores (max u8[65536,8]) or, masked, lost their stages. Not
  // bool (191 registers in words of 4, spilled 32 stores in words of 8).
  static constexpr int kLaneWordBytesOfByteMaxMin = 8;
  static constexpr int kLaneWordsOfByteMaxMinLanes = 8;
  static constexpr int kLaneThreadMaskedWideItems = 9;
  static constexpr int kLaneThreadByteItems = 15;
  // Unmasked byte words of 4 lanes on the timed arch: 23 items (94
  // registers, three stages) where that still makes kLaneThreadByteWord
  // MinTilesPerSm tiles an SM (H200, x copy, 15 / 23 items: max
  // u8[16777216,4] dim=0 1.77 / 1.37, min i8[16777216,4] exclusive 1.71 /
  // 1.37, max u8[8388608,4] reverse 1.89 / 1.56, max u8[4194304,4] 2.33 /
  // 2.07, min i8[4194304,4] reverse 2.45 / 2.19; max u8[2097152,4], 357
  // tiles at 23, lost: 1.94 / 2.16; BENCHMARKS.md, seventieth pass). With
  // a mask 23 items leave two stages (3.6-3.8).
  static constexpr int kLaneThreadByteWordItems = 23;
  static constexpr int kLaneThreadByteWordMinTilesPerSm = 4;
  // Groups published in parts (kMaxSplitPackedBytes) but for the masked wide
  // and byte items, where one block an SM does not hold three stages
  // (kLaneThreadOneBlockItems): 13 items, no spills (H200, x copy, 11 -> 13
  // items: sum f32[1048576,16] dim=0 3.25 -> 2.89, max i32[1048576,16] dim=0
  // mask 3.04 -> 2.77, sum f16[1048576,16] 3.22 -> 2.90; 15 items spilled
  // 148-448 stores, and bytes at 15 items (12 stores) ran 4.50 against 13's
  // 5.23). 8-byte lanes a thread each (f64/i64 x 8) too (H100, 13 items: sum
  // f64[1048576,8] 2.21, 11: 2.47; max i64 reverse 1.62 against 1.80), but
  // with a mask, where 13 spilled 80-240 stores: 11 (max f64 mask 1.79).
  static constexpr int kLaneThreadPartsItems = 13;
  // Groups of kLaneThreadOneBlockGroupBytes of accumulators or more (those
  // in parts and 8 lanes of 4 bytes), every kind, where the SM's shared
  // memory holds three stages of them: one block an SM of
  // kLaneThreadOneBlockItems items (shifted stages, which cannot scan their
  // items again from the stage: ...ShiftedItems), its stages sized from the
  // SM's shared memory. Two
  // blocks of 128 registers held 9-15 items and tiles of 15-22 KB, whose two
  // block barriers and look-back dominated (ncu, H200, max u8[1048576,16]:
  // 38% of the cycles between issues at a block barrier, 25% of the issue
  // slots busy). H200, x copy, two blocks then one of 23 items: max
  // u8[1048576,16] 5.0 -> 3.3, mask [4194304,16] 4.0 -> 2.6, sum
  // f32[1048576,16] 2.85 -> 2.03, [4194304,16] 2.9 -> 1.9, min
  // i16[2097152,16] 2.9 -> 2.15 (21 items), sum f64[1048576,8] 2.85 -> 2.25
  // (19 items). 23 items spill none on the grid on sm_90 and sm_100;
  // shifted 2-byte and byte words spilled 164-192 stores at 23, none at 17.
  // Groups of 32 bytes too, on the grid, from kLaneThreadOneBlockMinItems
  // packed items (H200, x copy): sum f32[1048576,8] 2.0 -> 1.70 (A/B 2.05
  // -> 1.87), [262144,8] 2.1 -> 1.7, [16777216,8] 2.95 -> 1.84, max
  // u8[8388608,8] mask reverse 2.85 -> 2.22, max i16[4194304,8] reverse 2.16
  // -> 1.79, max f32[7018342,8] mask 1.56 -> 1.26. Smaller problems lost
  // (too few tiles for the SMs: sum f32[65536,8] 1.43 -> 1.96, max
  // i8[65536,8] mask 1.57 -> 2.06), and so did shifted stages of 32-byte
  // groups as often as they gained (min i32[21,30751,8] dim=1 @3 +7.6%,
  // prod f32[48,50870,8] dim=1 @3 +8.1%, max i32[6669285,8] reverse @1
  // -18.5%). Smaller groups did not gain (sum f32[4194304,4] 1.39 -> 1.39,
  // f16[8388608,4] 1.52 -> 1.48, f64[8388608,2] 1.39 -> 1.37,
  // f32[33554432,2] 1.18 -> 1.18), but for bytes (max u8[8388608,4] reverse
  // 2.29 -> 2.04: untried as a rule). (sm_120's 100 KB an SM holds two
  // stages of 16 f32 lanes: such plans keep the smaller blocks.)
  // BENCHMARKS.md.
  static constexpr int kLaneThreadOneBlockGroupBytes = 32;
  static constexpr long long kLaneThreadOneBlockMinItems = 262144;
  static constexpr int kLaneThreadOneBlockPerSm = 1;
  static constexpr int kLaneThreadOneBlockItems = 23;
  static constexpr int kLaneThreadOneBlockShiftedItems = 17;
  // Unmasked one-block tiles on the timed arch hold 31 items where a thread
  // keeps them in registers (H200, x copy, 23 / 31 items: sum
  // f32[1048576,16] dim=0 1.57 / 1.39, [4194304,16] 1.60 / 1.30,
  // [4194304,8] 1.33 / 1.20, max f32[2097152,8] reverse 1.45 / 1.32, max
  // u8[1048576,16] 2.39 / 2.10; shifted, min i8[4194304,16] @1 2.45 / 1.88
  // against 17 items; BENCHMARKS.md, seventieth pass). sm_90 spills none
  // on the grid (137-246 registers), nor in shifted stages of byte words
  // and items of at most 8 bytes of accumulators narrower than 8 bytes
  // (244-251 registers; 16-byte items of 2-byte lanes spilled 468-556
  // stores, prod i64 x 8 reverse exclusive 16: they keep 17). With a mask,
  // 31 items' three stages exceed the SM's shared memory, but for narrower
  // integers summed or multiplied into i64 x 8, whose narrow input's fit
  // (214672 bytes): they take 31 items in every placement. Once they held
  // their items' scans across the next tile's (the output wider than the
  // input kept them off the stage: prod i32 x 8 spilled 24 stores at 31);
  // scanned again from the stage, on the grid they spill none (194-246
  // registers); shifted, products still spill 24-36 stores yet gained
  // (H200, x copy, A/B against Lanes items: sum i16[2097152,8] dim=0 2.89
  // -> 1.88, @1 2.88 -> 2.11, prod i16 @1 2.97 -> 2.03, sum
  // i32[2097152,8] 2.07 -> 1.73, @1 2.64 -> 1.76; BENCHMARKS.md,
  // eighty-fourth pass). So do those widened into i64 x 4 (32-byte groups,
  // not in parts) on the grid, from kLaneThreadOneBlockMinItems packed
  // items, where Lanes items held 7 (sum u8[8388608,4] 1.89 -> 1.63, i32
  // [4194304,4] 1.53 -> 1.38, prod i16 2.06 -> 1.75, u8 masked 1.78 ->
  // 1.61; 27 items 1.80, 23 items 2.06); shifted they lost (u8 @3 1.80 ->
  // 3.82: the shifted stage holds its scans; eighty-fifth pass).
  static constexpr int kLaneThreadOneBlockWideItems = 31;
  // Masked 4- and 8-byte elements (the kinds timed), 29 items: three stages of
  // input and mask still fit sm_90's SM (f32 x 16: 223 of 227 KB). H200,
  // x copy, 23 / 29 items, sum f32[1048576,16] dim=0 mask 1.48 / 1.41,
  // sum f32[4194304,8] mask 1.22 / 1.15, max i32[1048576,16] mask reverse
  // 1.68 / 1.50, max f32[7018342,8] mask 1.14 / 1.10 (25 and 27 items
  // between; BENCHMARKS.md, seventieth pass). Masked 8-byte elements too
  // (f64/i64 x 8: 23 / 29 items, sum f64[1048576,8] mask 1.56 / 1.44, max
  // i64[2097152,8] mask reverse 1.37 / 1.30, max f64[4194304,8] mask
  // exclusive 1.36 / 1.26; seventy-first pass).
  static constexpr int kLaneThreadOneBlockMaskedWideItems = 29;
  static constexpr int kLaneThreadOneBlockWideShiftedItemBytes = 8;
  // Masked byte words of 8 lanes in one block: 17 items, as 23 items'
  // input and mask in three stages exceed the SM's shared memory (H200, x
  // copy, 13 / 15 / 17 items: max u8[4194304,16] mask 2.13 / 1.93 / 1.81,
  // min i8[2097152,16] mask reverse 2.14 / 2.00 / 1.97, max u8[8388608,8]
  // mask reverse 1.82 / 1.66 / 1.62; a second round, 15 / 17: 1.83 /
  // 1.81, 1.97 / 1.88, 1.76 / 1.58, max u8[1048576,16] mask 2.02 / 1.97,
  // min u8[16777216,8] mask 1.46 / 1.43), and only in as many tiles as SMs:
  // fewer lost to words of 4 (max i8[262144,8] mask, 68 tiles at 15 items,
  // 1.58 -> 1.77; min i8[300000,8] mask, 1.26 -> 1.35).
  static constexpr int kLaneThreadOneBlockMaskedByteWordItems = 17;
  static constexpr int kLaneThreadOneBlockMinStages = 3;
  // ... and at most three stages, not the four the SM holds (H200, x copy,
  // 4 -> 3 stages: max u8[1048576,16] dim=0 3.36 -> 3.16, min
  // u8[1048573,16] reverse 2.88 -> 2.73, sum f32[1048576,16] 1.97 -> 1.82,
  // max bf16[1048576,16] 2.23 -> 1.98, max u8[4194304,16] 2.78 -> 2.77;
  // BENCHMARKS.md).
  static constexpr int kLaneThreadOneBlockMaxStages = 3;
  static constexpr int kLaneThreadMaskedWideByteItems = 13;
  // One block an SM of more items, timed arch, where that still makes
  // kPackedOneBlockMinTilesPerSm tiles an SM (u8/i8 pairs: ...BytePair...)
  // and three stages. Sweeps then A/B, H200, x copy, policy / one block
  // (BENCHMARKS.md, seventy-first pass):
  // - shifted, unmasked four 2-byte lanes in 4-byte accumulators (staged
  //   Lanes items, 9 or 8 items a thread -> 20): sum f16[8388608,4] dim=0
  //   @3 1.55 / 1.29, max i16[4194304,4] exclusive @2 2.07 / 1.61, sum
  //   bf16[16777216,4] @1 1.58 / 1.22, prod f16[2097152,4] @1 (410 tiles)
  //   2.16 / 2.07; 17 items lost to 20 on all five swept;
  // - masked u8/i8 words of four lanes (lane threads, 13 items -> 31): max
  //   u8[16777216,4] mask exclusive 1.65 / 1.38, max i8[33554432,4] mask
  //   1.61 / 1.29, max u8[8388608,4] mask 1.67 / 1.50, min i8[4194304,4]
  //   mask reverse (529 tiles) 1.72 / 1.69;
  // - u8/i8 pairs (15 -> 31) from about 6 tiles an SM: min
  //   u8[16777216,2] reverse 2.56 / 2.18, @1 2.67 / 2.27, max
  //   u8[33554432,2] mask 2.18 / 1.88, max i8[12582912,2] 2.56 / 2.29, min
  //   u8[8388608,2] (1057 tiles) 2.92 / 2.69; min u8[4194304,2] reverse
  //   (529 tiles) lost, 2.31 / 2.71; between, two rounds each, max
  //   u8[6000000,2] (756 tiles) 2.13-2.33 / 2.05-2.09, max i8[6291456,2]
  //   reverse (793) 2.47-2.50 / 2.39-2.48, min u8[5242880,2] (661)
  //   2.31-2.50 / 2.46-2.47.
  // Registers: 92-240, no spills on sm_90 over every op, dtype and flag
  // these take, on the grid and off it.
  // On the grid (a second sweep; odd counts, conflict-free stage reads,
  // but for five lanes; 16 and 20 items lost throughout):
  // - masked four 2-byte lanes (staged, 8 -> 23): sum f16[8388607,4] mask
  //   1.35 / 1.00, max bf16[4194304,4] mask reverse 1.81 / 1.44;
  // - unmasked four 2-byte lanes (lane threads, 13 -> 31): min
  //   bf16[4194304,4] reverse 1.69 / 1.55, sum f16[8388608,4] 1.24 / 1.19
  //   (f32 and f64 pairs and f32 x 4 gained 0-7%: not taken);
  // - five 4-byte lanes (staged, 4 -> 10): max i32[3355443,5] mask 1.43 /
  //   1.11, max f32[3355443,5] 1.63 / 1.33 (8 items: 1.26, 1.53; three
  //   lanes did not gain: sum f32[5592404,3] 1.25 / 1.24).
  // Registers: 116-255 (masked i16 reverse exclusive), no spills, over
  // every op, dtype and flag these take.
  static constexpr int kPackedOneBlockPerSm = 1;
  static constexpr int kPackedOneBlockMinTilesPerSm = 3;
  static constexpr int kLaneThreadBytePairOneBlockMinTilesPerSm = 6;
  static constexpr int kPackedTwoByteShiftedFourLaneOneBlockItems = 20;
  static constexpr int kPackedTwoByteMaskedFourLaneOneBlockItems = 23;
  static constexpr int kLaneThreadTwoByteFourLaneOneBlockItems = 31;
  static constexpr int kPackedFiveLanes = 5;
  static constexpr int kPackedFiveLaneOneBlockItems = 10;
  static constexpr int kLaneThreadByteOneBlockItems = 31;
  // Staged Lanes items that the byte budget (packedLanesItems) leaves at
  // kPackedFewItems or fewer a thread (wide groups: 8-byte accumulators of
  // 2-4 lanes, 4-byte ones of 6-7), and groups published in parts whatever
  // their budget (8-byte accumulators of 5-8 lanes that no lane threads
  // take, 4-byte ones of 9-15): one block an SM of the most odd items
  // from kPackedFewItemsOneBlockItems, within kPackedFewItemsAccBytes of
  // accumulators a thread, down to the first that holds three stages in at
  // least kPackedFewItemsOneBlockMinTilesPerSm tiles an SM. (Bytes'
  // max/min of 3-7 lanes, in 4-byte accumulators, spilled 4-632 stores at
  // 17, and are left out; prod i64 x 4 at 9 items, 288 bytes, spilled 8.)
  // Sweeps, H200, x copy, policy / one block (BENCHMARKS.md, seventy-second
  // pass): sum u8[16777216,2] 1.89 / 1.23 (17), sum
  // i16[8388608,2] 1.73 / 1.28 (17), prod i8[8388608,2] mask 1.97 / 1.56
  // (15; 17 holds two stages: 3.38), sum u8[8388608,4] 5.85 / 1.59 (9), sum
  // f32[2396745,7] 3.17 / 1.30 (9; 11, two stages: 6.96), max
  // f32[2796202,6] 1.38 / 1.11 (11), sum f32[2796202,6] mask 1.72 / 1.18
  // (9), max f32[699050,6] 1.86 / 1.62 (9; 11 makes 248 tiles: 1.52).
  static constexpr int kPackedFewItems = 6;
  static constexpr int kPackedFewItemsOneBlockItems = 17;
  static constexpr int kPackedFewItemsAccBytes = 272;
  // i16 max and min in parts: within 192 bytes (masked x 13 spilled 16
  // stores at 5 items, 272 bytes' budget; at 192, 3-5 items, none).
  static constexpr int kPackedFewItemsShortOrderAccBytes = 192;
  // Unmasked 8-byte accumulators in parts: within 280 bytes (x 5 at 7
  // items, x 7 at 5; none spilled but integer products, 8-120 stores, which
  // keep 272). H200, x copy, 272 / 280 bytes: sum
  // f64[3355443,5] dim=0 1.45 / 1.20, sum f64[2396745,7] 1.99 / 1.38, max
  // i64[2396745,7] 1.74 / 1.46, sum u8[3355443,5] 2.22 / 1.78; masked ones
  // lost so (sum i64[2396745,7] mask 1.95 / 3.93, prod u8[3355443,5] mask
  // 2.45 / 5.78). Seventy-third pass.
  static constexpr int kPackedFewItemsWideUnmaskedAccBytes = 280;
  static constexpr int kPackedFewItemsOneBlockMinTilesPerSm = 2;
  // ... in blocks of 256 threads, the most a block of up to 255 registers a
  // thread holds: 2-byte elements' packed lanes keep blocks of 128 elsewhere
  // (kPackedTwoByteWideThreads), which as one block an SM ran 4.2-5.3x copy
  // (sum f16[1864135,9] dim=0 4.24 -> 1.87 at 256, 128 threads in two
  // blocks 6.69; H200, BENCHMARKS.md, seventy-third pass).
  static constexpr int kPackedFewItemsOneBlockThreads = 256;
  // Groups published in parts take the rule down to this many items, else
  // stay unpacked (sum f16[1118481,15] dim=0 at 3 items: 3.1-3.7x copy,
  // unpacked 4.6; H200, seventy-third pass).
  static constexpr int kPackedPartsMinItems = 3;
  // Untimed archs (sm_100/120; no such GPU here): items shared by 4 or more
  // lane threads (8 lanes of f32/i32 as pairs) take 9 items, chosen by
  // spills alone: sm_100's ptxas spilled 4-24 stores at 11 (sm_90 and
  // sm_120 none), none at 9.
  static constexpr int kLaneThreadUntimedManyThreadsItems = 9;
  static constexpr int kLaneThreadThreads = 384;     // 4-byte accumulators
  static constexpr int kLaneThreadWideThreads = 256; // 8-byte accumulators
  // Log-sum-exp's packed lanes, a lane a thread (planLogSumExpLanes): the
  // 1-D log-sum-exp tile's blocks (LookbackPolicy::kLogSumExpThreads), odd
  // items (a warp's stage reads on different banks), the most that keep
  // their registers without spills: a tile's look-back folds every lane, so
  // larger tiles pay (H200, x copy, 15 -> 21 items: f32[4194304,4] 2.44 ->
  // 1.92, f16[8388608,2] 3.43 -> 2.82, f32[1048576,16] 7.9 -> 5.8). Groups
  // of one whole 32-byte value hold the most (15: 17-19 spilled 4-8
  // stores); shifted stages, which hold a thread's scan across the next
  // tile's, 11 (in parts 5: 7-13 spilled 26-62). 8-byte accumulators spilled
  // 6-94 stores at 128 registers and take one block an SM (202-248).
  static constexpr int kLaneThreadLogSumExpThreads = 256;
  static constexpr int kLaneThreadLogSumExpItems = 21;
  static constexpr int kLaneThreadLogSumExpWholeValueItems = 15;
  static constexpr int kLaneThreadLogSumExpShiftedItems = 11;
  static constexpr int kLaneThreadLogSumExpShiftedPartsItems = 5;
  static constexpr int kLaneThreadLogSumExpWideItems = 21;
  static constexpr int kLaneThreadLogSumExpWideShiftedItems = 15;
  static constexpr int kLaneThreadLogSumExpWideBlocksPerSm = 1;
  // Unpacked, a step's rows of all the group's lines, in and out, in at most
  // this many bytes of shared memory: wider rows take smaller blocks.
  static constexpr int kLanesStageBytes = 64 * 1024;
  // Narrow columns' lines, a group of lanes at a time, load 4 items a thread,
  // not the row family's 8 (H100, then one line at a time: f32[1048576,2]
  // 4.74 -> 3.42 of copy, [4194304,4] 8.50 -> 6.48, f16 [8388608,2] 10.2 ->
  // 5.6).
  static constexpr int kStridedLineItems = 4;
  // A line at a stride of its own (x[::2]) loads 8 items a thread, 16 of
  // 2-byte types: more bytes in flight for a kernel that loads without
  // stages (H100, ratio to copy, 4 / 8 / 16 items: f32[4194304] at stride 2
  // 3.26 / 2.84 / 3.24, [33554432] 4.00 / 3.25 / 3.85, f16[8388608] 5.59 /
  // 3.44 / 2.83, bf16[33554432] reverse 6.81 / 3.40 / 3.34, u8[16777216]
  // 5.27 / 4.01 / 4.31, i32 3.32 / 2.77 / 3.39, log-sum-exp f32 5.34 / 3.54
  // / 3.89; stride 7, sector-bound: 4.45 / 4.78 / 4.56; BENCHMARKS.md).
  // Byte elements in 4-byte accumulators (max and min of u8/i8/bool) whose
  // dense spans are staged take the 2-byte types' 16 (H200, x copy, A/B of
  // 8 -> 16 items: max i8[33554432] at stride 2 3.86 -> 2.70, min
  // u8[8388608] stride 3 exclusive 3.58 -> 2.72, max u8[16777216] stride 4
  // 4.97 -> 4.04, min i8[4194304] stride 2 mask 2.72 -> 2.20, max
  // u8[4,4194304] dim=1 stride 2 4.76 -> 3.50). Wider strides keep 8 (min
  // i8[4194304] stride 17 mask 6.75 -> 8.29; max u8 stride 40 2.98 -> 2.71),
  // and so do u8 sums (i64; 2.39 -> 3.02 in a sweep).
  static constexpr int kSingleStridedLineItems = 8;
  static constexpr int kSingleStridedLineItemsTwoByte = 16;
  static constexpr int kThreads = 256;
  static constexpr int kLoadBytes = 16;       // widest access per thread and step
  static constexpr int kStoreBytes = 32;
  static constexpr int kAccBytes = 32;        // running values per thread
  static constexpr int kUnroll = 4;           // scan steps loaded before the first use
  // Few columns cannot fill the GPU: below this many threads, narrow the
  // vector (more threads) and load deeper ahead (more bytes in flight).
  static constexpr long long kMinThreads = 131072;
  static constexpr int kDeepUnroll = 16;
  static constexpr int kMaxValuesInFlight = 16; // vector x unroll per thread
  // Few columns on sm_90: panels of kPipelineColumns columns stream rows
  // through shared-memory stages filled by bulk copies instead. Panels of
  // 64 (blocks of 128 threads) beat 128: twice the blocks, each with its own
  // stages in flight (3-D middle dim 1.45 -> 1.36 of copy, dim=0 1.11 ->
  // 1.10 on H200).
  static constexpr int kPipelineColumns = 64;
  static constexpr int kPipelineStages = 3;
  // Threads sharing each column (each scans a slice of a stage's rows, after
  // the slices' totals are exchanged): one thread per column left 4-8 warps
  // per SM, each issuing only every ~6 cycles.
  static constexpr int kPipelineGroups = 4;
  // Columns per thread: 2 beat 1 and 4 (fewer instructions per element, and
  // still whole warps a group; H200 sweep in BENCHMARKS.md).
  static constexpr int kPipelineVector = 2;
  // Sums and products of f16 and bf16 take blocks of 256, split in groups
  // (panels of 128 columns, 256 with pieces) instead of 64-column panels of
  // 128-byte rows (H100: sum f16[8192,8192] dim=0 1.35 -> 1.30 of copy,
  // f16[8192,4097] 1.66 -> 1.44, prod f16 masked 1.70 -> 1.37, 3-D f16
  // 1.14 -> 1.05; max f16 lost 1.52 -> 1.59 and keeps the panels; not where
  // the wider panels bring pieces: ColumnPlanner.cpp; BENCHMARKS.md).
  static constexpr int kPipelineThreadsTwoByteSums = 256;
  // Except a single line of at most two such panels with pieces, where they
  // leave more columns idle than panels of 64: those take panels of 64
  // (H200, x copy, policy -> this: prod f16[260935,280] dim=0 mask reverse
  // @1 4.21 -> 2.94, prod f16[111338,177] @2 4.44 -> 3.40, sum bf16[53125,
  // 173] @2 4.78 -> 3.61, prod f16[40201,257] mask exclusive 3.77 -> 3.05,
  // sum f16[120971,311] reverse @3 3.08 -> 2.47; all 15 timed gained).
  // Past two panels, or on several lines, panels of 64 lost as often as they
  // gained (sum bf16[6769,1102] reverse @1 1.68 -> 2.58, f16[8192,4097]
  // 1.79 -> 2.08, 17 lines of bf16[6239,387] 1.99 -> 2.31; BENCHMARKS.md).
  static constexpr int64_t kWidePanelsMaxIdlePanels = 2;
  // With pieces, only edges plans (rows off the 16-byte grid, read from
  // their stages an element at a time) take the wide panels: on the H200,
  // aligned rows lost with them (x copy, blocks of 256 -> the pieces' 64:
  // sum f16[8192,4096] dim=0 1.29 -> 1.19, f16[16384,8192] 1.27 -> 1.09,
  // bf16[8192,4096] mask 1.46 -> 1.37, bf16[21648,3696] mask reverse 1.61 ->
  // 1.50), while rows off the grid lost without them (bf16[21648,3697] mask
  // reverse 1.84 -> 2.32, f16[8192,4097] 1.76 -> 1.89; BENCHMARKS.md).
  static constexpr bool kWidePanelsWithPiecesOnlyOffTheGrid = true;
  // Panels of 128 columns in blocks of 128, two threads a column: unmasked
  // max and min of f16 and bf16 (H200, x copy, the policy's panels of 64 in
  // four groups -> these, A/B of two rounds: max bf16[32768,32768] dim=0
  // 1.48 -> 1.19, min bf16[16,65536,128] dim=1 1.61 -> 1.29, min
  // f16[8192,8192] exclusive 1.41 -> 1.25, max f16[8192,4096] 1.46 -> 1.34).
  // Fitted panels take their threads a column from these (max
  // bf16[1000000,96] dim=0 2.69 -> 1.79, min f16[2000000,80] reverse 3.26 ->
  // 2.12). i16 lost twice (max [8192,4096] 1.31 -> 1.33, 1.33 -> 1.37),
  // masked max bf16[16384,8192] 1.60 -> 1.73, f32 max and min 1.15 -> 1.29 and
  // 1.28 -> 1.47 (tuned; BENCHMARKS.md) ...
  static constexpr int kTwoThreadColumnsThreads = 128;
  static constexpr int kTwoThreadColumnsGroups = 2;
  // ... 1-byte max and min too, reading 16 rows ahead: their whole slice of
  // 32 rows spilled 32-40 stores at four blocks an SM (max u8[1926,2521]),
  // where 16 take 77-112 registers. On the 16-byte grid, masked or not
  // (H200, x copy, A/B of two rounds: max i8[8192,8192] dim=0 2.45 -> 1.33,
  // min i8[16384,16384] exclusive 2.93 -> 1.44, max u8[32768,32768] 2.06 ->
  // 1.49, min u8[32768,2048] reverse 2.30 -> 1.58, max i8[64,4096,512] dim=1
  // 2.23 -> 1.59; masked, tuned: max u8[8192,8192] 2.63 -> 1.83, max
  // i8[32768,2048] exclusive 2.80 -> 2.12, min u8[3000000,160] 4.66 ->
  // 3.44; 8 rows ahead: 1.48, 1.69, 1.57); of 14 unmasked cases, one lost
  // more than 3% (min i8[100000,416] 2.90 -> 3.07) ...
  static constexpr int kTwoThreadColumnsByteRowsAhead = 16;
  // ... and off the grid, unmasked, from 2^26 elements on: all 11 such
  // cases gained (min u8[4000000,130] 5.74 -> 4.21, max i8[1000000,200]
  // 4.72 -> 2.95, max u8[2000000,250] 4.10 -> 2.60, min u8[100000,1500] 3.02
  // -> 2.18, max i8[34248,3198] @1 2.70 -> 2.10), where 11 of 25 smaller
  // ones lost up to 31% (min u8[33933,373] @2 3.00 -> 3.90, min
  // i8[47,770,981] dim=1 @1 2.17 -> 2.85, min u8[208323,248] exclusive 4.55
  // -> 4.84; BENCHMARKS.md).
  static constexpr int64_t kTwoThreadColumnsByteEdgesMinElements = int64_t(1) << 26;
  // ... a single line of 129 to 192 such columns in one panel of 192
  // (blocks of this many threads, three warps a group), where the panels
  // of 128 left the second panel's blocks a third to nearly all idle, each
  // as long as a full one's (H200, x copy, tuned, best of two rounds: min
  // u8[4000000,130] dim=0 4.03 -> 3.48, min i8[3000000,150] reverse 3.54 ->
  // 3.10, min u8[3000000,160] 3.44 -> 3.03, max u8[1000000,136] 3.68 ->
  // 3.15, max u8[600000,176] mask 3.17 -> 2.92; 7 of 8 gained 8-14%, min
  // u8[500000,144] held, 2.94 -> 2.97). From 193 columns one panel of 256
  // did not gain (max u8[400000,240] 2.36 -> 2.31, min i8[300000,250] 2.19
  // -> 2.35; BENCHMARKS.md).
  static constexpr int kTwoThreadColumnsByteOnePanelThreads = 192;
  // ... and unmasked f16 and bf16 sums and products where panels of 64 take
  // no pieces (bf16[32768,32768] dim=0 1.21 -> 1.14, f16[32768,32768] 1.20
  // -> 1.14, prod bf16[16384,16384] 1.27 -> 1.14, f16[16384,32768] reverse
  // 1.18 -> 1.14; the panels of 128 bring pieces).
  static constexpr bool kTwoByteSumsWithoutPiecesTwoThreadColumns = true;
  // Masked sums and products of 4-byte elements keep the pipeline's four
  // threads a column when they take pieces, not the pieces' two
  // (kPieceGroups): H200, x copy, 2 -> 4, two rounds: f32[21648,3696] dim=0
  // mask reverse 1.36 -> 1.14, [8192,4096] mask 1.25 -> 1.14, [1000000,200]
  // mask 2.21 -> 1.93, [65536,333] mask 2.01 -> 1.79, prod [16384,1001] mask
  // reverse 1.84 -> 1.66, [8192,4097] mask 1.59 -> 1.52, [16,65536,128]
  // dim=1 mask 1.22 -> 1.18; all 7 timed gained, and in an A/B all 10,
  // fitted panels of a single line too (their threads a column follow:
  // [1000000,96] mask 1.56 -> 1.42, [2000000,64] mask 1.46 -> 1.37).
  static constexpr bool kMaskedPiecesKeepPipelineGroups = true;
  // Sums and products of 8-byte elements take a column a thread, four
  // threads to a column, in blocks of 256 (panels of 64), not the pieces'
  // two columns a thread in blocks of 64 (ms, H100 / H200: f64[8192,8192]
  // dim=0 0.472 -> 0.376 / 0.386 -> 0.307, f64[65536,2048] mask 1.024 ->
  // 0.807 / 0.883 -> 0.678, prod f64[300000,300] mask (off the grid) 0.998
  // -> 0.670 / 0.834 -> 0.579, f64[501898,258] 1.13 -> 1.03 / 0.995 ->
  // 0.865, f64[1000000,64] 0.550 -> 0.543 / 0.441 -> 0.408). Unmasked rows
  // off the grid too, reading 4 rows ahead (kRowsAhead), not their slice
  // (H200, x copy, policy -> a column a thread: sum f64[501898,258] dim=0
  // three elements in 1.59 -> 1.34, f64[8192,8192] one in 1.46 -> 1.11,
  // i64[100003,1001] 1.45 -> 1.18, prod f64[65536,2047] reverse 1.52 ->
  // 1.16; H100's 1.063 -> 1.10 was with the slice). i32 sums in i64 keep
  // the policy's (unmasked 0.978 -> 0.903 / 0.764 -> 0.734, but masked
  // 0.509 -> 0.576 on H200; BENCHMARKS.md).
  static constexpr int kEightByteSumsGroups = 4;
  static constexpr int kEightByteSumsThreads = 256;
  // Masked sums and products of 4-byte elements (f32): blocks of 128, two
  // stages (H100, two runs, ms: f32[8192,4097] dim=0 mask 0.163-0.166 ->
  // 0.130, [32768,32768] dim=0 mask 4.15 -> 3.55, [65536,333] 0.129 ->
  // 0.111-0.113, prod [16384,1001] reverse 0.101-0.103 -> 0.086-0.087,
  // [8192,4096] 0.121-0.122 -> 0.114-0.115, 3-D middle dim 0.236-0.237 ->
  // 0.227-0.231, [2048,2048] the same; masked i32 -> i64 sums spilled 12
  // stores so: BENCHMARKS.md).
  static constexpr int kMaskedThreads = 128;
  // Unmasked edges plans (rows off the 16-byte grid) of 4-byte elements and
  // accumulators on at least kEdgesWidePanelsMinPanels panels of 128 columns
  // take them: blocks of 256, 4 threads a column, two blocks an SM (H200, x
  // copy, panels of 64 -> 128, two rounds: f32[32768,32767] dim=0 2.09 ->
  // 1.42, whose 512 panels of 64 had run in 1.3 waves of 396 blocks; f32
  // [4096,4097] 1.59 -> 1.44, [16384,4097] 1.54 -> 1.47, max [8192,2049] @1
  // 1.69 -> 1.56, max [4096,4097] exclusive 1.67 -> 1.53, prod [16384,1001]
  // 1.66 -> 1.55, [16384,1023] 1.64 -> 1.57, min i32[50000,1001] reverse
  // 1.59 -> 1.54; but [16384,16383] @1 1.39 -> 1.42 and the 4M-element
  // [2048,2049] 1.72 -> 1.85, under a wave either way). Fewer panels lost:
  // each panel's pieces are one chain, and halving the panels halves the
  // chains that run at once ([327129,245] reverse, 2 panels, 1.54 -> 1.66;
  // [65536,333], 3, even). Masked ones lost ([8192,4097] 1.64 -> 1.71), and
  // 8-byte accumulators (i32 sums) spilled (BENCHMARKS.md). Their groups
  // hold 15-row slices, which on a few shapes spill 4-16 bytes at 128
  // registers (max i32[2000,8191] dim=0, sum f32[4,3000,777] dim=1): kept,
  // since reading 12-14 rows ahead, or stages of 52-56 rows, ran slower on
  // most shapes and gained at most 4% on those (H200, BENCHMARKS.md).
  static constexpr int kEdgesWidePanelThreads = 256;
  static constexpr long long kEdgesWidePanelsMinPanels = 8;
  // Log-sum-exp is bound by the latency of its exp and log a row, not by
  // bytes: one column a thread is twice the threads for the same panel, and
  // where the accumulator is a float, two threads to a column, not four,
  // halve the slices' exchanges (H100, ratio to copy, vector 2 groups 4 ->
  // vector 1 groups 4 -> vector 1 groups 2: f32[8192,8192] 1.88 / 1.63 /
  // 1.57, [16,65536,128] dim=1 1.85 / 1.57 / 1.49, bf16[8192,8192] 2.90 /
  // 3.20 / 2.32, bf16[32768,1024] 3.29 / 3.27 / 2.63, f16[4096,4097] mask
  // 3.50 / 3.00 / 3.01; f64 keeps 4 groups: [4096,4096] 4.93 / 3.18 / 3.97,
  // [2048,8192] reverse 4.90 / 3.09 / 3.86; BENCHMARKS.md).
  static constexpr int kLogSumExpVector = 1;
  static constexpr int kLogSumExpFloatGroups = 2;
  // Float accumulators: two stages, not three, and 4 rows ahead, not 2 (more
  // blocks an SM for the exps' latency; H200, x copy, policy -> both:
  // f32[4096,4097] dim=0 mask 2.70 -> 2.05, f32[32768,4096] 2.08 -> 1.62,
  // f32[16384,4097] exclusive one in 2.90 -> 1.99, bf16[16384,1000] reverse
  // 3.81 -> 3.36, f16[8192,4097] 3.51 -> 3.33; f64 lost, 4.24 -> 4.39 on
  // [65536,300], and keeps kPipelineStages and kLogSumExpRowsAhead).
  static constexpr int kLogSumExpFloatStages = 2;
  static constexpr int kLogSumExpFloatRowsAhead = 4;
  // Rows a group reads from its stage ahead of their scan (the plan's
  // `unroll`; column_pipeline.cuh). Panels on the 16-byte grid of elements
  // of 2 bytes or more go 8 (2-byte) or 4 rows at a time instead of holding
  // their whole slice (24 rows) in registers: ms, H100, slice -> 8 rows:
  // f16[8192,4096] dim=0 0.073 -> 0.065, f16[16384,8192] 0.238 -> 0.207,
  // bf16[65536,512] 0.095 -> 0.074, f16[64,4096,256] dim=1 0.135 -> 0.114,
  // max i16[8192,4096] 0.077 -> 0.064, bf16[16,65536,128] dim=1 0.370 ->
  // 0.352 (4 rows: 0.398); 4- and 8-byte panels within 2% at 4 rows (H200:
  // f64[8192,8192] 0.304 -> 0.279), and their kernels compile a quarter
  // faster (column f32 285 -> 220 ms). Edges plans and 1-byte elements keep
  // the slice (f16[8192,4097] 0.078 -> 0.080, bf16[21648,3697] mask reverse
  // 0.223 -> 0.241 at 4 rows, u8[16384,4096] 0.243 -> 0.250; BENCHMARKS.md).
  // Log-sum-exp goes 2 rows at a time (its combine is too costly to unroll).
  // Masked 8-byte sums and products off the grid (a column a thread) are
  // not edges plans' rule but this one, 4 rows: their 14-row slices spilled
  // 4-32 bytes at 128 registers (found by a compile sweep of shapes drawn at
  // random), and 4 rows ran faster (H200, ms, slice -> 8 -> 4 rows: prod
  // f64[300000,300] dim=0 mask 0.580 -> 0.547 -> 0.536, f64[16,65536,129]
  // dim=1 mask 1.185 -> 1.078 -> 1.068, [32768,1001] mask 0.216 -> 0.205 ->
  // 0.203, [65536,2047] mask 0.791 -> 0.756 -> 0.752, prod [100003,300]
  // mask exclusive 0.204 -> 0.194 -> 0.186, [501898,258] mask 1.23 -> 1.28
  // -> 1.23; BENCHMARKS.md).
  static constexpr int kRowsAheadTwoByte = 8;
  static constexpr int kRowsAhead = 4;
  // 1-byte integers summed in 8 bytes hold their slice on sm_90, where it
  // was timed (3% over 4 rows); on archs not timed they read 8 rows ahead:
  // sm_120's ptxas spilled their slices 36-48 bytes at 168 registers
  // (sm_90 holds [4096,4096] dim=0's in 118; compile sweep).
  static constexpr int kRowsAheadUntimedByteSums = 8;
  // 2-byte integers summed in 8 bytes off the 16-byte grid (edges plans)
  // read 8 rows ahead instead of their slice: its 24 rows spilled 56-64
  // stores at 168 registers in panels of 64 on several lines, and took 134
  // registers (one block an SM) in fitted panels (H200, x copy, slice -> 8
  // rows: sum i16[1000003,150] dim=0 1.95 -> 1.53, prod i16[2,2437,1869]
  // dim=1 exclusive 1.81 -> 1.58, i16[16,20000,333] dim=1 reverse 1.65 ->
  // 1.52, prod i16[4,200003,150] dim=1 mask 1.82 -> 1.70; 7 of 14 timed
  // gained, 5 held, prod i16[113436,110] @2 2.24 -> 2.48 and [30000,2001]
  // 1.49 -> 1.58 lost). 1-byte ones keep their slices: u8 (which did not
  // spill) lost up to 13% so (prod u8[7672,1815] mask @1 1.67 -> 1.89), and
  // i8 went either way (i8[3358,2649] @2 1.78 -> 1.53, i8[22740,508] @1
  // 1.38 -> 1.49; BENCHMARKS.md).
  static constexpr int kRowsAheadTwoByteIntoWideEdges = 8;
  static constexpr int kLogSumExpRowsAhead = 2;
  static constexpr int kMaskedStages = 2;
  static constexpr bool kPipelineEvictFirst = false;
  // Plans with pieces fill their stages by each thread's 16-byte copies
  // (cp.async, `word_copies=1`), not a bulk copy a row: bulk copies of
  // per-thread addresses issue one lane at a time, and that loop held a
  // quarter of the warps' stall samples of f32[4096,4096] dim=0 (ncu, H200).
  // H200, x copy, bulk -> words (one sweep): f32[4096,4096] dim=0 1.24 ->
  // 1.18, max f16[4096,4096] 1.69 -> 1.49, bf16[21648,3697] mask reverse
  // 1.98 -> 1.76, logsumexp f32[4096,4097] mask 2.88 -> 2.64, prod
  // f64[300000,300] mask 1.46 -> 1.35, f64[4096,4096] reverse exclusive 1.20
  // -> 1.14; none of 22 with pieces lost beyond the spread. Without pieces
  // (a block a panel, many panels) bulk copies stay: the dim=0 seed went
  // 1.09 -> 1.12 (BENCHMARKS.md, forty-seventh pass).
  static constexpr bool kPipelineWordCopies = true;
  // Archs with cp.async but no bulk copies (sm_80/86/89) take the column
  // pipeline by word copies where few columns leave their register plans a
  // few blocks. Timed as sm_80 on an H200 (SCANJIT_RUN_ARCH=sm_80, the PTX
  // compiled by the driver for sm_90: a proxy for an A100), x copy,
  // registers -> words: f32[1048576,100] dim=0 255 -> 1.82 (one block of
  // 256 threads before), [65536,336] 73 -> 1.63, [4096,4096] 6.35 -> 1.23,
  // f16[36521,917] mask reverse 41.6 -> 3.85, f64[300000,300] mask 86 ->
  // 1.39, the dim=0 seed 1.63 -> 1.12; no spec lost (BENCHMARKS.md,
  // forty-eighth pass). word_copies=0 keeps the register plan.
  static constexpr bool kWordPipelineWithoutBulkCopies = true;
  // sm_75 (no cp.async), or where the word pipeline is not taken: a
  // register plan of fewer than kRegisterPiecesBelowBlocks blocks takes
  // pieces, up to kRegisterPiecesBlocks blocks (an A100's 108 SMs hold 864
  // of 256 threads; a T4's 40, 160), each at least kRegisterPieceMinRows
  // rows (a piece after the first reads its rows twice). Timed as sm_75 on
  // an H200 (a proxy), x copy, registers -> 32 / 256 / 1024 pieces:
  // f32[1048576,100] dim=0 (1 block) 255 -> 101 / 18 / 8.9, [65536,336] (2)
  // 74 -> 28 / 6.2 / 5.4, [4096,4096] (16) 6.2 -> 3.5 / 2.4 / 6.0,
  // [2048,1024] 11 -> 3.5 / 3.6 / 8.3; but the dim=0 seed's 128 blocks
  // lose, 1.62 -> 2.6-2.75, as the second read costs more than the blocks
  // gain. A tuned pieces=N takes pieces whatever the blocks.
  static constexpr bool kRegisterPiecesWithoutStages = true;
  static constexpr long long kRegisterPiecesBelowBlocks = 64;
  static constexpr long long kRegisterPiecesBlocks = 1024;
  static constexpr long long kRegisterPieceMinRows = 64;
  static constexpr int kStageBytes = 32 * 1024;
  static constexpr int kMaxRowsPerStage = 64;
  // Fewer panels than this (2 blocks per SM on an H200) leave the SMs with
  // one block or two, each waiting on its own next stage (64 to 256 panels of
  // 4096 rows all took about 0.16 ms): each panel's scan is then cut into
  // pieces as long as the stages, a block each, up to 4 per SM. H200,
  // f32[N,4096,256] dim=1: 64 panels 4.18 -> 1.34 of copy, 192 1.61 -> 1.22,
  // 256 1.25 -> 1.22; but 384 1.14 -> 1.21 and the dim=0 seed's 512 1.10 ->
  // 1.16 (BENCHMARKS.md).
  static constexpr long long kPieceMinPanels = 264;
  // ... but at most this many pieces a panel: a piece's prefix waits on the
  // inclusive prefix 8 pieces back (kColumnPieceWindow), so the chain has
  // pieces / 8 links, each a round trip through L2. Tall narrow panels had
  // tens of thousands (H100, x copy, pieces as long as the stages -> 2112:
  // f32[4194304,20] dim=0 12.17 -> 3.41, max bf16[2000000,50] 7.74 -> 3.03,
  // f32[2851285,46] mask three elements in 6.91 -> 3.16, unmasked 4.07 ->
  // 1.80, f32[1048576,64] 3.41 -> 1.74, f64[1000000,40] mask 2.97 -> 2.46;
  // 1056 pieces within 5% of 2112; BENCHMARKS.md). Longer pieces than the
  // stages stream their rows twice (column_pipeline.cuh).
  static constexpr long long kMaxPieces = 2048;
  // ... or, on problems whose time at full bandwidth covers a longer chain,
  // a piece a kPieceChainBytes of the problem's bytes (input, output and
  // mask), so that the pieces of tall panels stay as long as the stages and
  // are read once (H100, x copy, 2048 pieces -> as long as the stages:
  // sum i16[442400,4097] dim=0 1.71 -> 1.36, f32[442400,1000] 1.57 -> 1.21,
  // max f32[442400,1000] mask 1.75 -> 1.27, f32[600000,256] 1.54 -> 1.30).
  // Below it the chain binds: f32[1048576,100] (0.84 GB) 2048 pieces 2.06,
  // 4096 2.07, 7282 2.57 (BENCHMARKS.md).
  static constexpr long long kPieceChainBytes = 256 * 1024;
  // On at most this many panels, pieces as long as the stages past
  // kMaxPieces look back over span totals instead (`piece_spans=1`,
  // column_pieces.cuh): a link of the chain per 65 pieces, not 8, for 7
  // more loads a piece. Their blocks in flight, a hundred or more a panel,
  // outrun a chain of 8 (H200, x copy, the policy's pieces -> as long as
  // the stages with span totals: f32[1048576,100] dim=0 2.24 -> 1.86,
  // f64[1000000,52] 1.65 -> 1.43, i32[1000000,80] 1.93 -> 1.69,
  // max f16[1000000,120] 3.09 -> 2.28, sum i8[4000000,150] 2.46 -> 1.83,
  // f32[600000,256] 1.57 -> 1.37; of 21 such plans 18 gained, f16[1000000,
  // 160] held, f16[4194304,128] 3.44 -> 3.48 and prod f64[525989,171] mask
  // three elements in 1.64 -> 1.68 lost). On more panels the chains are
  // short enough (a first version: f64[501898,258] @3, 5 panels, 1.27 ->
  // 1.34; f32[442400,1000], 16 panels, 1.21 -> 1.27; BENCHMARKS.md).
  static constexpr long long kPieceSpansMaxPanels = 4;
  // ... and so do fewer pieces on as many panels where every SM holds a
  // block of each panel (blocks an SM >= panels): a chain of 8 keeps a
  // panel's resident blocks, an SM's worth or more, waiting. A single panel
  // always qualifies (H200, x copy, tuned, best of two rounds, 8 -> span
  // totals: sum f16[206323,144] dim=0 3.04 -> 1.72, bf16[100000,160] 2.69
  // -> 1.79, f32[20000,100] (139 pieces) 2.10 -> 1.61; 14 of 14 gained
  // 6-43%). On 2-4 panels, 36 drawn plans that qualify all gained or held
  // (min bf16[37605,225] dim=0, 2 panels, 3.95 -> 2.39; max u8[67195,225],
  // 4, 4.56 -> 2.77; sum u8[213924,132], 3, 2.28 -> 1.55; prod bf16[66552,
  // 499] mask, 2, 2.20 -> 2.19), and one earlier lost 3% (prod f32[2,100000,
  // 150] dim=1, 2 panels, 1.49 -> 1.54); those where an SM holds fewer
  // blocks than panels mostly lost (sum f32[20594,218] exclusive, 4 panels
  // of 3 blocks an SM, 1.91 -> 2.28; sum f16[36658,670] mask reverse, 3 of
  // 2, 1.97 -> 2.34), and so did 5-7 panels (sum i32[150000,260], 5 of 5,
  // 1.28 -> 1.35; BENCHMARKS.md).
  static constexpr bool kPieceSpansWhereSmsHoldEveryPanel = true;
  // ... up to this many pieces a panel (longer ones stream their rows
  // twice): H200, f32[4194304,100] dim=0 as 14564 pieces streamed twice
  // 2.20 of copy, 29128 as long as the stages 1.90; a chain of 500 links.
  static constexpr long long kMaxSpanPieces = 32768;
  // Panels of at most kFewColumns columns on fewer than kPieceMinPanels
  // panels: a column a thread, 128 threads in 4 groups, a panel of 32. The
  // policy's panels of 64 or more columns left most threads holding nothing
  // (H100, x copy, policy -> this: f32[4194304,20] dim=0 3.45 -> 2.26,
  // f32[2000000,24] mask 6.12 -> 2.54, bf16[4000000,24] 10.85 -> 3.42, prod
  // f64[2000000,17] mask 6.34 -> 2.68, i32[3000000,28] 2.17 -> 1.63, max
  // f16[4000000,20] exclusive 6.58 -> 4.58; log-sum-exp lost, 8.57 -> 9.52,
  // and keeps its own; f64 panels of up to 16 columns, not timed, take it
  // too; BENCHMARKS.md).
  // Pieces of a single line over 33 to kFittedPanelMaxColumns columns of
  // 2- and 4-byte elements: one panel as wide as the columns (rounded up to
  // a warp), a column a thread, the policy's threads a column (halved while
  // two blocks would not fit an SM at kFittedPanelRegisters a thread). The
  // panels of 64 (two columns a thread) left up to 44% of their columns
  // idle, and f16/bf16 sums' panels of 256 up to 53% (H200, x copy, policy
  // -> this: sum f16[4194304,128] dim=0 3.46 -> 1.74, f16[1000000,160]
  // 2.93 -> 1.87, bf16[502457,159] 3.17 -> 2.25, f16[148156,158] @2 5.27
  // -> 2.85, min i16[284906,147] @1 3.58 -> 2.61, max bf16[3000000,150]
  // 3.05 -> 2.20, f32[639371,123] 1.68 -> 1.48, i32[1000000,80] 1.69 ->
  // 1.46, min f32[398543,114] @1 1.77 -> 1.54; every shape it changes in a
  // random draw gained). Wider panels lost more often than they gained
  // (blocks of 384 to 512 threads: min f32[263570,190] mask 1.89 -> 2.94,
  // sum bf16[532446,238] mask reverse 2.62 -> 3.65; max f16[254714,222]
  // 2.70 -> 2.26), and so did 1-byte elements (i8[4000000,150] 1.81 ->
  // 2.12) and 8-byte ones (f64[1000000,100] 1.41 -> 1.62, i64[500000,150]
  // 1.44 -> 1.57).
  // Several lines take it only where it leaves fewer columns idle than the
  // policy's panels, with accumulators of up to 4 bytes, and two blocks an
  // SM asked of ptxas: all 34 drawn at random gained (H200, x copy: max
  // bf16[32,30000,136] dim=1 2.94 -> 2.02, sum f16[8,200000,150] 2.42 ->
  // 1.92, min f32[19,10628,153] reverse @3 1.78 -> 1.39, sum f32[3,78017,
  // 151] @1 1.70 -> 1.40). As many idle columns lost (f32[16,65536,100]
  // 1.52 -> 1.55, f32[32,100000,100] 1.47 -> 1.52), as did i32 sums into
  // i64 ([20,9191,70] reverse 1.60 -> 1.81; capped to two blocks, they
  // spill); blocks
  // of 320 without the two blocks took 102-134 registers, ran one an SM and
  // lost (min i32[16,2645,141] mask reverse 2.01 -> 2.39), where a single
  // line lost with them (sum f16[1000000,160] 1.88 -> 2.26; BENCHMARKS.md).
  static constexpr long long kFittedPanelMaxColumns = 160;
  // ... and several lines of f16 or bf16 sums and products take it where it
  // leaves as many columns idle as the policy's panels of 64 (which replaced
  // their wide panels on the grid, kWidePanelsWithPiecesOnlyOffTheGrid):
  // H200, x copy, panels of 64 -> fitted, two rounds: prod bf16[43,5582,120]
  // dim=1 exclusive 1.61 -> 1.49, prod bf16[27,6349,104] 1.75 -> 1.65;
  // sum f16[16,65536,128] 1.44 -> 1.47 (no column idle either way).
  static constexpr bool kFittedPanelTwoByteSumsTakeTies = true;
  // Blocks of 512 (4 threads a column of 128) that took over 64 registers a
  // thread ran one an SM and lost (H200, x copy: min bf16[500000,110] dim=0
  // exclusive 2.62 -> 3.77 at 72 registers, min f32[398543,114] @1 1.77 ->
  // 2.19 at 70; sum f32[639371,123] at 63 gained, 1.68 -> 1.48); 384 at 68
  // gained (max f32[1000000,96] 1.84 -> 1.51).
  static constexpr int kFittedPanelRegisters = 80;
  // Fitted panels of f16/bf16 sums and products take stages of 64 rows, not the
  // pieces' 48, but on one line masked on the 16-byte grid: a row carries half a
  // 4-byte row's bytes, so each piece's chain step and block barriers came for
  // half the bytes. At two blocks an SM (kFittedPanelBlocksPerSm) 64 rows won
  // in both directions, on the grid and off it (H200, x copy, 48 -> 64 rows,
  // best of two rounds): f16[206323,144] dim=0 1.89 -> 1.69, prod
  // f16[49930,136] 2.36 -> 1.85, several lines bf16[12,30000,110] dim=1
  // reverse 2.08 -> 1.66; off the grid f16[206323,146] 1.88 -> 1.80, mask 2.26
  // -> 2.07, mask reverse 3.29 -> 2.15, bf16[3000000,150] 3.57 -> 1.94,
  // f16[4000001,106] 3.00 -> 2.32. One line masked on the grid lost
  // (f16[250000,96] mask 1.65 -> 1.76, f16[206323,144] mask reverse 1.80 ->
  // 1.99), as did f32 (f32[206323,146] 1.39 -> 1.73): they keep 48
  // (BENCHMARKS.md, seventy-fifth and seventy-sixth passes).
  static constexpr int kFittedPanelTwoByteRows = 64;
  // A fitted panel of one line holds two blocks an SM, asked of ptxas only
  // where its own registers hold one (KernelPlan::wantedBlocksPerSm): its
  // choice varies with the shape's constants (sum f32[206323,146] dim=0 96
  // registers, [1000003,146] 118, i32[300001,133] 134) and one block an SM
  // lost (H200, x copy, unasked -> asked: f32[1000003,146] 1.94 -> 1.56, max
  // i16[284906,147] 2.22 -> 1.78, min i16[284906,147] reverse 2.32 -> 1.69,
  // bf16[3000000,150] at 64 rows 2.65 -> 1.94). Asked where ptxas fits two
  // unasked, its code lost (f32[206323,146] 96 -> 87 registers, 1.39 -> 1.49).
  static constexpr int kFittedPanelBlocksPerSm = 2;
  static constexpr long long kFewColumns = 32;
  static constexpr int kFewColumnsThreads = 128;
  static constexpr int kFewColumnsGroups = 4;
  // Pieces of sums and products take stages of at most 48 rows, up to 5
  // blocks an SM: shorter blocks, more of them (H200, same run: 3-D 1.17 ->
  // 1.12 of copy, f32[48,4096,256] 1.17 -> 1.12, f16 3-D 2.35 -> 1.98, i32
  // masked 1.58 -> 1.40; f32[16,65536,128] 1.11 -> 1.14, f64 1.44 -> 1.46).
  // Max and min were slower so (a 3-D max exclusive 1.66 -> 1.77): they keep
  // 64 rows and 4 blocks (BENCHMARKS.md).
  static constexpr int kPieceMaxRowsPerStage = 48;
  static constexpr int kPieceMaxBlocksPerSm = 5;
  // Pieces of sums and products share each column among 2 threads, not 4:
  // fewer exchanges for blocks that live a few stages (H200: 3-D 1.21 ->
  // 1.17 of copy, f32[16,65536,128] 1.16 -> 1.15, f32[2048,8192] dim=0 1.28
  // -> 1.27; 1 thread was 1.71-1.92). Max, min and log-sum-exp keep 4: a
  // 3-D max exclusive went 1.93 -> 2.46 with 2.
  static constexpr int kPieceGroups = 2;
  // ... but unmasked edges plans (rows off the 16-byte grid) of 4- and
  // 8-byte elements keep 4 threads a column and 64-row stages: they read
  // their stages an element at a time, and more threads hide it (H100, ms,
  // 2 groups of 48 rows -> 4 of 64: f32[327129,245] dim=0 reverse 0.352 ->
  // 0.296, f64[16384,1001] 0.133 -> 0.121, i32 -> i64 [8192,4097] 0.183 ->
  // 0.178, f32[65536,333] 0.095 -> 0.093; prod f32[16384,1001] 0.072 ->
  // 0.074). Aligned ones lost so (f32[64,4096,256] dim=1 0.199 -> 0.206,
  // f64[4096,4096] reverse exclusive 0.110 -> 0.115; BENCHMARKS.md).
  static constexpr int kPieceGroupsMaxUnmaskedEdgesInBytes = 2;
  static constexpr int kPieceMinRegisters = 128; // a thread's share: no pieces for blocks over 512 threads
  // Tall panels whose rows are contiguous (dim=0 of [R, C], C from
  // kTilesMinColumns to kTilesMaxColumns, on fewer than kPieceMinPanels
  // lines): tiles of whole rows, one bulk copy each, chained by look-back
  // (column_tiles.cuh). A tile holds about kTileBytes of input, in blocks of
  // kTilesThreads (one an SM), kTilesStages stages. H100, x copy, the column
  // pipeline -> these tiles: f32[4194304,20] dim=0 2.27 -> 1.11,
  // f32[2000000,24] mask 2.52 -> 1.10, bf16[4000000,24] 3.39 -> 1.33,
  // f32[2851285,46] 1.80 -> 1.18, f32[1048576,64] 1.73 -> 1.28,
  // f32[1000000,80] 1.88 -> 1.42; but f32[1048576,100] 2.07 -> 2.21 and
  // f32[262144,128] 1.81 -> 1.93. Tiles of 24 KB in blocks of 256 (three an
  // SM) were 1.5-3x slower: a window must reach past the tiles in flight,
  // or each round of tiles waits on a chain within itself (BENCHMARKS.md).
  static constexpr long long kTilesMinColumns = 17;
  static constexpr long long kTilesMaxColumns = 80;
  // ... or up to kTilesSmallCopiesMaxColumns where the pipeline's copies
  // would hold at most kTilesWideSmallCopyMaxBytes on average (see
  // kTilesSmallCopyMaxBytes). H100, x copy, pieces -> tiles:
  // f16[1048576,100] dim=0 reverse 3.25 -> 2.05, f16[2000000,96] mask 4.68
  // -> 2.08, f16[1000003,81] one element in 4.66 -> 1.82, max
  // bf16[1000000,100] mask 3.26 -> 2.07, i8[1000000,100] 1.57 -> 1.13,
  // bool[1000000,127] 2.02 -> 1.49 (spilling 64 bytes). Larger copies lost
  // (max f16[1000000,120] 2.27 -> 2.67, i16 -> i64 [1000000,128] 1.40 ->
  // 1.70, log-sum-exp f16 [1000000,120] 4.11 -> 5.35, prod i32 -> i64
  // [1000000,100] 1.70 -> 2.31), though not all (bf16[1000000,128] 2.75 ->
  // 2.38, min bf16[500000,110] exclusive 2.87 -> 2.42), and so did wider
  // panels (u8[1000000,200] 1.50 -> 2.68; BENCHMARKS.md).
  static constexpr long long kTilesSmallCopiesMaxColumns = 128;
  // ... but on the 16-byte grid, past kTilesOnGridMaxColumns, where a
  // single line's panel can be fitted to its columns
  // (kFittedPanelMaxColumns), the pipeline's fitted panel beats the tiles
  // (H200, x copy, tiles -> fitted panel: f32[1048576,64] dim=0 1.66 ->
  // 1.35, f32[1000000,80] 1.90 -> 1.65, bf16[1000000,96] 2.63 -> 1.95,
  // f16[2000000,96] mask 2.71 -> 1.99, f16[4000000,128] mask 3.14 ->
  // 1.91). Off the grid the tiles still win more than they lose
  // (f16[1048576,100] reverse 2.73 against 3.09, f16[1000003,81] @1 2.39
  // against 2.66, max bf16[1000000,100] mask 2.80 against 3.16, prod
  // i16[442400,52] mask 1.46 against 2.01; i16[1000000,100] 1.89 against
  // 1.73; BENCHMARKS.md).
  static constexpr long long kTilesOnGridMaxColumns = 63;
  // ... and max and min of 1-byte elements that take two threads a column
  // (kTwoThreadColumnsByte*) keep the tiles only up to 96 columns, three
  // quarters of those panels of 128, on 2^26 elements or more (the sizes
  // timed): H200, x copy, tiles -> the pipeline, two rounds: min
  // u8[16,65536,128] dim=1 3.29 -> 1.66, max i8[8,200000,112] dim=1 3.68 ->
  // 2.62, max i8[2000000,120] exclusive 3.47 -> 2.68, max u8[2000000,100]
  // 3.12 -> 3.00; but max i8[3000000,96] mask 3.15 -> 3.23, max
  // u8[1000000,84] 2.90 -> 3.06, max u8[1000000,64] reverse 2.56 -> 3.59,
  // min i8[2000000,40] 2.48 -> 5.15 (BENCHMARKS.md).
  static constexpr long long kTilesByteMaxMinMaxColumns = 96;
  static constexpr int64_t kTilesByteMaxMinPanelMinElements = int64_t(1) << 26;
  static constexpr long long kTilesWideSmallCopyMaxBytes = 200;
  static constexpr int kTileBytes = 48 * 1024;
  // ... but kTilesWideTileBytes where a warp reads the look-back windows of
  // at least kTilesWideMinWarpColumns columns (more than 32 columns at 512
  // threads) and three such stages fit (most masks' do not): a tile's fixed
  // cost (its windows, its barriers) grows with its columns. H200, x
  // copy, 48 -> 64 KB, tuned, the better of two rounds: f32[266305,63]
  // dim=0 1.68 -> 1.52, f32[335544,50] 1.63 -> 1.44, f32[294337,57]
  // reverse 1.74 -> 1.57, max i32[300000,56] 1.63 -> 1.44, f16[266305,63]
  // 1.98 -> 1.84, f32[419430,40] 1.40 -> 1.33; prod bf16[300000,60] 1.91
  // -> 1.89; masked f32[266305,63] at 56 KB 1.63 -> 1.65. Narrower tiles
  // gained nothing so (f32[699050,24] at 51 KB, f32[986895,17] at 67 KB;
  // BENCHMARKS.md, seventy-eighth pass, with the A/B: 21 of 27 gained).
  // Untimed archs: sm_100's 227 KB a block hold three such stages as
  // sm_90's do, so it takes them too; sm_120's 99 KB hold none, and its
  // tiles keep 48 KB, shrunk to fit.
  static constexpr int kTilesWideTileBytes = 64 * 1024;
  static constexpr int kTilesWideMinWarpColumns = 3;
  // ... and only where the scan makes at least this many of them an SM:
  // with fewer, the last round of larger tiles leaves SMs idle longer, and
  // the small scans timed gained nothing (H200, 48 -> 64 KB, kernel ms at
  // tiles an SM: f32[5,21460,41] dim=1 reverse, 2.0, 0.026 -> 0.027-0.028;
  // f32[110826,41] dim=0, 2.1, 0.025 -> 0.024-0.026; f16[126484,35] min,
  // 1.0, 0.024 -> 0.023-0.025; but min f32[92419,77], 3.3, 0.051 -> 0.045).
  static constexpr int64_t kTilesWideMinTilesPerSm = 3;
  static constexpr int kTilesThreads = 512;
  static constexpr int kTilesStages = 3; // at least: one scanned, one totaled, one loading
  static constexpr int kTilesLookback = 4;
  // ... fewer where a lane's flags (a look-back window per column of its
  // warp) would take more registers than this: f64 sums of 100 columns
  // spilled 706 stores at 4.
  static constexpr int kTilesWindowRegisters = 48;
  static constexpr int kTilesMinLookback = 4; // a window of 128 tiles, or the pipeline's pieces
  // ... but only where the pipeline's bulk copies (a row of the panel's
  // input, and one of its mask) would hold more than kTilesSmallCopyMaxBytes
  // on average: many small copies bound it harder, and tiles with a shorter
  // window win (H100, x copy, pieces -> tiles: prod i16[442400,52] dim=0
  // mask 2.92 -> 1.20, i8[1000000,49] 2.22 -> 1.25, i32 -> i64
  // [1000000,52] 1.72 -> 1.18, [1000003,80] mask 2.08 -> 1.60, min
  // i64[1000000,40] mask 2.48 -> 1.53, f64[1000000,52] mask 1.97 -> 1.70,
  // log-sum-exp f32 [1000000,52] 4.00 -> 3.62, f64 [1000003,33] mask 8.76
  // -> 7.81; larger copies keep the pieces: f64[1000000,52] 1.58 against
  // 1.75, [1000003,80] mask 1.88 against 2.05, max i64[1000003,64] mask
  // 1.68 against 1.77, log-sum-exp f64 [1000000,40] 5.98 against 7.35;
  // BENCHMARKS.md).
  static constexpr long long kTilesSmallCopyMaxBytes = 256;
  // Windows shorter than 128 tiles of 1-byte elements summed or multiplied
  // in 8 bytes: at most 64 tiles. At 96 they spilled 4-8 bytes (sum
  // bool[37,64] dim=0 mask, i8[1000003,49]); 64 timed the same (H100, x
  // copy, 96 / 64: i8[1000003,49] 1.25 / 1.26, prod u8[1000003,63] reverse
  // 1.22 / 1.21; BENCHMARKS.md).
  static constexpr int kTilesByteIntoWideLookback = 2;
  // Registers a thread needs (a window's flags for each of a warp's
  // columns); 8-byte accumulators and log-sum-exp's combine need more.
  static constexpr int kTilesMinRegisters = 80;
  static constexpr int kTilesMinRegistersWide = 128;
};

struct StridedPolicy {
  static constexpr int kThreads = 256;        // 8 warps, one line each
  static constexpr int kItems = 4;
};

// Largest grid the planner asks for; kernels loop over the remaining work.
inline constexpr int64_t kMaxGrid = 2147483647;
inline constexpr int64_t kSharedBytesPerBlockReserved = 1024;  // the driver's share of each block's shared memory
inline constexpr int64_t kRegistersPerSm = 65536;
inline constexpr int64_t kRegistersPerWarpUnit = 256; // a warp's registers are allocated in units of this many

// A kernel compiled again to ask for its plan's wanted blocks an SM
// (KernelPlan::wantedBlocksPerSm) is kept if it spills at most this many
// bytes (and its stack frame is no larger): the asked kernels of i32 fitted
// panels spilled 4-48 bytes and gained over one block an SM, none lost (H200,
// x copy, first -> asked, best of two rounds, bytes spilled: sum
// i32[300001,133] dim=0 mask 2.21 -> 1.73 (4), prod i32[200292,158] mask
// reverse exclusive 2.02 -> 1.63 (12), prod i32[200292,158] mask exclusive
// 1.74 -> 1.55 (32), prod i32[560224,93] exclusive 1.67 -> 1.58 (48), sum
// i32[1000003,146] 1.78 -> 1.70 (44); BENCHMARKS.md, seventy-seventh pass).
// Larger spills are untimed, so they keep the first kernel.
inline constexpr int kWantedBlocksMaxSpillBytes = 48;

/// Blocks of `threads` an SM's registers hold at `registers` a thread.
inline constexpr int blocksByRegisters(int registers, int threads) {
  const int64_t perWarp = (int64_t(registers) * 32 + kRegistersPerWarpUnit - 1) / kRegistersPerWarpUnit *
                          kRegistersPerWarpUnit;
  return perWarp == 0 ? 0 : int(kRegistersPerSm / perWarp / ((threads + 31) / 32));
}
static_assert(blocksByRegisters(96, 320) == 2 && blocksByRegisters(100, 320) == 1, "a warp's register units");

} // namespace scanjit::policy
