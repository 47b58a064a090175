// Kernels the policy does not pick but a tuning (SCANJIT_PLAN_TUNE) can:
// they are still served to whoever tunes, so they must be right too.
#include "GpuHarness.h"

#include "compiler/KernelCompiler.h"
#include "compiler/ScanSpec.h"

#include <cstdlib>

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }

private:
  const char *name_;
};

// Segmented rows through bulk-copy stages (SegmentedPolicy::kStagedByDefault
// is off): rows of 48 straddle the 1024-element tiles of a chunk. The shapes
// appear nowhere else in the suite, so the process's kernel registry holds
// no untuned kernel for these specs.
TEST(TunedPlans, StagedSegmentedRowsMatchTheReference) {
  SCANJIT_REQUIRE_GPU();
  ScopedEnv tune("SCANJIT_PLAN_TUNE", "stages=8");
  std::vector<std::string> specs;
  for (const char *op : {"sum", "prod", "max", "min", "logsumexp"})
    for (const char *type : {"f32", "f16", "f64"})
      for (const char *flags : {"", " mask", " reverse", " exclusive", " mask reverse exclusive"})
        specs.push_back(std::string(op) + " " + type + "[6000,48] dim=1" + flags);
  for (const char *s : {"sum i32[6000,48] dim=1 mask", "sum u8[6000,64] dim=1 out=i32 reverse",
                        "max bf16[6000,48] dim=1 exclusive", "sum f32[16,1024] dim=1 mask reverse"})
    specs.push_back(s);
  for (const std::string &s : specs) {
    auto spec = parseSpec(s);
    ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
    auto generated = generateKernel(*spec);
    ASSERT_TRUE(static_cast<bool>(generated)) << llvm::toString(generated.takeError());
    ASSERT_EQ(generated->plan.family, KernelFamily::RowSegmented) << s;
    ASSERT_GT(generated->plan.stages, 0) << s << ": the tuning did not stage it";
  }
  precompile(specs);
  for (const std::string &s : specs)
    expectCasePasses(s);
}

} // namespace
