#include "tools/CacheOptions.h"

namespace scanjit::tools {

llvm::Expected<CacheConfig> cacheConfigFor(llvm::StringRef cacheDirOption) {
  auto config = cacheConfigFromEnvironment();
  if (!config)
    return config.takeError();
  if (!cacheDirOption.empty()) {
    config->root = cacheDirOption.str();
    if (config->mode == CacheMode::Off)
      config->mode = CacheMode::On; // an explicit folder means: use it
  }
  return config;
}

} // namespace scanjit::tools
