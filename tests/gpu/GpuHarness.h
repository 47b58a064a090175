// The GPU suite's harness: run one spec on fresh random data with poisoned
// output and check it against the CPU reference. Tests skip, naming the
// reason, where no driver or GPU is present.
#pragma once

#include "compiler/KernelPlan.h"
#include "compiler/ScanSpec.h"
#include "compiler/Target.h"
#include "testing/Precompile.h"
#include "testing/Verify.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <string>

namespace scanjit::gpu_testing {

/// "" when a GPU can be used, else why not.
const std::string &gpuSkipReason();

#define SCANJIT_REQUIRE_GPU()                                                                      \
  do {                                                                                             \
    if (!::scanjit::gpu_testing::gpuSkipReason().empty())                                          \
      GTEST_SKIP() << "no GPU: " << ::scanjit::gpu_testing::gpuSkipReason();                       \
  } while (0)

struct CaseOptions {
  int64_t inOffset = 0; // elements between the allocation start and element 0
  int64_t outOffset = 0;
  int64_t maskOffset = 0;
  int64_t maxLines = 1 << 30; // check at most this many lines (first, last, random others)
  double specialFraction = 0; // NaN/Inf share in floating inputs
  double logSumExpSpread = 4;  // logsumexp inputs lie in [-spread, spread] (a power of two)
  int64_t negativeInfinityRuns = 0; // > 0: about a quarter of the runs of this many elements are -Inf
  bool twice = true;          // second run with another poison, compared bitwise with the first
  uint64_t seed = 0;          // the inputs' seed: 0 draws a fresh one (a failure's message names it)
};

// Options placing the input, mask and output `in`, `mask` and `out`
// elements past their allocations' starts (off the 16-byte grid).
inline CaseOptions offsets(int64_t in, int64_t mask, int64_t out) {
  CaseOptions o;
  o.inOffset = in;
  o.maskOffset = mask;
  o.outOffset = out;
  return o;
}

struct CaseOutcome {
  detail::VerifyReport report;
  uint64_t seed = 0;
  bool reproducible = true;
  int64_t strayByte = -1; // the first output byte outside the tensor written, or -1
  std::string describe() const;
};

/// Prepares `spec`, runs it and verifies it. Throws scanjit::Error on API failures.
CaseOutcome runCase(const std::string &spec, const CaseOptions &options = {});

/// Asserts a case passes (with the seed and the first mismatch in the message).
void expectCasePasses(const std::string &spec, const CaseOptions &options = {});

/// The scanjit CLI of the same build (build/tools/scanjit next to build/tests).
std::string cliPath();

/// Compiles specs on all cores (warming the kernel registry) before a test
/// runs them one after another (testing/Precompile.h).
using scanjit::detail::precompile;

/// Precompiles specs, then asserts each passes, one after another: as
/// placed by default, then at each of `placements` (pointers apart).
void expectCasesPass(const std::vector<std::string> &specs, const std::vector<CaseOptions> &placements = {});

/// The plan `text` gets for `target` (the default arch: sm_90), under the
/// current tuning (SCANJIT_PLAN_TUNE).
::testing::AssertionResult planOf(const std::string &text, KernelPlan &plan, const Target &target = {});

// SCANJIT_PLAN_TUNE (compiler/PlanTuning.h) for one scope: a kernel the
// policy would not pick for the spec.
struct ScopedTuning {
  explicit ScopedTuning(const char *tuning) { setenv("SCANJIT_PLAN_TUNE", tuning, 1); }
  ~ScopedTuning() { unsetenv("SCANJIT_PLAN_TUNE"); }
};

/// Kernels planned and compiled for an older arch, run from their PTX
/// (SCANJIT_RUN_ARCH), while in scope.
struct ScopedRunArch {
  explicit ScopedRunArch(const char *arch) { setenv("SCANJIT_RUN_ARCH", arch, 1); }
  ~ScopedRunArch() { unsetenv("SCANJIT_RUN_ARCH"); }
};

} // namespace scanjit::gpu_testing
