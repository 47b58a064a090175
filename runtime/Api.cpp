// The public C++ runtime API (scanjit/Scan.h) over the kernel registry.
#include "scanjit/Scan.h"

#include "runtime/CallCache.h"
#include "runtime/Context.h"
#include "runtime/Errors.h"
#include "runtime/KernelRegistry.h"
#include "runtime/PointerCheck.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <mutex>
#include <tuple>

namespace scanjit {
namespace detail {
namespace {

[[noreturn]] void invalidArgument(const std::string &message) {
  throw Error(ErrorCode::InvalidArgument, message);
}

Dims dimsOf(const int64_t *values, int rank) { return Dims(values, values + rank); }

void checkRank(const TensorRef &t, const char *name) {
  if (t.rank < 0 || t.rank > kMaxRank)
    invalidArgument(llvm::formatv("{0} has rank {1}; expected 0..{2}", name, t.rank, kMaxRank));
}

// The tensors a prepared kernel is launched with must be the ones it was
// generated for: everything about their layout is compiled in.
void checkMatchesSpec(const TensorRef &t, DType dtype, const Dims &strides, const ScanSpec &spec,
                      const char *name) {
  checkRank(t, name);
  if (t.dtype != dtype)
    invalidArgument(llvm::formatv("{0} has dtype {1} but the kernel was built for {2} ({3})", name,
                                  dtypeName(t.dtype), dtypeName(dtype), spec.toString()));
  Dims sizes = dimsOf(t.sizes, t.rank);
  if (sizes != spec.shape)
    invalidArgument(llvm::formatv("{0} has sizes {1} but the kernel was built for {2} ({3})", name,
                                  listText(sizes), listText(spec.shape), spec.toString()));
  Dims given = dimsOf(t.strides, t.rank);
  if (given != strides)
    invalidArgument(llvm::formatv("{0} has strides {1} but the kernel was built for {2} ({3})", name,
                                  listText(given), listText(strides), spec.toString()));
}

void checkPointer(const void *p, DType dtype, bool needed, const char *name, const ScanSpec &spec) {
  if (!needed) {
    if (p)
      invalidArgument(llvm::formatv("{0} was given but the kernel takes none ({1})", name,
                                    spec.toString()));
    return;
  }
  if (!p)
    invalidArgument(llvm::formatv("{0} is a null pointer ({1})", name, spec.toString()));
  const int size = dtypeSize(dtype);
  if (reinterpret_cast<uintptr_t>(p) % size != 0)
    invalidArgument(llvm::formatv("{0} pointer {1} is not aligned to its {2}-byte elements", name,
                                  p, size));
}

// The runtime compiles for the device it runs on (SCANJIT_ARCH is for
// inspect and precompile, where no device decides), or as SCANJIT_RUN_ARCH
// asks (runTarget). Checked once per arch (and run arch: tests set it).
Target targetForDevice(int sm) {
  static std::mutex lock;
  static llvm::SmallVector<std::tuple<int, std::string, Target>, 2> known;
  const char *env = std::getenv("SCANJIT_RUN_ARCH");
  const llvm::StringRef run = env ? env : ""; // (compared, not copied, on the per-call path)
  std::lock_guard<std::mutex> guard(lock);
  for (const auto &[s, r, t] : known)
    if (s == sm && r == run)
      return t;
  auto target = runTarget(sm);
  if (!target && !run.empty())
    throwError(target.takeError());
  if (!target)
    throwError(makeError(ErrorCode::Unsupported, "this GPU (sm_" + std::to_string(sm) +
                                                     ") cannot be targeted: " +
                                                     llvm::toString(target.takeError())));
  known.push_back({sm, run.str(), *target});
  return *target;
}

template <class SpecOrText> KernelEntryPtr prepareEntry(const SpecOrText &spec) {
  ContextInfo ctx = unwrap(currentContext());
  KernelEntryPtr entry = unwrap(findOrCompile(spec, targetForDevice(ctx.sm)));
  if (entry->plan.family != KernelFamily::Empty)
    unwrap(entry->function(ctx.context));
  return entry;
}

enum class Access { Checked, Unchecked };

// The entry that launches with these pointers: staged plans bulk-copy
// their inputs, so pointers off the 16-byte grid take the spec's off-grid
// plan (KernelEntry::offGridEntry) instead of filling the stages thread by
// thread (f16[16777216] one element in: 3.9x copy).
const KernelEntry &entryForPointers(const KernelEntry &e, const void *in, const void *mask) {
  const auto bits = reinterpret_cast<uintptr_t>(in) | (e.spec.mask ? reinterpret_cast<uintptr_t>(mask) : 0);
  if (!(bits & 15) || !e.needsPointersOnTheGrid())
    return e;
  return *unwrap(e.offGridEntry());
}

// `ctx`: the current context, when the caller has it already; `indices`:
// the int64 indices of a max/min spec with `indices` (none for others).
void launchEntry(const KernelEntry &onTheGrid, void *out, const void *in, const void *mask, Stream stream,
                 Access access = Access::Checked, CUcontext ctx = nullptr, int64_t *indices = nullptr) {
  const ScanSpec &spec = onTheGrid.spec;
  if (onTheGrid.plan.family == KernelFamily::Empty)
    return; // no elements: any pointers will do
  checkPointer(in, spec.in, true, "in", spec);
  checkPointer(out, spec.out, true, "out", spec);
  checkPointer(mask, DType::Bool, spec.mask, "mask", spec);
  checkPointer(indices, DType::I64, spec.indices, "indices", spec);
  const KernelEntry &e = entryForPointers(onTheGrid, in, mask);
  if (!ctx)
    ctx = unwrap(currentContextHandle());
  if (access == Access::Checked) {
    checkDeviceAccessible(ctx, in, tensorSpanBytes(spec, spec.inStrides, spec.in), "in", spec);
    checkDeviceAccessible(ctx, out, tensorSpanBytes(spec, spec.outStrides, spec.out), "out", spec);
    if (spec.mask)
      checkDeviceAccessible(ctx, mask, tensorSpanBytes(spec, spec.maskStrides, DType::Bool), "mask", spec);
    if (spec.indices)
      checkDeviceAccessible(ctx, indices, tensorSpanBytes(spec, spec.outStrides, DType::I64), "indices", spec);
  }
  CUfunction fn = unwrap(e.function(ctx));
  const DriverApi &api = *driver();
  // Zeroed once, when first allocated for this stream: the kernels count
  // their launches by tickets (templates/scanjit/flagged_value.cuh).
  CUdeviceptr workspace = 0;
  if (e.plan.workspaceBytes > 0)
    workspace = unwrap(e.workspace(ctx, static_cast<CUstream>(stream)));
  long long batch = e.plan.launchBatch(); // the plan's batch where its class takes it at launch
  // (Kernels without indices take five parameters: the driver reads no more.)
  void *params[] = {&in, &mask, &out, &workspace, &batch, &indices};
  CUresult rc = api.cuLaunchKernel(fn, static_cast<unsigned>(e.plan.grid), 1, 1,
                                   static_cast<unsigned>(e.plan.threads), 1, 1,
                                   static_cast<unsigned>(e.plan.sharedBytes),
                                   static_cast<CUstream>(stream), params, nullptr);
  if (rc != CUDA_SUCCESS)
    throwError(driverError(rc, "cuLaunchKernel(" + e.plan.entry + ")"));
}

ScanSpec specFromTensors(ScanOp op, const TensorRef &out, const TensorRef &in, int dim,
                         const ScanOptions &options) {
  checkRank(in, "in");
  checkRank(out, "out");
  ScanSpec s;
  s.op = op;
  s.in = in.dtype;
  s.out = out.dtype;
  s.shape = dimsOf(in.sizes, in.rank);
  s.dim = dim;
  s.inStrides = dimsOf(in.strides, in.rank);
  if (dimsOf(out.sizes, out.rank) != s.shape)
    invalidArgument(llvm::formatv("out has sizes {0} but in has {1}", listText(dimsOf(out.sizes, out.rank)),
                                  listText(s.shape)));
  s.outStrides = dimsOf(out.strides, out.rank);
  if (const TensorRef *m = options.mask) {
    checkRank(*m, "mask");
    if (m->dtype != DType::Bool)
      invalidArgument(llvm::formatv("mask has dtype {0}; expected bool", dtypeName(m->dtype)));
    if (dimsOf(m->sizes, m->rank) != s.shape)
      invalidArgument(llvm::formatv("mask has sizes {0} but in has {1}",
                                    listText(dimsOf(m->sizes, m->rank)), listText(s.shape)));
    s.mask = true;
    s.maskStrides = dimsOf(m->strides, m->rank);
  }
  s.reverse = options.reverse;
  s.exclusive = options.exclusive;
  check(validateSpec(s));
  return s;
}

} // namespace
} // namespace detail

using namespace detail;

std::string specFor(ScanOp op, const TensorRef &out, const TensorRef &in, int dim,
                    const ScanOptions &options) {
  return specFromTensors(op, out, in, dim, options).toString();
}

void scan(ScanOp op, const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &options) {
  // A call like an earlier one (the pointers aside) finds its kernel by the
  // call's fields: no spec is built, validated, planned or hashed.
  const ContextInfo ctx = unwrap(currentContext());
  const int sm = ctx.sm;
  CallKey key;
  const bool keyed = callKey(op, out, in, dim, options, sm, key);
  KernelEntryPtr entry = keyed ? findByCall(key) : nullptr;
  if (!entry) {
    entry = prepareEntry(specFromTensors(op, out, in, dim, options));
    if (keyed)
      rememberCall(key, entry);
  }
  launchEntry(*entry, out.data, in.data, options.mask ? options.mask->data : nullptr, options.stream, Access::Checked,
              ctx.context);
}

void cumsum(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &o) {
  scan(ScanOp::Sum, out, in, dim, o);
}
void cumprod(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &o) {
  scan(ScanOp::Prod, out, in, dim, o);
}
void cummax(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &o) {
  scan(ScanOp::Max, out, in, dim, o);
}
void cummin(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &o) {
  scan(ScanOp::Min, out, in, dim, o);
}
void logcumsumexp(const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &o) {
  scan(ScanOp::LogSumExp, out, in, dim, o);
}

Kernel prepare(const std::string &specText) {
  return Kernel(prepareEntry(llvm::StringRef(specText)));
}

RuntimeStats runtimeStats() {
  RegistryStats r = registryStats();
  RuntimeStats s;
  s.memoryHits = r.memoryHits;
  s.diskHits = r.diskHits;
  s.compiles = r.compiles;
  return s;
}

static const KernelEntry &entryOf(const std::shared_ptr<const KernelEntry> &e) {
  if (!e)
    throw Error(ErrorCode::InvalidArgument, "this scanjit::Kernel is empty (not prepared)");
  return *e;
}

const std::string &Kernel::spec() const { return entryOf(entry_).specText; }
const std::string &Kernel::plan() const { return entryOf(entry_).planText; }
const std::string &Kernel::entryName() const { return entryOf(entry_).plan.entry; }

void Kernel::launch(const TensorRef &out, const TensorRef &in, const TensorRef *mask,
                    Stream stream) const {
  const KernelEntry &e = entryOf(entry_);
  checkMatchesSpec(in, e.spec.in, e.spec.inStrides, e.spec, "in");
  checkMatchesSpec(out, e.spec.out, e.spec.outStrides, e.spec, "out");
  if (mask && e.spec.mask)
    checkMatchesSpec(*mask, DType::Bool, e.spec.maskStrides, e.spec, "mask");
  launchEntry(e, out.data, in.data, mask ? mask->data : nullptr, stream);
}

void Kernel::launch(void *out, const void *in, const void *mask, Stream stream) const {
  launchEntry(entryOf(entry_), out, in, mask, stream);
}

void Kernel::launchUnchecked(void *out, const void *in, const void *mask, Stream stream) const {
  launchEntry(entryOf(entry_), out, in, mask, stream, Access::Unchecked);
}

void Kernel::launchWithIndices(void *out, int64_t *indices, const void *in, const void *mask, Stream stream) const {
  launchEntry(entryOf(entry_), out, in, mask, stream, Access::Checked, nullptr, indices);
}

} // namespace scanjit
