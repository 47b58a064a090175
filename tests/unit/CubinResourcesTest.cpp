// The resources read off a cubin match ptxas's own report, for each arch
// family and kernel family (here NVRTC's log carries the report, so both
// sources can be compared); malformed cubins give errors, not guesses.
#include "compiler/CompiledKernel.h"
#include "compiler/KernelCompiler.h"
#include "compiler/Target.h"
#include "TestSpecs.h"

#include <gtest/gtest.h>

using namespace scanjit;

namespace {

TEST(CubinResources, MatchPtxasReportOnEveryArchFamily) {
  const char *specs[] = {"sum f32[64,3001] dim=1 mask reverse", "sum f32[2,1048577] dim=1",
                         "logsumexp f64[300,3000] dim=0 exclusive", "sum f32[100003,2] dim=0",
                         "max f16[4096,64] dim=1 mask"};
  for (const char *arch : {"sm_75", "sm_80", "sm_90", "sm_100", "sm_120"}) {
    Target target = *parseTarget(arch);
    for (const char *text : specs) {
      auto generated = generateKernel(scanjit::testing::mustParse(text), target);
      ASSERT_TRUE(bool(generated)) << llvm::toString(generated.takeError());
      auto compiled = compileKernel(*generated, target);
      ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
      const KernelResources &ptxas = compiled->resources;
      ASSERT_TRUE(ptxas.reported) << arch << " " << text << ": no ptxas report to compare with";
      auto fromCubin = readCubinResources(compiled->cubin, compiled->entry);
      ASSERT_TRUE(bool(fromCubin)) << llvm::toString(fromCubin.takeError());
      EXPECT_TRUE(fromCubin->fromCubin && !fromCubin->reported);
      EXPECT_EQ(fromCubin->registers, ptxas.registers) << arch << " " << text;
      EXPECT_EQ(fromCubin->stackBytes, ptxas.stackBytes) << arch << " " << text;
      EXPECT_EQ(fromCubin->sharedBytes, ptxas.sharedBytes) << arch << " " << text;
      EXPECT_EQ(fromCubin->spillStores, 0) << "no stack frame, so no spills";
      EXPECT_EQ(fromCubin->barriers, KernelResources::kUnknown);
    }
  }
}

TEST(CubinResources, MissingReportIsCompletedFromTheCubin) {
  Target target = *parseTarget("sm_90");
  auto generated = generateKernel(scanjit::testing::mustParse("sum f32[8,1000] dim=1"), target);
  ASSERT_TRUE(bool(generated));
  auto compiled = compileKernel(*generated, target);
  ASSERT_TRUE(bool(compiled));
  CompiledKernel unreported = *compiled;
  unreported.resources = KernelResources{}; // as when NVRTC's log lacks the report
  completeResources(unreported);
  EXPECT_TRUE(unreported.resources.known());
  EXPECT_EQ(unreported.resources.registers, compiled->resources.registers);
  EXPECT_NE(unreported.resources.toString().find("barriers=unknown"), std::string::npos);
}

TEST(CubinResources, MalformedCubinsAreErrors) {
  auto notElf = readCubinResources("not an ELF file at all, but long enough to have a header............", "k");
  ASSERT_FALSE(bool(notElf));
  EXPECT_NE(llvm::toString(notElf.takeError()).find("not a little-endian ELF64"), std::string::npos);

  Target target = *parseTarget("sm_90");
  auto generated = generateKernel(scanjit::testing::mustParse("sum f32[8,1000] dim=1"), target);
  ASSERT_TRUE(bool(generated));
  auto compiled = compileKernel(*generated, target);
  ASSERT_TRUE(bool(compiled));
  auto truncated = readCubinResources(llvm::StringRef(compiled->cubin).take_front(100), compiled->entry);
  ASSERT_FALSE(bool(truncated));
  EXPECT_NE(llvm::toString(truncated.takeError()).find("out of range"), std::string::npos);
  auto otherName = readCubinResources(compiled->cubin, "no_such_kernel");
  ASSERT_FALSE(bool(otherName));
  EXPECT_NE(llvm::toString(otherName.takeError()).find("no symbol 'no_such_kernel'"), std::string::npos);
}

} // namespace
