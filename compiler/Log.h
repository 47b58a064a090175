// scanjit's debug log (Halide's debug(n) idea): SCANJIT_LOG=0..3 chooses how
// much goes to stderr. 0 (default): nothing. 1: warnings and compile events.
// 2: cache hits and misses too. 3: timings too.
#pragma once

#include "llvm/ADT/Twine.h"

namespace scanjit::detail {

/// The level SCANJIT_LOG asked for (read once per process).
int logLevel();

/// Writes "scanjit: <message>" to stderr when logLevel() >= level.
void logMessage(int level, const llvm::Twine &message);

/// Like logMessage(1, ...) but at most once per process for each `topic`.
void warnOnce(llvm::StringRef topic, const llvm::Twine &message);

} // namespace scanjit::detail
