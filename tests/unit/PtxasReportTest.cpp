#include "compiler/CompiledKernel.h"

#include <gtest/gtest.h>

using namespace scanjit;

namespace {

const char *kLog = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'other' for 'sm_90'
ptxas info    : Function properties for other
ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 255 registers, used 0 barriers, 380 bytes cmem[0]
ptxas info    : Compiling entry function 'k' for 'sm_90'
ptxas info    : Function properties for k
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 31 registers, used 1 barriers, 64 bytes smem, 380 bytes cmem[0]
ptxas info    : Compile time = 12.835 ms
)";

TEST(PtxasReport, ReadsTheEntrysOwnLines) {
  auto r = parsePtxasReport(kLog, "k");
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->registers, 31);
  EXPECT_EQ(r->sharedBytes, 64);
  EXPECT_EQ(r->barriers, 1);
  EXPECT_EQ(r->spillStores, 0);
  EXPECT_EQ(r->spillLoads, 0);
  auto other = parsePtxasReport(kLog, "other");
  ASSERT_TRUE(bool(other));
  EXPECT_EQ(other->registers, 255);
  EXPECT_EQ(other->spillStores, 4);
  EXPECT_EQ(other->stackBytes, 8);
}

TEST(PtxasReport, IgnoresCalleePropertiesInsideTheEntrysSection) {
  const char *log = R"(ptxas info    : Compiling entry function 'k' for 'sm_90'
ptxas info    : Function properties for k
ptxas         .     16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Function properties for __internal_accurate_pow
ptxas         .     40 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers, 16 bytes cumulative stack size
)";
  auto r = parsePtxasReport(log, "k");
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->registers, 40);
  EXPECT_EQ(r->stackBytes, 16);
  EXPECT_EQ(r->spillStores, 0);
}

TEST(PtxasReport, FailsWithoutARegisterLine) {
  auto r = parsePtxasReport("ptxas info    : 0 bytes gmem\n", "k");
  EXPECT_FALSE(bool(r));
  llvm::consumeError(r.takeError());
}

TEST(PtxasReport, PrintsKeyValueLines) {
  KernelResources r;
  r.registers = 40;
  EXPECT_EQ(r.toString(),
            "registers=40\nspill_stores=0\nspill_loads=0\nstack_bytes=0\nshared_bytes=0\nbarriers=0\n");
}

} // namespace
