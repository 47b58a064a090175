// The scanjit runtime API.
//
//   scanjit::cumsum(out, in, /*dim=*/1, {.reverse = true, .stream = s});
//
//   scanjit::Kernel k = scanjit::prepare("sum f32[32768,32768] dim=1 mask");
//   for (...) k.launch(out, in, &mask, stream);   // no allocation, no compile
//
// Every function throws scanjit::Error. Kernels are compiled once per spec and
// GPU architecture (concurrent first requests compile once) and loaded once
// per CUDA context. The current context is used; with none current, device
// 0's primary context is retained and made current.
#pragma once

#include "scanjit/Error.h"
#include "scanjit/Types.h"

#include <memory>
#include <string>

namespace scanjit {

struct ScanOptions {
  bool reverse = false;
  bool exclusive = false;
  const TensorRef *mask = nullptr; // bool tensor with in's sizes, any strides
  Stream stream = nullptr;
};

/// out = scan of `in` along `dim` (negative counts from the end). out's
/// dtype is the output type; out must have in's sizes (any non-overlapping
/// strides).
void scan(ScanOp op, const TensorRef &out, const TensorRef &in, int dim,
          const ScanOptions &options = {});
void cumsum(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &options = {});
void cumprod(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &options = {});
void cummax(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &options = {});
void cummin(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &options = {});
void logcumsumexp(const TensorRef &out, const TensorRef &in, int dim,
                  const ScanOptions &options = {});

/// The canonical spec text (see docs/specs.md) of the scan these tensors describe.
std::string specFor(ScanOp op, const TensorRef &out, const TensorRef &in, int dim,
                    const ScanOptions &options = {});

namespace detail {
struct KernelEntry;
}

/// A compiled, loaded kernel for one spec.
class Kernel {
public:
  Kernel() = default;
  explicit operator bool() const { return entry_ != nullptr; }
  const std::string &spec() const;  // canonical spec text
  const std::string &plan() const;  // canonical plan text
  const std::string &entryName() const;

  /// Launches on `stream`. The tensors must match the spec (dtype, sizes,
  /// strides); pointers must be aligned to their element size and be device,
  /// managed or pinned host memory holding the whole tensor. Allocates
  /// nothing and compiles nothing: safe inside CUDA graph capture in a
  /// context where the kernel is loaded (prepare() loads it in the current
  /// one; the first launch in another context loads it there). Look-back
  /// plans (few long rows) also keep a small scratch buffer per stream,
  /// allocated by the first launch on that stream; a launch under capture
  /// gets one of its own, which the graph keeps (docs/runtime.md).
  void launch(const TensorRef &out, const TensorRef &in, const TensorRef *mask = nullptr,
              Stream stream = nullptr) const;
  /// The same with bare pointers: the layout is the spec's.
  void launch(void *out, const void *in, const void *mask, Stream stream) const;
  /// launch() without asking the driver whether each pointer is memory the
  /// GPU can reach with room for its tensor (launch() refuses a pageable
  /// host pointer or a freed allocation, which would fault and leave the
  /// context dead): for callers that validated their buffers once.
  void launchUnchecked(void *out, const void *in, const void *mask, Stream stream) const;
  /// For a max/min spec with `indices`: also each result's int64 index
  /// along the scan dim (torch.cummax's; -1 where no element is kept yet),
  /// laid out at the output's strides. Other launches of such a spec are
  /// refused, as is an `indices` pointer for a spec without the flag.
  void launchWithIndices(void *out, int64_t *indices, const void *in, const void *mask, Stream stream) const;

private:
  friend Kernel prepare(const std::string &);
  explicit Kernel(std::shared_ptr<const detail::KernelEntry> e) : entry_(std::move(e)) {}
  std::shared_ptr<const detail::KernelEntry> entry_;
};

/// Compiles (or finds) and loads the kernel for `spec` in the current context.
Kernel prepare(const std::string &spec);

/// Where this process's kernels came from (SCANJIT_LOG=2 logs each event).
struct RuntimeStats {
  uint64_t memoryHits = 0; // found in memory
  uint64_t diskHits = 0;   // loaded from the disk cache (SCANJIT_CACHE_DIR)
  uint64_t compiles = 0;   // compiled with NVRTC
};
RuntimeStats runtimeStats();

} // namespace scanjit
