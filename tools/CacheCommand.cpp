// scanjit cache stats|list|verify|clear|prune [--max-bytes N] [--cache-dir DIR]
#include "cache/DiskCache.h"
#include "tools/Commands.h"

#include "compiler/Diagnostics.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace scanjit::tools {
namespace {

namespace cl = llvm::cl;

enum class Action { Stats, List, Verify, Clear, Prune };

cl::SubCommand Cache("cache", "Inspect and maintain the disk cache");
// A plain string: LLVM turns an unnamed enum option's values into flags.
cl::opt<std::string> ActionName(cl::Positional, cl::Required,
                                cl::desc("<stats|list|verify|clear|prune>"), cl::sub(Cache));
cl::opt<std::string> CacheDir("cache-dir", cl::desc("Cache folder (default: $SCANJIT_CACHE_DIR, ...)"),
                              cl::sub(Cache));
cl::opt<uint64_t> MaxBytes("max-bytes", cl::desc("Size cap for prune (default: $SCANJIT_CACHE_MAX_BYTES)"),
                           cl::init(0), cl::sub(Cache));

// The spec an entry was compiled for, e.g. "sum f32[8] dim=0".
std::string specOfEntry(const std::string &path, std::string *arch) {
  auto buffer = llvm::MemoryBuffer::getFile(path, false, false);
  if (!buffer)
    return "(unreadable)";
  auto entry = decodeEntry((*buffer)->getBuffer());
  if (!entry) {
    llvm::consumeError(entry.takeError());
    return "(bad entry: run scanjit cache verify)";
  }
  *arch = entry->kernel.target.name();
  return keyField(entry->keyText, "spec").getValueOr("?");
}

llvm::Expected<Action> parseAction(llvm::StringRef name) {
  const std::pair<llvm::StringRef, Action> actions[] = {{"stats", Action::Stats}, {"list", Action::List},
                                                        {"verify", Action::Verify}, {"clear", Action::Clear},
                                                        {"prune", Action::Prune}};
  for (const auto &[n, a] : actions)
    if (n == name)
      return a;
  return detail::makeErrorF(ErrorCode::InvalidArgument,
                            "unknown cache action '{0}' (expected stats, list, verify, clear or prune)", name);
}

int runCache() {
  auto What = parseAction(ActionName);
  if (!What)
    return reportError(What.takeError());
  auto config = cacheConfigFor(CacheDir);
  if (!config)
    return reportError(config.takeError());
  DiskCache disk(*config);
  std::vector<DiskEntryInfo> entries = disk.list();
  uint64_t bytes = 0;
  for (const DiskEntryInfo &e : entries)
    bytes += e.bytes;
  switch (*What) {
  case Action::Stats:
    llvm::outs() << "folder=" << disk.folder() << "\nentries=" << entries.size() << "\nbytes=" << bytes
                 << "\nmax_bytes=" << config->maxBytes << "\n"
                 << "# hit/miss/compile counters are kept per process: SCANJIT_LOG=2 logs each "
                    "event, scanjit::runtimeStats() returns them\n";
    return 0;
  case Action::List:
    for (const DiskEntryInfo &e : entries) {
      std::string arch = "?";
      std::string spec = specOfEntry(e.path, &arch);
      llvm::outs() << llvm::formatv("{0} {1,9} {2} {3}\n", e.digest, e.bytes, arch, spec);
    }
    return 0;
  case Action::Verify: {
    std::vector<std::string> bad = disk.verify();
    for (const std::string &b : bad)
      llvm::errs() << "scanjit: bad entry: " << b << "\n";
    llvm::outs() << "checked=" << entries.size() << " bad=" << bad.size() << "\n";
    return bad.empty() ? 0 : 1;
  }
  case Action::Clear:
    llvm::outs() << "removed=" << disk.clear() << "\n";
    return 0;
  case Action::Prune: {
    uint64_t cap = MaxBytes ? uint64_t(MaxBytes) : config->maxBytes;
    if (!cap)
      return reportError(detail::makeError(ErrorCode::InvalidArgument,
                                           "prune needs --max-bytes N or SCANJIT_CACHE_MAX_BYTES"));
    size_t removed = disk.prune(cap);
    uint64_t left = 0;
    for (const DiskEntryInfo &e : disk.list())
      left += e.bytes;
    llvm::outs() << "removed=" << removed << " bytes=" << left << "\n";
    return 0;
  }
  }
  return 0;
}

} // namespace

Command cacheCommand() { return {Cache, runCache}; }

} // namespace scanjit::tools
