// The arch the runtime runs its kernels as (runTarget): the GPU's own, or
// SCANJIT_RUN_ARCH's, an older one, whose PTX the driver compiles.
#include "compiler/Target.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace scanjit;

namespace {

struct ScopedRunArch {
  explicit ScopedRunArch(const char *arch) { setenv("SCANJIT_RUN_ARCH", arch, 1); }
  ~ScopedRunArch() { unsetenv("SCANJIT_RUN_ARCH"); }
};

TEST(Target, RunsAsTheGpuUnlessAnOlderArchIsAsked) {
  unsetenv("SCANJIT_RUN_ARCH");
  EXPECT_FALSE(runsAsAnotherArch());
  auto own = runTarget(90);
  ASSERT_TRUE(bool(own)) << llvm::toString(own.takeError());
  EXPECT_EQ(own->sm, 90);
  ScopedRunArch older("sm_80");
  EXPECT_TRUE(runsAsAnotherArch());
  auto asked = runTarget(90);
  ASSERT_TRUE(bool(asked)) << llvm::toString(asked.takeError());
  EXPECT_EQ(asked->sm, 80);
}

TEST(Target, RefusesANewerOrUnknownRunArchByName) {
  {
    ScopedRunArch newer("sm_100");
    auto t = runTarget(90);
    ASSERT_FALSE(bool(t));
    const std::string message = llvm::toString(t.takeError());
    EXPECT_NE(message.find("SCANJIT_RUN_ARCH=sm_100 is newer than this GPU (sm_90)"), std::string::npos) << message;
  }
  {
    ScopedRunArch bad("ampere");
    auto t = runTarget(90);
    ASSERT_FALSE(bool(t));
    const std::string message = llvm::toString(t.takeError());
    EXPECT_NE(message.find("SCANJIT_RUN_ARCH"), std::string::npos) << message;
    EXPECT_NE(message.find("ampere"), std::string::npos) << message;
  }
}

} // namespace
