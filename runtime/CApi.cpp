// The C API (scanjit/scanjit.h): exceptions become status codes, the message
// is kept per thread for scanjit_last_error().
#include "scanjit/scanjit.h"
#include "scanjit/Inspect.h"
#include "scanjit/Precompile.h"
#include "scanjit/Scan.h"

#include <cstring>
#include <new>
#include <string>
#include <vector>

struct scanjit_kernel {
  scanjit::Kernel kernel;
};

static_assert(int(SCANJIT_BOOL) == int(scanjit::DType::Bool) && int(SCANJIT_I32) == int(scanjit::DType::I32),
              "scanjit_dtype follows scanjit::DType");
static_assert(int(SCANJIT_LOGSUMEXP) == int(scanjit::ScanOp::LogSumExp), "scanjit_op follows scanjit::ScanOp");

namespace {

thread_local std::string lastError;

template <class Fn> scanjit_status guarded(Fn fn) {
  try {
    fn();
    lastError.clear();
    return SCANJIT_OK;
  } catch (const scanjit::Error &e) {
    lastError = e.what();
    return static_cast<scanjit_status>(e.code());
  } catch (const std::bad_alloc &) {
    lastError = "out of host memory";
    return SCANJIT_INTERNAL;
  } catch (const std::exception &e) {
    lastError = std::string("internal error: ") + e.what();
    return SCANJIT_INTERNAL;
  }
}

[[noreturn]] void invalid(const std::string &message) {
  throw scanjit::Error(scanjit::ErrorCode::InvalidArgument, message);
}

scanjit::TensorRef layoutOf(const scanjit_tensor *t, const char *name) {
  if (!t)
    invalid(std::string("scanjit_spec_for: ") + name + " is NULL");
  if (t->rank < 0 || t->rank > scanjit::kMaxRank || (t->rank > 0 && (!t->sizes || !t->strides)))
    invalid(std::string("scanjit_spec_for: ") + name + " has rank " + std::to_string(t->rank) +
            " (0.." + std::to_string(scanjit::kMaxRank) + ") or NULL sizes/strides");
  if (unsigned(t->dtype) > unsigned(SCANJIT_BOOL))
    invalid(std::string("scanjit_spec_for: ") + name + " has dtype " + std::to_string(int(t->dtype)));
  scanjit::TensorRef r;
  r.dtype = static_cast<scanjit::DType>(t->dtype);
  r.rank = t->rank;
  for (int d = 0; d < t->rank; ++d) {
    r.sizes[d] = t->sizes[d];
    r.strides[d] = t->strides[d];
  }
  return r;
}

std::vector<std::string> strings(const char *const *values, size_t count, const char *what) {
  if (count && !values)
    invalid(std::string(what) + " is NULL");
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i) {
    if (!values[i])
      invalid(std::string(what) + "[" + std::to_string(i) + "] is NULL");
    out.push_back(values[i]);
  }
  return out;
}

} // namespace

