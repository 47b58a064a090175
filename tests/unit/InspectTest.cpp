// The public inspection API: plan, source and resources without a GPU.
#include "scanjit/Inspect.h"

#include <gtest/gtest.h>

using namespace scanjit;

TEST(Inspect, ReportsTheStagesDynamicSharedMemory) {
  KernelReport staged = inspectKernel("sum f32[32768,32768] dim=1 mask", "sm_90");
  EXPECT_NE(staged.plan.find("stages=8 smem=41600"), std::string::npos) << staged.plan;
  EXPECT_EQ(staged.dynamicSharedBytes, 41600);
  EXPECT_EQ(staged.spillStores, 0);
  KernelReport unstaged = inspectKernel("sum f32[64,3001] dim=1", "sm_90");
  EXPECT_EQ(unstaged.dynamicSharedBytes, 0);
}
