// Ranks 1-4, sizes 0, 1, primes and powers of two, every dim (negative too).
#include "GpuHarness.h"

#include "scanjit/Scan.h"

#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

const std::vector<std::vector<int64_t>> kShapes = {
    {0}, {1}, {2}, {7}, {31}, {32}, {33}, {1000}, {1024}, {4099}, {65536}, {100003},
    {1, 1}, {0, 5}, {5, 0}, {1, 1000}, {1000, 1}, {3, 7}, {17, 129}, {128, 128}, {257, 1031},
    {2, 65537}, {4097, 3},
    {2, 3, 5}, {1, 7, 1}, {4, 1, 64}, {31, 33, 7}, {8, 128, 16}, {2, 1, 1000},
    {2, 3, 5, 7}, {1, 16, 1, 16}, {3, 1, 31, 2}, {4, 8, 8, 17},
};

// A spread of ops, dtypes and flags; the flag matrix covers all combinations.
const char *kVariants[] = {"sum f32{0}", "max i32{0} reverse exclusive mask",
                           "logsumexp f64{0} reverse", "sum f16{0} mask exclusive",
                           "prod bf16{0} reverse mask"};

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::vector<std::string> allSpecs() {
  std::vector<std::string> specs;
  for (const auto &shape : kShapes) {
    int rank = int(shape.size());
    for (int dim = -rank; dim < rank; ++dim)
      for (const char *v : kVariants) {
        std::string s = v;
        std::string withShape = s.substr(0, s.find("{0}")) + shapeText(shape) + " dim=" +
                                std::to_string(dim) + s.substr(s.find("{0}") + 3);
        specs.push_back(withShape);
      }
  }
  return specs;
}

TEST(Shapes, EveryRankSizeAndDim) {
  SCANJIT_REQUIRE_GPU();
  std::vector<std::string> specs = allSpecs();
  expectCasesPass(specs);
}

// Rows of one to four tiles: a row-family block streams several of them,
// round-robin over the grid (the last blocks take one fewer), through its
// stages, in blocks sized to the row (96 and 160 threads among them); also
// with an output one element off alignment (no staged stores) and an input
// one off (no bulk copies).
TEST(Shapes, ShortRowsStreamSeveralToABlock) {
  const std::vector<std::string> specs = {
      "sum f32[5001,2048] dim=1 mask reverse exclusive", "logsumexp f32[4100,1400] dim=1",
      "max f64[3000,1500] dim=1 exclusive", "sum i32[6000,1032] dim=1 reverse", "prod bf16[4500,2400] dim=1 mask",
      "sum f32[3001,1100] dim=1 reverse exclusive", "min f32[2500,1400] dim=1 exclusive"};
  for (const std::string &s : specs) {
    KernelPlan plan;
    ASSERT_TRUE(planOf(s, plan));
    ASSERT_EQ(plan.family, KernelFamily::Row) << s;
    ASSERT_GT(plan.rowsPerChunk, 1) << s << ": a row a block";
  }
  SCANJIT_REQUIRE_GPU(); // (the plans above need no GPU)
  expectCasesPass(specs);
  CaseOptions outOff, inOff;
  outOff.outOffset = 1;
  inOff.inOffset = 1;
  expectCasePasses(specs[0], outOff);
  expectCasePasses(specs[1], inOff);
  expectCasePasses(specs[5], outOff);
}

TEST(Shapes, ScalarTensor) {
  SCANJIT_REQUIRE_GPU();
  for (const char *s : {"sum f32[] dim=0", "max i8[] dim=-1 exclusive", "logsumexp bf16[] dim=0 mask"})
    expectCasePasses(s);
}

} // namespace

namespace {

uint64_t kernelsMade() {
  scanjit::RuntimeStats s = scanjit::runtimeStats();
  return s.compiles + s.diskHits;
}

// One kernel per shape class: every batch of a family's class runs on the
// kernel the first one made (the batch is a launch argument), with its own
// grid and workspace, and passes. The batches include counts that are not
// powers of two and counts on both sides of a power of two.
TEST(Shapes, OneKernelServesEveryBatchOfItsClass) {
  SCANJIT_REQUIRE_GPU();
  const char *families[] = {
      "sum f32[{0},4096] dim=1 mask reverse",            // row, staged
      "max f16[{0},3001] dim=1 exclusive",                // row, edges
      "logsumexp f32[{0},1100] dim=1",                    // short rows in fitted blocks
      "sum f32[{0},48] dim=1 reverse",                    // segmented
      "sum i32[{0},32] dim=1",                            // segmented, a warp per rows
      "sum f32[{0},300007] dim=1 mask",                   // look-back, edges
      "prod f64[{0},65536] dim=1 reverse exclusive",      // look-back, staged
      "sum f32[{0},2000,96] dim=1",                       // column pipeline with pieces
      "min f32[{0},1000,33] dim=1 reverse",               // column pipeline, edges
      "sum f32[{0},65536] dim=1 strides=[131072,2]",      // look-back lines at a stride
      "sum f32[{0},65536,2] dim=1",                       // narrow columns (a kernel per batch)
      "sum f32[{0},500,40] dim=1 strides=[80000,160,1]",  // column with a gap
      "max f32[{0},300] dim=1 strides=[1,{0}]",           // strided (its stride is the count: a class each)
  };
  const int batches[] = {2, 3, 5, 8, 13, 31};
  for (const char *family : families) {
    std::set<std::string> classes;
    std::vector<std::string> specs;
    for (int b : batches) {
      const std::string spec = llvm::formatv(family, b).str();
      KernelPlan plan;
      ASSERT_TRUE(planOf(spec, plan));
      classes.insert(plan.classText());
      specs.push_back(spec);
    }
    const uint64_t before = kernelsMade();
    for (const std::string &spec : specs)
      expectCasePasses(spec);
    EXPECT_LE(kernelsMade() - before, classes.size()) << family << ": one kernel per class (fewer if made before)";
    const bool exactKernels = llvm::StringRef(family).contains("strides=[1,{0}]") ||
                              llvm::StringRef(family).contains(",65536,2]");
    if (!exactKernels)
      EXPECT_LT(classes.size(), specs.size()) << family << ": batches share kernels";
  }
}

} // namespace
