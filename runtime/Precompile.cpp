#include "scanjit/Precompile.h"

#include "cache/KernelStore.h"
#include "compiler/Diagnostics.h"
#include "runtime/DriverApi.h"
#include "runtime/Errors.h"

#include "llvm/ADT/StringMap.h"

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
  std::mutex lock;
  auto fail = [&](size_t s, const Target &target, const std::string &why) {
    const std::string label = s < labels.size() ? labels[s] : "spec " + std::to_string(s + 1);
    std::lock_guard<std::mutex> g(lock);
    result.failures.push_back(label + ": '" + specs[s] + "' (" + target.name() + "): " + why);
  };
  // Planning is cheap: first each spec's kernel (its shape class), then
  // each kernel compiled once however many specs share it.
  struct Kernel {
    GeneratedKernel generated;
    Target target;
    CacheKey key;
    size_t spec; // the first spec of the class, for failures
  };
  std::vector<Kernel> kernels;
  llvm::StringMap<size_t> byDigest;
  std::atomic<size_t> compiled{0}, cached{0};
  for (size_t s = 0; s < specs.size(); ++s) {
    for (const Target &target : targets) {
      auto spec = parseSpec(specs[s]);
      if (!spec) {
        fail(s, target, llvm::toString(spec.takeError()));
        continue;
      }
      auto generated = generateKernel(*spec, target);
      if (!generated) {
        fail(s, target, llvm::toString(generated.takeError()));
        continue;
      }
      if (generated->plan.family == KernelFamily::Empty) {
        ++cached; // no elements: nothing to compile, nothing missing
        continue;
      }
      CacheKey key = makeCacheKey(currentKeyFields(*generated, target));
      if (!byDigest.try_emplace(key.digest, kernels.size()).second) {
        ++cached; // its class's kernel is another spec's
        continue;
      }
      kernels.push_back({std::move(*generated), target, std::move(key), s});
    }
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < kernels.size(); i = next++) {
      const Kernel &k = kernels[i];
      auto stored = loadOrCompile(disk, k.generated, k.target, k.key);
      if (!stored)
        fail(k.spec, k.target, llvm::toString(stored.takeError()));
      else if (stored->fromDisk)
        ++cached;
      else if (!disk.writable())
        fail(k.spec, k.target, "compiled but not stored: the cache folder " + disk.folder() + " is not writable");
      else
        ++compiled;
    }
  };
  const unsigned n = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::min<size_t>(n, kernels.size()); ++j)
    threads.emplace_back(worker);
  for (auto &t : threads)
    t.join();
  std::sort(result.failures.begin(), result.failures.end());
  result.compiled = compiled;
  result.cached = cached;
  return result;
}

} // namespace scanjit
