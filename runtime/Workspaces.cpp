#include "runtime/Workspaces.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace scanjit::detail {
namespace {

// Streams by their process-unique ID, not their handle: a destroyed
// stream's handle may come back for a new stream while the old one's
// launches still run, and two launches must never share a workspace at once
// (their tickets would mix and the look-back wait forever).
struct Key {
  const void *owner;
  CUcontext ctx;
  unsigned long long stream;
  friend bool operator<(const Key &a, const Key &b) {
    return std::tie(a.owner, a.ctx, a.stream) < std::tie(b.owner, b.ctx, b.stream);
  }
};

struct Kept {
  CUdeviceptr ptr;
  size_t bytes;
  uint64_t lastUse;
};

// A captured graph's workspace, handed to the user object's destructor.
struct Captured {
  CUdeviceptr ptr;
  CUcontext ctx;
};

struct Pool {
  std::mutex mutex;
  std::map<Key, Kept> kept;
  size_t keptBytes = 0;
  uint64_t tick = 0, evictions = 0;
  size_t captured = 0;
  std::mutex releasedMutex; // (the destructor thread's, apart from `mutex`)
  llvm::SmallVector<Captured *, 4> released;
  std::atomic<bool> anyReleased{false};
};

Pool &pool() {
  static Pool p;
  return p;
}

size_t maxBytes() {
  static const size_t bytes = [] {
    const char *env = std::getenv("SCANJIT_WORKSPACE_MAX_BYTES");
    if (env && *env) {
      char *end = nullptr;
      const unsigned long long v = std::strtoull(env, &end, 10);
      if (end && *end == '\0' && v > 0)
        return size_t(v);
    }
    return size_t(256) << 20;
  }();
  return bytes;
}

// Runs on a driver thread once a captured graph is gone: no CUDA calls here.
void CUDA_CB releaseCaptured(void *data) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.releasedMutex);
  p.released.push_back(static_cast<Captured *>(data));
  p.anyReleased = true;
}

// Frees the released captured workspaces of `ctx` (those of other contexts
// wait for a request there). Called with p.mutex held.
void freeReleased(const DriverApi &api, Pool &p, CUcontext ctx) {
  llvm::SmallVector<Captured *, 4> mine;
  {
    std::lock_guard<std::mutex> lock(p.releasedMutex);
    auto rest = std::stable_partition(p.released.begin(), p.released.end(),
                                      [&](const Captured *c) { return c->ctx != ctx; });
    mine.append(rest, p.released.end());
    p.released.erase(rest, p.released.end());
    p.anyReleased = !p.released.empty();
  }
  for (Captured *c : mine) {
    api.cuMemFree(c->ptr);
    delete c;
    --p.captured;
  }
}

// Relaxes this thread's stream-capture mode while it lives (when `relax`):
// under another stream's global-mode capture the driver refuses cuMemAlloc
// and cuCtxSynchronize from any thread that has not.
class RelaxedCaptureMode {
public:
  RelaxedCaptureMode(const DriverApi &api, bool relax) : api_(api), relax_(relax) {
    if (relax_)
      api_.cuThreadExchangeStreamCaptureMode(&mode_);
  }
  ~RelaxedCaptureMode() {
    if (relax_)
      api_.cuThreadExchangeStreamCaptureMode(&mode_);
  }
  RelaxedCaptureMode(const RelaxedCaptureMode &) = delete;
  RelaxedCaptureMode &operator=(const RelaxedCaptureMode &) = delete;

private:
  const DriverApi &api_;
  const bool relax_;
  CUstreamCaptureMode mode_ = CU_STREAM_CAPTURE_MODE_RELAXED; // then the mode to restore
};

// Past the bounds: once nothing in `ctx` runs, the least recently used half
// of its kept workspaces goes. Skipped (tried again at the next allocation)
// when the context cannot be synchronized now, as while another thread
// captures. Called with p.mutex held.
void evictIfOver(const DriverApi &api, Pool &p, CUcontext ctx) {
  if (p.kept.size() <= kMaxWorkspaces && p.keptBytes <= maxBytes())
    return;
  llvm::SmallVector<std::pair<uint64_t, Key>, 64> mine;
  for (const auto &[key, k] : p.kept)
    if (key.ctx == ctx)
      mine.push_back({k.lastUse, key});
  if (mine.size() < 2)
    return;
  CUresult rc;
  {
    RelaxedCaptureMode relaxed(api, true);
    rc = api.cuCtxSynchronize();
  }
  if (rc != CUDA_SUCCESS)
    return;
  std::sort(mine.begin(), mine.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t i = 0; i < mine.size() / 2; ++i) {
    auto it = p.kept.find(mine[i].second);
    api.cuMemFree(it->second.ptr);
    p.keptBytes -= it->second.bytes;
    p.kept.erase(it);
  }
  ++p.evictions;
}

