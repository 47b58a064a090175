#include "compiler/Target.h"
#include "compiler/Diagnostics.h"

#include <nvrtc.h>

#include <algorithm>
#include <cstdlib>

namespace scanjit {

std::vector<int> nvrtcSupportedSms() {
  int count = 0;
  if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0)
    return {};
  std::vector<int> sms(count);
  if (nvrtcGetSupportedArchs(sms.data()) != NVRTC_SUCCESS)
    return {};
  return sms;
}

llvm::Expected<Target> parseTarget(llvm::StringRef text) {
  llvm::StringRef digits = text.trim();
  digits.consume_front("sm_");
  int sm = 0;
  if (digits.getAsInteger(10, sm) || sm <= 0)
    return detail::makeErrorF(ErrorCode::InvalidArgument,
                              "arch '{0}' is not of the form sm_XX (e.g. sm_90)", text);
  std::vector<int> supported = nvrtcSupportedSms();
  if (std::find(supported.begin(), supported.end(), sm) == supported.end()) {
    std::string list;
    for (int s : supported)
      list += (list.empty() ? "sm_" : ", sm_") + std::to_string(s);
    return detail::makeErrorF(ErrorCode::Unsupported,
                              "arch '{0}' is not supported by this NVRTC (supported: {1})", text,
                              list);
  }
  return Target{sm};
}

bool runsAsAnotherArch() {
  const char *env = std::getenv("SCANJIT_RUN_ARCH");
  return env && *env;
}

llvm::Expected<Target> runTarget(int deviceSm) {
  const char *env = std::getenv("SCANJIT_RUN_ARCH");
  if (!env || !*env)
    return parseTarget("sm_" + std::to_string(deviceSm));
  auto t = parseTarget(env);
  if (!t)
    return detail::makeError(ErrorCode::InvalidArgument, "SCANJIT_RUN_ARCH: " + llvm::toString(t.takeError()));
  if (t->sm > deviceSm)
    return detail::makeErrorF(ErrorCode::InvalidArgument,
                              "SCANJIT_RUN_ARCH={0} is newer than this GPU (sm_{1}): its code cannot run here", env,
                              deviceSm);
  return t;
}

llvm::Expected<Target> resolveTarget(llvm::StringRef explicitArch, int detectedSm) {
  if (!explicitArch.empty())
    return parseTarget(explicitArch);
  if (const char *env = std::getenv("SCANJIT_ARCH"); env && *env) {
    auto t = parseTarget(env);
    if (!t)
      return detail::makeError(ErrorCode::InvalidArgument,
                               "SCANJIT_ARCH: " + llvm::toString(t.takeError()));
    return t;
  }
  if (detectedSm > 0)
    return parseTarget("sm_" + std::to_string(detectedSm));
  return Target{kDefaultSm};
}

} // namespace scanjit
