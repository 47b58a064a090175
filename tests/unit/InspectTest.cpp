// The public inspection API: plan, source and resources without a GPU.
#include "scanjit/Inspect.h"

#include <gtest/gtest.h>

using namespace scanjit;

TEST(Inspect, ReportsTheStagesDynamicSharedMemory) {
  KernelReport staged = inspectKernel("sum f32[32768,32768] dim=1 mask", "sm_90");
  EXPECT_NE(staged.plan.find("stages=8 smem=41600"), std::string::npos) << staged.plan;
  EXPECT_EQ(staged.dynamicSharedBytes, 41600);
  EXPECT_EQ(staged.spillStores, 0);
  KernelReport edges = inspectKernel("sum f32[64,3001] dim=1", "sm_90"); // rows off the 16-byte grid
  EXPECT_NE(edges.plan.find("stages=8 smem=33536 edges=1"), std::string::npos) << edges.plan;
  EXPECT_EQ(edges.dynamicSharedBytes, 33536);
  EXPECT_EQ(edges.spillStores, 0);
}
