// Every rung of the scan ladder (warp scan, block scan, tile agent) compiles
// on its own, outside any family's kernel, for each arch family, without
// spills: the instantiations the GPU suite runs (tests/gpu/LadderGpuTest.cpp).
#include "../ladder/LadderKernels.h"

#include "compiler/CompiledKernel.h"
#include "compiler/Nvrtc.h"
#include "compiler/Target.h"

#include <gtest/gtest.h>

using namespace scanjit;
using namespace scanjit::ladder;

namespace {

TEST(Ladder, EveryRungCompilesWithoutSpillsOnEachArchFamily) {
  const std::string source = ladderSource();
  for (const char *arch : {"sm_75", "sm_90"}) {
    Target target = *parseTarget(arch);
    auto compiled = compileWithNvrtc(source, ladderKernels().front().entry, target, "ladder rungs");
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    for (const LadderKernel &k : ladderKernels()) {
      auto resources = parsePtxasReport(compiled->log, k.entry);
      ASSERT_TRUE(bool(resources)) << arch << " " << k.entry << ": " << llvm::toString(resources.takeError());
      EXPECT_EQ(resources->spillStores, 0) << arch << " " << k.entry;
      EXPECT_EQ(resources->spillLoads, 0) << arch << " " << k.entry;
    }
  }
}

} // namespace
