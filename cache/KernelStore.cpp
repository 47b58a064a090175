#include "cache/KernelStore.h"
#include "compiler/Diagnostics.h"
#include "compiler/KernelCompiler.h"
#include "compiler/Log.h"
#include "compiler/Nvrtc.h"
#include "compiler/ShapeClass.h"
#include "compiler/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace scanjit {
namespace {

void dumpSource(llvm::StringRef source, llvm::StringRef entry, const CacheKey &key) {
  const char *dir = std::getenv("SCANJIT_DUMP_DIR");
  if (!dir || !*dir)
    return;
  llvm::sys::fs::create_directories(dir);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, entry + "-" + key.digest.substr(0, 12) + ".cu");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    detail::warnOnce("dump-dir", "SCANJIT_DUMP_DIR: cannot write " + path + ": " + ec.message());
    return;
  }
  os << source;
}

// The disk entry for `key`, else `compile()`'s kernel, stored.
llvm::Expected<StoredKernel> loadOrCompileWith(DiskCache &disk, const SourceKernel &k, const Target &target,
                                               const CacheKey &key,
                                               llvm::function_ref<llvm::Expected<CompiledKernel>()> compile) {
  // Kernels run as another arch load from their PTX, which entries do not
  // keep: the disk cache is passed by.
  const bool cached = !runsAsAnotherArch();
  if (cached)
    if (llvm::Optional<CacheEntry> hit = disk.lookup(key))
      return StoredKernel{std::move(hit->kernel), true};
  dumpSource(k.source, k.entry, key);
  auto compiled = compile();
  if (!compiled)
    return compiled.takeError();
  detail::logMessage(1, llvm::formatv("compiled '{0}' for {1} in {2:f1} ms", k.what, target.name(),
                                      compiled->compileMillis));
  CacheEntry entry;
  entry.keyText = key.text;
  entry.plan = k.plan;
  entry.kernel = *compiled;
  if (cached)
    disk.store(key, entry);
  return StoredKernel{std::move(*compiled), false};
}

} // namespace

llvm::Expected<StoredKernel> loadOrCompileSource(DiskCache &disk, const SourceKernel &k, const Target &target,
                                                 const CacheKey &key) {
  return loadOrCompileWith(disk, k, target, key, [&] { return compileWithNvrtc(k.source, k.entry, target, k.what); });
}

llvm::Expected<StoredKernel> loadOrCompile(DiskCache &disk, const GeneratedKernel &generated,
                                           const Target &target, const CacheKey &key) {
  // (compileKernel: a plan's wanted blocks an SM may take a second compile.)
  return loadOrCompileWith(disk,
                           SourceKernel{generated.source, generated.plan.entry,
                                        shapeClassText(generated.spec, generated.plan), generated.plan.classText()},
                           target, key, [&] { return compileKernel(generated, target); });
}

llvm::Expected<DiskCache &> processDiskCache() {
  static llvm::Optional<DiskCache> cache;
  static std::string configError;
  static std::once_flag once;
  std::call_once(once, [] {
    auto config = cacheConfigFromEnvironment();
    if (config)
      cache.emplace(std::move(*config));
    else
      configError = llvm::toString(config.takeError());
  });
  if (!cache)
    return detail::makeError(ErrorCode::InvalidArgument, configError);
  return *cache;
}

} // namespace scanjit
