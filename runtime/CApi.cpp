// The C API (scanjit/scanjit.h): exceptions become status codes, the message
// is kept per thread for scanjit_last_error().
#include "scanjit/scanjit.h"
#include "scanjit/Scan.h"

#include <new>
#include <string>

struct scanjit_kernel {
  scanjit::Kernel kernel;
};

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

} // namespace

extern "C" {

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

const char *scanjit_last_error(void) { return lastError.c_str(); }

const char *scanjit_version(void) { return SCANJIT_VERSION_STRING; }

} // extern "C"
