// Shape classes: which counts share a kernel, the class's text and its cache
// key. The kernel's code must not depend on a batch taken at launch (the GPU
// tests run one kernel at many batches); here, what the planner and the key
// decide.
#include "TestSpecs.h"

#include "cache/CacheKey.h"
#include "compiler/Emitter.h"
#include "compiler/Planner.h"
#include "compiler/ShapeClass.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace scanjit;
using scanjit::testing::mustParse;

namespace {

KernelPlan plan(llvm::StringRef text, const PlanTuning &tuning = {}) { return planKernel(mustParse(text), tuning); }

std::string keyDigest(llvm::StringRef text, const PlanTuning &tuning = {}) {
  ScanSpec spec = mustParse(text);
  KernelPlan p = planKernel(spec, tuning);
  return makeCacheKey(currentKeyFields(GeneratedKernel{spec, p, ""}, Target{90})).digest;
}

// Distinct kernels (cache keys) over the specs `format` gives for counts 1..n.
size_t kernelsOver(const char *format, int n) {
  llvm::StringSet<> keys;
  for (int r = 1; r <= n; ++r)
    keys.insert(keyDigest(llvm::formatv(format, r).str()));
  return keys.size();
}

TEST(ShapeClass, RowCountsShareOneKernel) {
  const std::string k8 = keyDigest("sum f32[8,4096] dim=1");
  for (int r : {2, 3, 7, 100, 999, 100000})
    EXPECT_EQ(keyDigest(llvm::formatv("sum f32[{0},4096] dim=1", r).str()), k8) << r << " rows";
  EXPECT_NE(keyDigest("sum f32[1,4096] dim=1"), k8) << "a single row has no batch dim";
  EXPECT_NE(keyDigest("sum f32[8,4097] dim=1"), k8) << "the row length shapes the code";
  EXPECT_NE(keyDigest("sum f32[8,4096] dim=1 reverse"), k8);
  EXPECT_NE(keyDigest("sum f32[8,4096] dim=1 strides=[8192,1]"), k8) << "strides shape the code";
  // Dims merged into the batch are one batch, however they were written.
  EXPECT_EQ(keyDigest("sum f32[2,4,4096] dim=2"), k8);
}

TEST(ShapeClass, TheBatchIsMarkedInThePlanAndLeftOutOfItsClass) {
  KernelPlan p = plan("sum f32[37,4096] dim=1");
  EXPECT_TRUE(p.runtimeBatch);
  EXPECT_EQ(p.launchBatch(), 37);
  EXPECT_EQ(p.grid, 37);
  EXPECT_NE(p.toString().find("batch=launch"), std::string::npos);
  EXPECT_NE(p.toString().find("grid=37"), std::string::npos);
  EXPECT_NE(p.toString().find("lines=[37:4096/4096/0]"), std::string::npos);
  const std::string c = p.classText();
  EXPECT_EQ(c.find("grid="), std::string::npos);
  EXPECT_NE(c.find("lines=[*:4096/4096/0]"), std::string::npos) << c;
  EXPECT_EQ(plan("sum f32[38,4096] dim=1").classText(), c);
}

TEST(ShapeClass, ClassTextReadsAsASpec) {
  auto text = [](llvm::StringRef s) { return shapeClassText(mustParse(s), plan(s)); };
  EXPECT_EQ(text("sum f32[37,4096] dim=1"), "sum f32[*,4096] dim=1");
  EXPECT_EQ(text("sum f32[3,5,4096] dim=-1 mask reverse"), "sum f32[*,4096] dim=1 mask reverse");
  EXPECT_EQ(text("sum f32[64,4096,256] dim=1"), "sum f32[*,4096,256] dim=1");
  EXPECT_EQ(text("max f16[100,200] dim=1 strides=[1,100] exclusive"), "max f16[*,200] dim=1 strides=[1,100] exclusive");
  EXPECT_EQ(text("sum f32[1,4096] dim=1"), "sum f32[1,4096] dim=1") << "no batch: the spec itself";
}

TEST(ShapeClass, NarrowColumnsKeepTheirCount) {
  // The lanes of narrow columns are the line dim: their count shapes the code.
  KernelPlan lanes = plan("sum f32[1048576,2] dim=0");
  ASSERT_EQ(lanes.family, KernelFamily::RowLookback);
  EXPECT_FALSE(lanes.runtimeBatch);
  EXPECT_EQ(lanes.launchBatch(), 0);
  // A batch outside them stays compiled in too (a launch-time batch was
  // slower there).
  KernelPlan batched = plan("sum f32[4,1048576,2] dim=1");
  EXPECT_FALSE(batched.runtimeBatch);
  EXPECT_NE(keyDigest("sum f32[4,1048576,2] dim=1"), keyDigest("sum f32[5,1048576,2] dim=1"));
  // Lines at a stride (no contiguous dim) take theirs at launch.
  KernelPlan strided = plan("sum f32[8,1048576] dim=1 strides=[2097152,2]");
  ASSERT_EQ(strided.family, KernelFamily::RowLookback);
  EXPECT_TRUE(strided.runtimeBatch);
}

TEST(ShapeClass, ExactBatchTuningCompilesTheCountIn) {
  PlanTuning exact;
  exact.exactBatch = 1;
  KernelPlan p = plan("sum f32[37,4096] dim=1", exact);
  EXPECT_FALSE(p.runtimeBatch);
  EXPECT_NE(p.classText().find("lines=[37:4096/4096/0]"), std::string::npos);
  EXPECT_NE(keyDigest("sum f32[37,4096] dim=1", exact), keyDigest("sum f32[38,4096] dim=1", exact));
  EXPECT_NE(keyDigest("sum f32[37,4096] dim=1", exact), keyDigest("sum f32[37,4096] dim=1"));
}

TEST(ShapeClass, CountDependentChoicesArePowersOfTwo) {
  // Short rows: chunks of rows/264 rows (so 264+ blocks), rounded down to a
  // power of two; the exact count without classes.
  PlanTuning chunked;
  chunked.warpRows = 0; // (else padded warp rows)
  for (int rows : {264 * 3, 264 * 5 + 7, 264 * 6, 264 * 13}) {
    const std::string spec = llvm::formatv("sum f32[{0},48] dim=1", rows).str();
    KernelPlan p = plan(spec, chunked);
    ASSERT_EQ(p.family, KernelFamily::RowSegmented) << spec;
    ASSERT_FALSE(p.warpRows) << spec;
    EXPECT_EQ(p.rowsPerChunk & (p.rowsPerChunk - 1), 0) << spec << ": " << p.rowsPerChunk;
    EXPECT_LE(p.rowsPerChunk, rows / 264);
    EXPECT_GT(2 * p.rowsPerChunk, rows / 264);
  }
  PlanTuning exact = chunked;
  exact.exactBatch = 1;
  EXPECT_EQ(plan("sum f32[3432,48] dim=1", exact).rowsPerChunk, 13);
}

TEST(ShapeClass, WorkspacesFollowTheBatch) {
  for (const char *s : {"sum f32[8,16777216] dim=1", "sum f32[5,3,1048576] dim=2 strides=[6291456,2097152,2]", "sum f32[64,4096,256] dim=1"}) {
    ScanSpec spec = mustParse(s);
    KernelPlan p = planKernel(spec);
    ASSERT_TRUE(p.runtimeBatch) << s;
    ASSERT_GT(p.workspaceBytes, 0) << s;
    EXPECT_EQ(p.workspaceBytes, workspaceBytesForLines(spec, p, p.geometry.numLines())) << s;
    // A header, then the same bytes for each batch.
    const int64_t one = workspaceBytesForLines(spec, p, linesPerBatch(p));
    EXPECT_EQ(p.workspaceBytes - 16, (one - 16) * p.launchBatch()) << s;
  }
}

// A sweep of batch sizes 1..1000 compiles a handful of kernels in every
// family: a single line, then a kernel per change of the planner's
// count-dependent choices (family, index width, evict-first, chunk rows,
// column vector and pieces).
TEST(ShapeClass, ABatchSweepCompilesFewKernels) {
  EXPECT_EQ(kernelsOver("sum f32[{0},4096] dim=1", 1000), 2u);
  EXPECT_LE(kernelsOver("sum f32[{0},3001] dim=1 mask", 1000), 2u);
  EXPECT_LE(kernelsOver("sum f32[{0},100000] dim=1", 1000), 8u);
  EXPECT_LE(kernelsOver("logsumexp f32[{0},48] dim=1 reverse", 1000), 8u);
  EXPECT_LE(kernelsOver("sum f32[{0},4096,64] dim=1", 1000), 8u);
}

} // namespace
