// The disk cache a CLI command works on: $SCANJIT_* settings with
// --cache-dir taking precedence.
#pragma once

#include "cache/DiskCache.h"

namespace scanjit::tools {

llvm::Expected<CacheConfig> cacheConfigFor(llvm::StringRef cacheDirOption);

} // namespace scanjit::tools
