#include "scanjit/Precompile.h"

#include "cache/KernelStore.h"
#include "compiler/Diagnostics.h"
#include "runtime/DriverApi.h"
#include "runtime/Errors.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace scanjit {

PrecompileResult precompile(const std::vector<std::string> &specs, const std::vector<std::string> &archs,
                            const std::string &cacheDir, unsigned jobs, const std::vector<std::string> &labels) {
  std::vector<Target> targets;
  if (archs.empty())
    targets.push_back(detail::unwrap(resolveTarget("", detail::detectGpuSm())));
  for (const std::string &a : archs)
    targets.push_back(detail::unwrap(parseTarget(a)));
  CacheConfig config = detail::unwrap(cacheConfigFor(cacheDir));
  if (config.mode != CacheMode::On)
    throw Error(ErrorCode::InvalidArgument, "precompile needs a writable cache (SCANJIT_CACHE is off or readonly)");
  DiskCache disk(config);

  PrecompileResult result;
  std::atomic<size_t> next{0}, compiled{0}, cached{0};
  std::mutex lock;
  const size_t total = specs.size() * targets.size();
  auto worker = [&] {
    for (size_t i = next++; i < total; i = next++) {
      const size_t s = i / targets.size();
      const std::string &text = specs[s];
      const Target &target = targets[i % targets.size()];
      auto fail = [&](const std::string &why) {
        const std::string label = s < labels.size() ? labels[s] : "spec " + std::to_string(s + 1);
        std::lock_guard<std::mutex> g(lock);
        result.failures.push_back(label + ": '" + text + "' (" + target.name() + "): " + why);
      };
      auto spec = parseSpec(text);
      if (!spec) {
        fail(llvm::toString(spec.takeError()));
        continue;
      }
      auto generated = generateKernel(*spec, target);
      if (!generated) {
        fail(llvm::toString(generated.takeError()));
        continue;
      }
      if (generated->plan.family == KernelFamily::Empty) {
        ++cached; // no elements: nothing to compile, nothing missing
        continue;
      }
      CacheKey key = makeCacheKey(currentKeyFields(*generated, target));
      auto stored = loadOrCompile(disk, *generated, target, key);
      if (!stored)
        fail(llvm::toString(stored.takeError()));
      else if (stored->fromDisk)
        ++cached;
      else if (!disk.writable())
        fail("compiled but not stored: the cache folder " + disk.folder() + " is not writable");
      else
        ++compiled;
    }
  };
  const unsigned n = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::min<size_t>(n, total); ++j)
    threads.emplace_back(worker);
  for (auto &t : threads)
    t.join();
  std::sort(result.failures.begin(), result.failures.end());
  result.compiled = compiled;
  result.cached = cached;
  return result;
}

} // namespace scanjit
