// A plan's wanted blocks an SM (KernelPlan::wantedBlocksPerSm) are asked of
// ptxas in a second compile only where its own registers hold fewer, and
// not at the cost of more than a few bytes of spills; the cache keeps what
// the compile did.
#include "cache/CacheEntry.h"
#include "compiler/KernelCompiler.h"
#include "compiler/PlannerPolicy.h"
#include "TestSpecs.h"

#include <gtest/gtest.h>

using namespace scanjit;

namespace {

CompiledKernel compileFor(const char *text, KernelPlan *plan = nullptr) {
  auto generated = generateKernel(scanjit::testing::mustParse(text), Target{90});
  EXPECT_TRUE(bool(generated)) << llvm::toString(generated.takeError());
  auto compiled = compileKernel(*generated, Target{90});
  EXPECT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  if (plan)
    *plan = generated->plan;
  return *compiled;
}

int blocks(const KernelPlan &plan, int registers) { return policy::blocksByRegisters(registers, plan.threads); }

TEST(WantedBlocks, AskedOnlyWhereRegistersHoldFewer) {
  // (The figures are ptxas 13.0's: 104 registers unasked, 92 asked; a later
  // ptxas, or leaner templates, may fit either unasked, as the unmasked
  // shape's 96 now do.)
  KernelPlan plan;
  CompiledKernel asked = compileFor("sum bf16[3000000,150] dim=0 mask", &plan);
  ASSERT_EQ(plan.wantedBlocksPerSm, 2);
  EXPECT_EQ(asked.resources.askedBlocks, 2);
  EXPECT_LT(blocks(plan, asked.resources.firstRegisters), 2) << asked.resources.firstRegisters;
  EXPECT_GE(blocks(plan, asked.resources.registers), 2) << asked.resources.registers;
  EXPECT_EQ(asked.resources.spillStores, 0);
  EXPECT_NE(asked.resources.toString().find("asked_blocks=2\nfirst_registers="), std::string::npos);

  CompiledKernel kept = compileFor("sum f32[206323,146] dim=0", &plan);
  ASSERT_EQ(plan.wantedBlocksPerSm, 2);
  EXPECT_EQ(kept.resources.askedBlocks, 0);
  EXPECT_GE(blocks(plan, kept.resources.registers), 2) << kept.resources.registers;
  EXPECT_EQ(kept.resources.toString().find("asked_blocks"), std::string::npos);
}

TEST(WantedBlocks, KeptWithAFewBytesOfSpillsOnly) {
  // sum i32[300001,133] dim=0: ptxas's own 128-134 registers hold one block;
  // asked, it spills a few bytes, which paid (PlannerPolicy.h).
  KernelPlan plan;
  CompiledKernel asked = compileFor("sum i32[300001,133] dim=0", &plan);
  ASSERT_EQ(plan.wantedBlocksPerSm, 2);
  EXPECT_LT(blocks(plan, asked.resources.firstRegisters), 2) << "ptxas now fits two unasked: pick another spec";
  EXPECT_EQ(asked.resources.askedBlocks, 2);
  EXPECT_GE(blocks(plan, asked.resources.registers), 2) << asked.resources.registers;
  EXPECT_LE(asked.resources.spillStores, policy::kWantedBlocksMaxSpillBytes);

  KernelResources resources;
  resources.reported = true;
  resources.spillStores = resources.stackBytes = policy::kWantedBlocksMaxSpillBytes;
  EXPECT_TRUE(askedKernelKept(resources));
  resources.spillStores += 4;
  EXPECT_FALSE(askedKernelKept(resources));
  resources.spillStores = 0;
  resources.stackBytes += 8; // (a frame of its own, without spills)
  EXPECT_FALSE(askedKernelKept(resources));
  EXPECT_FALSE(askedKernelKept(KernelResources{})); // (unknown: nothing to judge by)
}

TEST(WantedBlocks, TheCacheEntryKeepsTheSecondCompile) {
  CacheEntry entry;
  entry.keyText = "key";
  entry.plan = "plan";
  entry.kernel = compileFor("sum bf16[3000000,150] dim=0 mask");
  auto decoded = decodeEntry(encodeEntry(entry), entry.keyText);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->kernel.resources.askedBlocks, 2);
  EXPECT_EQ(decoded->kernel.resources.firstRegisters, entry.kernel.resources.firstRegisters);
  EXPECT_EQ(decoded->kernel.resources.registers, entry.kernel.resources.registers);
}

} // namespace
