#include "runtime/KernelRegistry.h"

namespace scanjit::detail {
namespace {

struct Registry {
  SingleFlightCache<KernelEntry> byKey;
  std::mutex textMutex;
  llvm::StringMap<KernelEntryPtr> byText; // "<arch> <spec text as given>"
  std::atomic<uint64_t> textHits{0}, diskHits{0}, compiles{0};
};

Registry &registry() {
  static Registry r;
  return r;
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
  // Stages live in dynamic shared memory, which may exceed the 48 KB default.
  if (plan.sharedBytes > 0)
    if (CUresult rc = api->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              int(plan.sharedBytes));
        rc != CUDA_SUCCESS)
      return driverError(rc, "cuFuncSetAttribute(" + compiled.entry + ", " +
                                 std::to_string(plan.sharedBytes) + " bytes of dynamic shared memory)");
  loaded_.push_back({ctx, fn});
  return fn;
}

llvm::Expected<CUdeviceptr> KernelEntry::allocateZeroed(const DriverApi &api, CUstream stream,
                                                        bool capturing) const {
  CUdeviceptr ptr = 0;
  // Under another stream's global-mode capture cuMemAlloc is refused unless
  // this thread relaxes its own mode for the call.
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  if (capturing)
    api.cuThreadExchangeStreamCaptureMode(&mode);
  CUresult rc = api.cuMemAlloc(&ptr, size_t(plan.workspaceBytes));
  if (capturing)
    api.cuThreadExchangeStreamCaptureMode(&mode);
  if (rc != CUDA_SUCCESS)
    return driverError(rc, "cuMemAlloc of " + std::to_string(plan.workspaceBytes) +
                               " bytes of kernel workspace for '" + specText + "'");
  // Zeroed in stream order before the first launch (under capture, by a node
  // of the graph), and never again: the kernels count their launches
  // (templates/scanjit/flagged_value.cuh).
  if (CUresult rc = api.cuMemsetD8Async(ptr, 0, size_t(plan.workspaceBytes), stream); rc != CUDA_SUCCESS) {
    api.cuMemFree(ptr);
    return driverError(rc, "cuMemsetD8Async of the kernel workspace for '" + specText + "'");
  }
  return ptr;
}

llvm::Expected<CUdeviceptr> KernelEntry::workspace(CUcontext ctx, CUstream stream) const {
  auto api = driver();
  if (!api)
    return api.takeError();
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (CUresult rc = api->cuStreamIsCapturing(stream, &capture); rc != CUDA_SUCCESS)
    return driverError(rc, "cuStreamIsCapturing (the launch's stream)");
  std::lock_guard<std::mutex> lock(mutex_);
  if (capture == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
    auto ptr = allocateZeroed(*api, stream, true);
    if (ptr)
      capturedWorkspaces_.push_back(*ptr);
    return ptr;
  }
  for (const Workspace &w : workspaces_)
    if (w.ctx == ctx && w.stream == stream)
      return w.ptr;
  auto ptr = allocateZeroed(*api, stream, false);
  if (ptr)
    workspaces_.push_back({ctx, stream, *ptr});
  return ptr;
}

llvm::Expected<KernelEntryPtr> findOrCompile(const ScanSpec &spec, const Target &target) {
  auto generated = generateKernel(spec, target);
  if (!generated)
    return generated.takeError();
  CacheKey key = makeCacheKey(currentKeyFields(*generated, target));
  Registry &r = registry();
  return r.byKey.get(key.digest, [&]() -> llvm::Expected<KernelEntryPtr> {
    auto entry = std::make_shared<KernelEntry>();
    if (generated->plan.family != KernelFamily::Empty) {
      auto disk = processDiskCache();
      if (!disk)
        return disk.takeError();
      auto stored = loadOrCompile(*disk, *generated, target, key);
      if (!stored)
        return stored.takeError();
      ++(stored->fromDisk ? r.diskHits : r.compiles);
      entry->compiled = std::move(stored->kernel);
    }
    entry->spec = generated->spec;
    entry->plan = generated->plan;
    entry->key = std::move(key);
    entry->specText = entry->spec.toString();
    entry->planText = entry->plan.toString();
    return KernelEntryPtr(std::move(entry));
  });
}

llvm::Expected<KernelEntryPtr> findOrCompile(llvm::StringRef specText, const Target &target) {
  Registry &r = registry();
  llvm::SmallString<128> textKey(target.name());
  textKey += ' ';
  textKey += specText;
  {
    std::lock_guard<std::mutex> lock(r.textMutex);
    auto it = r.byText.find(textKey);
    if (it != r.byText.end()) {
      ++r.textHits;
      return it->second;
    }
  }
  auto spec = parseSpec(specText);
  if (!spec)
    return spec.takeError();
  auto entry = findOrCompile(*spec, target);
  if (!entry)
    return entry.takeError();
  std::lock_guard<std::mutex> lock(r.textMutex);
  r.byText.try_emplace(textKey, *entry);
  return *entry;
}

RegistryStats registryStats() {
  Registry &r = registry();
  MemoryCacheStats m = r.byKey.stats();
  RegistryStats s;
  s.memoryHits = r.textHits + m.hits;
  s.waits = m.waits;
  s.diskHits = r.diskHits;
  s.compiles = r.compiles;
  return s;
}

} // namespace scanjit::detail
