#include "compiler/Log.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

namespace scanjit::detail {

int logLevel() {
  static const int level = [] {
    const char *env = std::getenv("SCANJIT_LOG");
    return env ? std::atoi(env) : 0;
  }();
  return level;
}

void logMessage(int level, const llvm::Twine &message) {
  if (logLevel() < level)
    return;
  static std::mutex lock;
  std::lock_guard<std::mutex> guard(lock);
  llvm::errs() << "scanjit: " << message << "\n";
}

void warnOnce(llvm::StringRef topic, const llvm::Twine &message) {
  static std::mutex lock;
  static llvm::StringSet<> seen;
  {
    std::lock_guard<std::mutex> guard(lock);
    if (!seen.insert(topic).second)
      return;
  }
  logMessage(1, "warning: " + message);
}

} // namespace scanjit::detail
