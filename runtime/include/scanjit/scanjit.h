/* The scanjit C API: status codes and a per-thread last-error text, for
 * callers in C, Python (ctypes), Rust, Julia... Specs are the canonical text
 * (see DESIGN.md); tensors are bare device pointers laid out as the spec says.
 */
#ifndef SCANJIT_C_API_H
#define SCANJIT_C_API_H

#ifdef __cplusplus
extern "C" {
#endif

/* Values match scanjit::ErrorCode. */
typedef enum scanjit_status {
  SCANJIT_OK = 0,
  SCANJIT_INVALID_SPEC = 1,
  SCANJIT_UNSUPPORTED = 2,
  SCANJIT_INVALID_ARGUMENT = 3,
  SCANJIT_COMPILE_FAILED = 4,
  SCANJIT_NO_DRIVER = 5,
  SCANJIT_NO_DEVICE = 6,
  SCANJIT_DRIVER_ERROR = 7,
  SCANJIT_CACHE_ERROR = 8,
  SCANJIT_INTERNAL = 9
} scanjit_status;

typedef struct scanjit_kernel scanjit_kernel;

/* Compiles (or finds) and loads the kernel for `spec`; *kernel is set on success. */
scanjit_status scanjit_prepare(const char *spec, scanjit_kernel **kernel);
/* Launches a prepared kernel on `stream` (a CUstream; NULL for the default stream). */
scanjit_status scanjit_launch(const scanjit_kernel *kernel, void *out, const void *in,
                              const void *mask, void *stream);
/* prepare + launch in one call. */
scanjit_status scanjit_scan(const char *spec, void *out, const void *in, const void *mask,
                            void *stream);
void scanjit_release(scanjit_kernel *kernel);
/* The canonical plan text of a kernel (valid while the kernel lives). */
const char *scanjit_kernel_plan(const scanjit_kernel *kernel);
/* The message of this thread's last failed call ("" if none). */
const char *scanjit_last_error(void);
/* The library's version, "MAJOR.MINOR.PATCH". */
const char *scanjit_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SCANJIT_C_API_H */
