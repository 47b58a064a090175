// The process-wide set of compiled kernels: one per cache key (a shape
// class: plan, templates, compiler, arch), compiled once (single flight) and
// loaded lazily into each CUDA context that launches it; and one entry per
// spec, which launches its class's kernel with its own grid, batch and
// workspace.
#pragma once

#include "cache/CacheKey.h"
#include "cache/KernelStore.h"
#include "cache/MemoryCache.h"
#include "runtime/DriverApi.h"

#include <atomic>
#include <mutex>

namespace scanjit::detail {

/// A shape class's kernel (KernelPlan::classText): shared by every spec of
/// the class.
struct ClassKernel {
  CompiledKernel compiled;
  CacheKey key;
  int64_t sharedBytes = 0; // dynamic shared memory (the class's own)

  /// The kernel's function in `ctx`, loading the module there on first use.
  /// Modules stay loaded for the life of the process (contexts may be gone
  /// by the time static destructors run).
  llvm::Expected<CUfunction> function(CUcontext ctx) const;

private:
  mutable std::mutex mutex_;
  mutable llvm::SmallVector<std::pair<CUcontext, CUfunction>, 2> loaded_;
};

struct KernelEntry {
  ScanSpec spec;
  Target target;
  KernelPlan plan; // the spec's own: its grid, batch and workspace
  std::shared_ptr<const ClassKernel> kernel; // null for an Empty plan
  std::string specText, planText;

  llvm::Expected<CUfunction> function(CUcontext ctx) const { return kernel->function(ctx); }

  /// Whether the plan's bulk copies count on the input and mask pointers
  /// lying on the 16-byte grid (staged, not an edges plan).
  bool needsPointersOnTheGrid() const { return plan.stages > 0 && !plan.edges; }

  /// The spec's entry for launches whose input or mask pointer lies off the
  /// 16-byte grid where plan counts on it: planned as such (off_grid=1:
  /// edges plans, narrow columns unpacked), compiled on first need. The
  /// registry keeps it for the process, as it keeps this one.
  llvm::Expected<const KernelEntry *> offGridEntry() const;

  /// Device scratch of plan.workspaceBytes for launches on `stream` in
  /// `ctx` (runtime/Workspaces.h: zeroed once, kept per stream within
  /// bounds; under graph capture, the graph's own).
  llvm::Expected<CUdeviceptr> workspace(CUcontext ctx, CUstream stream) const;

private:
  mutable std::atomic<const KernelEntry *> offGrid_{nullptr};
};

using KernelEntryPtr = std::shared_ptr<const KernelEntry>;

/// The entry for a validated spec compiled for `target`: from memory, else
/// its class's kernel from memory, the disk cache, else NVRTC.
llvm::Expected<KernelEntryPtr> findOrCompile(const ScanSpec &spec, const Target &target);

/// The same keyed by spec text: a memory hit is one hash lookup (no parsing,
/// planning or hashing of the key).
llvm::Expected<KernelEntryPtr> findOrCompile(llvm::StringRef specText, const Target &target);

struct RegistryStats {
  uint64_t memoryHits = 0; // served from this process's memory (a spec seen before, or its class's kernel)
  uint64_t diskHits = 0;   // loaded from the disk cache
  uint64_t compiles = 0;   // compiled with NVRTC
  uint64_t waits = 0;      // waited for another thread's compile of the same key
};
RegistryStats registryStats();

} // namespace scanjit::detail
