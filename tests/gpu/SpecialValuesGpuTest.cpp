// NaN and +-Inf through max, min and logsumexp (and sums, where they spread);
// logsumexp over values far apart.
#include "GpuHarness.h"

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

TEST(SpecialValues, NanAndInfinitiesPropagateLikeTorch) {
  SCANJIT_REQUIRE_GPU();
  CaseOptions specials;
  specials.specialFraction = 0.02;
  std::vector<std::string> specs;
  for (const char *op : {"max", "min", "logsumexp", "sum"})
    for (const char *t : {"f16", "bf16", "f32", "f64"})
      for (const char *shape : {"[64,3000] dim=1", "[100,37] dim=1", "[500,5] dim=1", "[37,64] dim=0",
                                "[40,50] dim=1 strides=[1,40]"})
        for (const char *flags : {"", " reverse", " exclusive mask"})
          specs.push_back(std::string(op) + " " + t + shape + flags);
  precompile(specs); // (240 small kernels: compiled in parallel first)
  for (const std::string &s : specs)
    expectCasePasses(s, specials);
}

// A look-back folds the tile totals of each tile's window (window_fold.cuh;
// log-sum-exp in linear space from the window's largest): a few NaN and
// +-Inf among a million items land in some windows and not others, so
// windows of every kind (only finite, a -inf, a +inf, a NaN) are folded.
TEST(SpecialValues, LookBackWindowsFoldSpecialValues) {
  SCANJIT_REQUIRE_GPU();
  for (double fraction : {1.0 / 65536, 4.0 / 65536}) {
    CaseOptions sparse;
    sparse.specialFraction = fraction;
    for (const char *t : {"bf16", "f32", "f64"})
      for (const char *shape : {"[1000003] dim=0", "[2,600001] dim=1 reverse exclusive", "[3,400000] dim=1 mask"})
        expectCasePasses(std::string("logsumexp ") + t + shape, sparse);
    expectCasePasses("max f64[1000003] dim=0 reverse", sparse);
    expectCasePasses("sum f32[2,600001] dim=1 exclusive", sparse);
  }
}

// Log-sum-exp sums exp(x - ref) within a thread while its items lie close
// to their largest (log_sum_exp_tile.cuh), else combines in log space: items
// 64 (f32) or 512 (f64) below it would underflow. Spreads on both sides of
// both limits, over the row, look-back, segmented and column families
// (segmented rows longer and shorter than a thread's items).
TEST(SpecialValues, LogSumExpOfValuesFarApart) {
  SCANJIT_REQUIRE_GPU();
  std::vector<std::string> specs;
  for (const char *t : {"bf16", "f32", "f64"})
    for (const char *shape : {"[64,3000] dim=1", "[3,40000] dim=1", "[8000,48] dim=1", "[3000,5] dim=1",
                              "[37,64] dim=0"})
      for (const char *flags : {"", " reverse exclusive", " mask"})
        specs.push_back(std::string("logsumexp ") + t + shape + flags);
  precompile(specs);
  for (double spread : {32.0, 64.0, 256.0, 1024.0}) {
    CaseOptions wide;
    wide.logSumExpSpread = spread;
    for (const std::string &s : specs)
      expectCasePasses(s, wide);
  }
}

// A log-sum-exp thread whose items are all -inf adds nothing: its results
// are its prefix, with no exp or log (log_sum_exp_tile.cuh). Runs of -inf
// cover whole threads, leading ones (a prefix of -inf too) and trailing
// ones, in every family, with padded warp rows (whose lanes past a row's end
// hold only -inf) among them.
TEST(SpecialValues, LogSumExpOfNegativeInfinityRuns) {
  SCANJIT_REQUIRE_GPU();
  std::vector<std::string> specs;
  for (const char *t : {"bf16", "f32", "f64"})
    for (const char *shape : {"[64,3000] dim=1", "[3000,300] dim=1", "[8000,48] dim=1", "[300001] dim=0",
                              "[3,40000] dim=1", "[37,64] dim=0", "[2001,333] dim=0"})
      for (const char *flags : {"", " reverse exclusive", " mask"})
        specs.push_back(std::string("logsumexp ") + t + shape + flags);
  precompile(specs);
  for (int64_t run : {40, 1000}) {
    CaseOptions runs;
    runs.negativeInfinityRuns = run;
    for (const std::string &s : specs)
      expectCasePasses(s, runs);
  }
}

// Log-sum-exp's packed lanes (a lane a thread, lane_threads.cuh) take the
// same linear and log-space paths lane by lane, and fold their windows lane
// by lane: NaN and infinities, spreads about both limits and runs of -inf
// over narrow columns of each float dtype.
TEST(SpecialValues, LogSumExpLanesOfSpecialValues) {
  SCANJIT_REQUIRE_GPU();
  const std::vector<std::string> specs = {
      "logsumexp f32[300001,4] dim=0",         "logsumexp bf16[200003,8] dim=0 reverse exclusive",
      "logsumexp f64[100001,2] dim=0 mask",    "logsumexp f32[60001,16] dim=0 mask reverse",
      "logsumexp f16[2,100003,4] dim=1 exclusive",
  };
  precompile(specs);
  std::vector<CaseOptions> inputs;
  for (double fraction : {0.02, 1.0 / 65536}) {
    inputs.emplace_back();
    inputs.back().specialFraction = fraction;
  }
  for (double spread : {32.0, 64.0, 256.0, 1024.0}) {
    inputs.emplace_back();
    inputs.back().logSumExpSpread = spread;
  }
  for (int64_t run : {40, 1000}) {
    inputs.emplace_back();
    inputs.back().negativeInfinityRuns = run;
  }
  for (const CaseOptions &o : inputs)
    for (const std::string &s : specs)
      expectCasePasses(s, o);
}

// A thread's linear sums are relative to its largest item, rounded to
// float on the way into the exps: results of items before it, much smaller
// than it, carried that rounding (up to an ulp of the largest) until the
// result scale took it back (linear_sum_scale in lse_math.cuh). The seed is
// the one that found it: item 0 of line 50 came out 0.028021 for 0.028015.
TEST(SpecialValues, LogSumExpOfSmallItemsBeforeTheirThreadsLargest) {
  SCANJIT_REQUIRE_GPU();
  CaseOptions found;
  found.logSumExpSpread = 64;
  found.seed = 18263502506266667924ull;
  expectCasePasses("logsumexp f32[64,3000] dim=1 mask", found);
}

// A result near 0 from a thread whose largest item is far above it: the
// float log added the thread's largest item (about 30) to log2(m) ln2
// before e ln2 took it back down, and half an ulp of 30 stayed in the
// result (plus_log_positive in lse_math.cuh). The seed is the one that
// found it, in tiling warp rows of 4 lanes: item 0 of line 4691 came out
// 4.29e-6 for 0.
TEST(SpecialValues, LogSumExpNearZeroBelowTheThreadsLargest) {
  SCANJIT_REQUIRE_GPU();
  for (double spread : {32.0, 64.0, 256.0, 1024.0}) {
    CaseOptions found;
    found.logSumExpSpread = spread;
    found.seed = 12286532063712938974ull;
    expectCasePasses("logsumexp bf16[8000,48] dim=1 mask", found);
  }
}

} // namespace
