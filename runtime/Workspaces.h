// Device scratch for look-back and column-piece launches, bounded.
//
// A workspace is zeroed once, when allocated, and then belongs to one
// (owner, context, stream ID): its kernels count their launches in it
// (templates/scanjit/flagged_value.cuh), so the launches sharing one must
// run in order and with one plan. Workspaces are kept for reuse, at most
// kMaxWorkspaces and SCANJIT_WORKSPACE_MAX_BYTES (default 256 MiB) of them
// per process: past either, the context is synchronized (nothing may still
// use them) and the least recently used half of its workspaces is freed; an
// owner whose workspace went gets a fresh one on its next launch. A host
// that creates a stream per request so keeps a bounded set, not one per
// stream it ever used.
//
// A launch on a stream under CUDA graph capture gets scratch of its own,
// zeroed by a node of the graph and never handed out again (the graph may
// replay on any stream). The graph holds it through a CUDA user object:
// when the graph and its executions are gone, the object's destructor (on a
// driver thread, where CUDA calls are not allowed) queues it, and the next
// workspace request frees it.
#pragma once

#include "runtime/DriverApi.h"

#include <cstdint>
#include <string>

namespace scanjit::detail {

inline constexpr size_t kMaxWorkspaces = 64;

/// The workspace of `bytes` for `owner`'s launches on `stream` in `ctx` (the
/// current context). `what` names the kernel in errors.
llvm::Expected<CUdeviceptr> workspaceFor(const void *owner, size_t bytes, CUcontext ctx, CUstream stream,
                                         const std::string &what);

struct WorkspaceStats {
  size_t kept = 0;       // workspaces kept for reuse
  size_t keptBytes = 0;
  size_t captured = 0;   // held by captured graphs (not yet freed)
  uint64_t evictions = 0; // times the least recently used were freed
};
WorkspaceStats workspaceStats();

} // namespace scanjit::detail