extern "C" {

scanjit_status scanjit_spec_for(scanjit_op op, const scanjit_tensor *out, const scanjit_tensor *in, int dim,
                                const scanjit_tensor *mask, unsigned flags, char *spec, size_t capacity,
                                size_t *length) {
  return guarded([&] {
    if (unsigned(op) > unsigned(SCANJIT_LOGSUMEXP))
      invalid("scanjit_spec_for: op " + std::to_string(int(op)) + " is not a scanjit_op");
    scanjit::ScanOptions options;
    options.reverse = flags & SCANJIT_REVERSE;
    options.exclusive = flags & SCANJIT_EXCLUSIVE;
    scanjit::TensorRef maskRef;
    if (mask) {
      maskRef = layoutOf(mask, "mask");
      options.mask = &maskRef;
    }
    const std::string text =
        scanjit::specFor(static_cast<scanjit::ScanOp>(op), layoutOf(out, "out"), layoutOf(in, "in"), dim, options);
    if (length)
      *length = text.size();
    if (spec && capacity > text.size())
      std::memcpy(spec, text.c_str(), text.size() + 1);
    else if (spec && capacity)
      spec[0] = '\0';
  });
}

scanjit_status scanjit_inspect(const char *spec, const char *arch, scanjit_resources *resources) {
  return guarded([&] {
    if (!spec || !resources)
      invalid("scanjit_inspect: spec and resources must not be NULL");
    const scanjit::KernelReport r = scanjit::inspectKernel(spec, arch ? arch : "");
    resources->registers = r.registers;
    resources->spill_stores = r.spillStores;
    resources->spill_loads = r.spillLoads;
    resources->shared_bytes = r.sharedBytes;
    resources->dynamic_shared_bytes = r.dynamicSharedBytes;
    resources->compile_ms = r.compileMillis;
  });
}

scanjit_status scanjit_precompile(const char *const *specs, size_t count, const char *const *archs,
                                  size_t arch_count, const char *cache_dir, unsigned jobs, size_t *compiled,
                                  size_t *cached) {
  scanjit::PrecompileResult result;
  scanjit_status status = guarded([&] {
    result = scanjit::precompile(strings(specs, count, "scanjit_precompile: specs"),
                                 strings(archs, arch_count, "scanjit_precompile: archs"), cache_dir ? cache_dir : "",
                                 jobs);
  });
  if (compiled)
    *compiled = result.compiled;
  if (cached)
    *cached = result.cached;
  if (status == SCANJIT_OK && !result.failures.empty()) {
    lastError.clear();
    for (const std::string &f : result.failures)
      lastError += f + "\n";
    return SCANJIT_INVALID_SPEC;
  }
  return status;
}

scanjit_status scanjit_runtime_stats(scanjit_stats *stats) {
  return guarded([&] {
    if (!stats)
      invalid("scanjit_runtime_stats: stats is NULL");
    const scanjit::RuntimeStats s = scanjit::runtimeStats();
    stats->memory_hits = s.memoryHits;
    stats->disk_hits = s.diskHits;
    stats->compiles = s.compiles;
  });
}

scanjit_status scanjit_prepare(const char *spec, scanjit_kernel **kernel) {
  return guarded([&] {
    if (!spec || !kernel)
      throw scanjit::Error(scanjit::ErrorCode::InvalidArgument,
                           "scanjit_prepare: spec and kernel must not be NULL");
    auto holder = std::make_unique<scanjit_kernel>();
    holder->kernel = scanjit::prepare(spec);
    *kernel = holder.release();
  });
}

scanjit_status scanjit_launch(const scanjit_kernel *kernel, void *out, const void *in,
                              const void *mask, void *stream) {
  return guarded([&] {
    if (!kernel)
      throw scanjit::Error(scanjit::ErrorCode::InvalidArgument, "scanjit_launch: kernel is NULL");
    kernel->kernel.launch(out, in, mask, stream);
  });
}

scanjit_status scanjit_launch_unchecked(const scanjit_kernel *kernel, void *out, const void *in,
                                        const void *mask, void *stream) {
  return guarded([&] {
    if (!kernel)
      throw scanjit::Error(scanjit::ErrorCode::InvalidArgument, "scanjit_launch_unchecked: kernel is NULL");
    kernel->kernel.launchUnchecked(out, in, mask, stream);
  });
}

scanjit_status scanjit_launch_with_indices(const scanjit_kernel *kernel, void *out, int64_t *indices,
                                          const void *in, const void *mask, void *stream) {
  return guarded([&] {
    if (!kernel)
      throw scanjit::Error(scanjit::ErrorCode::InvalidArgument, "scanjit_launch_with_indices: kernel is NULL");
    kernel->kernel.launchWithIndices(out, indices, in, mask, stream);
  });
}

scanjit_status scanjit_scan(const char *spec, void *out, const void *in, const void *mask,
                            void *stream) {
  return guarded([&] {
    if (!spec)
      throw scanjit::Error(scanjit::ErrorCode::InvalidArgument, "scanjit_scan: spec is NULL");
    scanjit::prepare(spec).launch(out, in, mask, stream);
  });
}

void scanjit_release(scanjit_kernel *kernel) { delete kernel; }

const char *scanjit_kernel_plan(const scanjit_kernel *kernel) {
  return kernel && kernel->kernel ? kernel->kernel.plan().c_str() : "";
}

const char *scanjit_kernel_spec(const scanjit_kernel *kernel) {
  return kernel && kernel->kernel ? kernel->kernel.spec().c_str() : "";
}

const char *scanjit_last_error(void) { return lastError.c_str(); }

const char *scanjit_version(void) { return SCANJIT_VERSION_STRING; }

} // extern "C"
