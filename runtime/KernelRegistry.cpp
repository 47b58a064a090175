#include "runtime/KernelRegistry.h"

namespace scanjit::detail {
namespace {

SingleFlightCache<KernelEntry> &registry() {
  static SingleFlightCache<KernelEntry> cache;
  return cache;
}

} // namespace

llvm::Expected<CUfunction> KernelEntry::function(CUcontext ctx) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto &[c, f] : loaded_)
    if (c == ctx)
      return f;
  auto api = driver();
  if (!api)
    return api.takeError();
  CUmodule module = nullptr;
  if (CUresult rc = api->cuModuleLoadData(&module, compiled.cubin.data()); rc != CUDA_SUCCESS)
    return driverError(rc, "cuModuleLoadData for '" + specText + "' (" + compiled.target.name() + ")");
  CUfunction fn = nullptr;
  if (CUresult rc = api->cuModuleGetFunction(&fn, module, compiled.entry.c_str()); rc != CUDA_SUCCESS)
    return driverError(rc, "cuModuleGetFunction(" + compiled.entry + ")");
  loaded_.push_back({ctx, fn});
  return fn;
}

llvm::Expected<KernelEntryPtr> findOrCompile(const ScanSpec &spec, const Target &target) {
  auto generated = generateKernel(spec);
  if (!generated)
    return generated.takeError();
  CacheKey key = makeCacheKey(currentKeyFields(*generated, target));
  return registry().get(key.digest, [&]() -> llvm::Expected<KernelEntryPtr> {
    auto entry = std::make_shared<KernelEntry>();
    if (generated->plan.family != KernelFamily::Empty) {
      auto compiled = compileKernel(*generated, target);
      if (!compiled)
        return compiled.takeError();
      entry->compiled = std::move(*compiled);
    }
    entry->spec = generated->spec;
    entry->plan = generated->plan;
    entry->key = std::move(key);
    entry->specText = entry->spec.toString();
    entry->planText = entry->plan.toString();
    return KernelEntryPtr(std::move(entry));
  });
}

MemoryCacheStats registryStats() { return registry().stats(); }

} // namespace scanjit::detail
