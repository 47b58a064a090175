#include "runtime/KernelRegistry.h"
#include "compiler/Emitter.h"
#include "compiler/Planner.h"
#include "runtime/Workspaces.h"

namespace scanjit::detail {
namespace {

struct Registry {
  SingleFlightCache<ClassKernel> byKey; // shape classes' kernels, by cache key digest
  std::mutex specMutex;
  llvm::StringMap<KernelEntryPtr> bySpec; // "<arch> <canonical spec text>"
  llvm::StringMap<KernelEntryPtr> byText; // "<arch> <spec text as given>"
  std::atomic<uint64_t> specHits{0}, diskHits{0}, compiles{0};
};

Registry &registry() {
  static Registry r;
  return r;
}

KernelEntryPtr findEntry(llvm::StringMap<KernelEntryPtr> &map, llvm::StringRef key) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.specMutex);
  auto it = map.find(key);
  if (it == map.end())
    return nullptr;
  ++r.specHits;
  return it->second;
}

KernelEntryPtr rememberEntry(llvm::StringMap<KernelEntryPtr> &map, llvm::StringRef key, KernelEntryPtr entry) {
  std::lock_guard<std::mutex> lock(registry().specMutex);
  return map.try_emplace(key, std::move(entry)).first->second; // a racing thread's entry wins
}

// The class's kernel: from memory, else the disk cache, else NVRTC (the
// source is emitted only then).
llvm::Expected<std::shared_ptr<const ClassKernel>> classKernel(const ScanSpec &spec, const KernelPlan &plan,
                                                               const Target &target) {
  CacheKey key = makeCacheKey(currentKeyFields(GeneratedKernel{spec, plan, ""}, target));
  Registry &r = registry();
  return r.byKey.get(key.digest, [&]() -> llvm::Expected<std::shared_ptr<const ClassKernel>> {
    auto source = emitKernelSource(spec, plan);
    if (!source)
      return source.takeError();
    auto disk = processDiskCache();
    if (!disk)
      return disk.takeError();
    auto stored = loadOrCompile(*disk, GeneratedKernel{spec, plan, std::move(*source)}, target, key);
    if (!stored)
      return stored.takeError();
    ++(stored->fromDisk ? r.diskHits : r.compiles);
    auto kernel = std::make_shared<ClassKernel>();
    kernel->compiled = std::move(stored->kernel);
    kernel->key = std::move(key);
    kernel->sharedBytes = plan.sharedBytes;
    return std::shared_ptr<const ClassKernel>(std::move(kernel));
  });
}

// A new entry for `spec` planned as `plan`, with its class's kernel (none
// for an Empty plan), remembered by spec under `key` (a racing thread's
// entry wins). Allocated only on a miss: a hit is the per-call path.
llvm::Expected<KernelEntryPtr> newEntry(llvm::StringRef key, const ScanSpec &spec, std::string specText,
                                        const Target &target, llvm::Expected<KernelPlan> plan) {
  if (!plan)
    return plan.takeError();
  auto entry = std::make_shared<KernelEntry>();
  entry->spec = spec;
  entry->target = target;
  entry->specText = std::move(specText);
  entry->plan = std::move(*plan);
  if (entry->plan.family != KernelFamily::Empty) {
    auto kernel = classKernel(spec, entry->plan, target);
    if (!kernel)
      return kernel.takeError();
    entry->kernel = std::move(*kernel);
  }
  entry->planText = entry->plan.toString();
  return rememberEntry(registry().bySpec, key, std::move(entry));
}

} // namespace

llvm::Expected<CUfunction> ClassKernel::function(CUcontext ctx) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto &[c, f] : loaded_)
    if (c == ctx)
      return f;
  auto api = driver();
  if (!api)
    return api.takeError();
  CUmodule module = nullptr;
  // (Run as another arch: its PTX, which the driver compiles for this GPU.)
  const bool fromPtx = runsAsAnotherArch();
  if (fromPtx && compiled.ptx.empty())
    return makeError(ErrorCode::Internal, "SCANJIT_RUN_ARCH: " + compiled.entry + " has no PTX");
  if (CUresult rc = api->cuModuleLoadData(&module, fromPtx ? compiled.ptx.c_str() : compiled.cubin.data());
      rc != CUDA_SUCCESS)
    return driverError(rc, "cuModuleLoadData for " + compiled.entry + " (" + compiled.target.name() + ")");
  CUfunction fn = nullptr;
  if (CUresult rc = api->cuModuleGetFunction(&fn, module, compiled.entry.c_str()); rc != CUDA_SUCCESS)
    return driverError(rc, "cuModuleGetFunction(" + compiled.entry + ")");
  // Stages live in dynamic shared memory, which may exceed the 48 KB default.
  if (sharedBytes > 0)
    if (CUresult rc = api->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              int(sharedBytes));
        rc != CUDA_SUCCESS)
      return driverError(rc, "cuFuncSetAttribute(" + compiled.entry + ", " +
                                 std::to_string(sharedBytes) + " bytes of dynamic shared memory)");
  loaded_.push_back({ctx, fn});
  return fn;
}

llvm::Expected<const KernelEntry *> KernelEntry::offGridEntry() const {
  if (const KernelEntry *known = offGrid_.load(std::memory_order_acquire))
    return known;
  Registry &r = registry();
  llvm::SmallString<128> key(target.name());
  key += " off_grid ";
  key += specText;
  KernelEntryPtr entry = findEntry(r.bySpec, key);
  if (!entry) {
    auto made = newEntry(key, spec, specText, target, planForTarget(spec, target, /*offGrid=*/true));
    if (!made)
      return made.takeError();
    entry = std::move(*made);
  }
  offGrid_.store(entry.get(), std::memory_order_release);
  return entry.get();
}

llvm::Expected<CUdeviceptr> KernelEntry::workspace(CUcontext ctx, CUstream stream) const {
  return workspaceFor(this, size_t(plan.workspaceBytes), ctx, stream, specText);
}

llvm::Expected<KernelEntryPtr> findOrCompile(const ScanSpec &spec, const Target &target) {
  Registry &r = registry();
  std::string specText = spec.toString();
  llvm::SmallString<128> specKey(target.name());
  specKey += ' ';
  specKey += specText;
  if (KernelEntryPtr hit = findEntry(r.bySpec, specKey))
    return hit;
  return newEntry(specKey, spec, std::move(specText), target, planForTarget(spec, target));
}

llvm::Expected<KernelEntryPtr> findOrCompile(llvm::StringRef specText, const Target &target) {
  Registry &r = registry();
  llvm::SmallString<128> textKey(target.name());
  textKey += ' ';
  textKey += specText;
  if (KernelEntryPtr hit = findEntry(r.byText, textKey))
    return hit;
  auto spec = parseSpec(specText);
  if (!spec)
    return spec.takeError();
  auto entry = findOrCompile(*spec, target);
  if (!entry)
    return entry.takeError();
  return rememberEntry(r.byText, textKey, *entry);
}

RegistryStats registryStats() {
  Registry &r = registry();
  MemoryCacheStats m = r.byKey.stats();
  RegistryStats s;
  s.memoryHits = r.specHits + m.hits;
  s.waits = m.waits;
  s.diskHits = r.diskHits;
  s.compiles = r.compiles;
  return s;
}

} // namespace scanjit::detail