// Zeroed in stream order before the first launch (under capture, by a node
// of the graph), and never again.
llvm::Expected<CUdeviceptr> allocateZeroed(const DriverApi &api, size_t bytes, CUstream stream, bool capturing,
                                           const std::string &what) {
  CUdeviceptr ptr = 0;
  CUresult rc;
  {
    RelaxedCaptureMode relaxed(api, capturing);
    rc = api.cuMemAlloc(&ptr, bytes);
  }
  if (rc != CUDA_SUCCESS)
    return driverError(rc, "cuMemAlloc of " + std::to_string(bytes) + " bytes of kernel workspace for '" + what + "'");
  if (CUresult rc = api.cuMemsetD8Async(ptr, 0, bytes, stream); rc != CUDA_SUCCESS) {
    api.cuMemFree(ptr);
    return driverError(rc, "cuMemsetD8Async of the kernel workspace for '" + what + "'");
  }
  return ptr;
}

// Scratch for one captured launch, held by the capture's graph.
llvm::Expected<CUdeviceptr> capturedWorkspace(const DriverApi &api, Pool &p, size_t bytes, CUcontext ctx,
                                              CUstream stream, const std::string &what) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  CUgraph graph = nullptr;
  if (CUresult rc = api.cuStreamGetCaptureInfo(stream, &status, nullptr, &graph, nullptr, nullptr, nullptr);
      rc != CUDA_SUCCESS || !graph)
    return driverError(rc != CUDA_SUCCESS ? rc : CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                       "cuStreamGetCaptureInfo (the capturing stream's graph, for '" + what + "')");
  auto ptr = allocateZeroed(api, bytes, stream, true, what);
  if (!ptr)
    return ptr.takeError();
  // (On failure the memory stays: the memset node already in the graph uses it.)
  auto captured = std::make_unique<Captured>(Captured{*ptr, ctx});
  CUuserObject object = nullptr;
  if (CUresult rc = api.cuUserObjectCreate(&object, captured.get(), releaseCaptured, 1,
                                           CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
      rc != CUDA_SUCCESS)
    return driverError(rc, "cuUserObjectCreate (the captured workspace of '" + what + "')");
  captured.release(); // the user object's now
  if (CUresult rc = api.cuGraphRetainUserObject(graph, object, 1, CU_GRAPH_USER_OBJECT_MOVE); rc != CUDA_SUCCESS)
    return driverError(rc, "cuGraphRetainUserObject (the captured workspace of '" + what + "')");
  ++p.captured;
  return *ptr;
}

} // namespace

llvm::Expected<CUdeviceptr> workspaceFor(const void *owner, size_t bytes, CUcontext ctx, CUstream stream,
                                         const std::string &what) {
  auto api = driver();
  if (!api)
    return api.takeError();
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (CUresult rc = api->cuStreamIsCapturing(stream, &capture); rc != CUDA_SUCCESS)
    return driverError(rc, "cuStreamIsCapturing (the launch's stream)");
  Pool &p = pool();
  if (capture == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
    std::lock_guard<std::mutex> lock(p.mutex);
    return capturedWorkspace(*api, p, bytes, ctx, stream, what);
  }
  unsigned long long streamId = 0;
  if (CUresult rc = api->cuStreamGetId(stream, &streamId); rc != CUDA_SUCCESS)
    return driverError(rc, "cuStreamGetId (the launch's stream)");
  const Key key{owner, ctx, streamId};
  std::lock_guard<std::mutex> lock(p.mutex);
  // (Not while capturing: cuMemFree may synchronize.)
  if (p.anyReleased)
    freeReleased(*api, p, ctx);
  auto it = p.kept.find(key); // (an owner's size never changes)
  if (it != p.kept.end()) {
    it->second.lastUse = ++p.tick;
    return it->second.ptr;
  }
  evictIfOver(*api, p, ctx);
  auto ptr = allocateZeroed(*api, bytes, stream, false, what);
  if (!ptr)
    return ptr.takeError();
  p.kept[key] = Kept{*ptr, bytes, ++p.tick};
  p.keptBytes += bytes;
  return ptr;
}

WorkspaceStats workspaceStats() {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  WorkspaceStats s;
  s.kept = p.kept.size();
  s.keptBytes = p.keptBytes;
  s.captured = p.captured;
  s.evictions = p.evictions;
  return s;
}

} // namespace scanjit::detail
