/* The scanjit C API: status codes and a per-thread last-error text, for
 * callers in C, Python (ctypes), Rust, Julia... Specs are the canonical text
 * (see docs/specs.md); tensors are bare device pointers laid out as the spec says.
 */
#ifndef SCANJIT_C_API_H
#define SCANJIT_C_API_H

#include <stddef.h>
#include <stdint.h>

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

/* Values match scanjit::DType and scanjit::ScanOp. */
typedef enum scanjit_dtype {
  SCANJIT_F16, SCANJIT_BF16, SCANJIT_F32, SCANJIT_F64, SCANJIT_U8,
  SCANJIT_I8, SCANJIT_I16, SCANJIT_I32, SCANJIT_I64, SCANJIT_BOOL
} scanjit_dtype;
typedef enum scanjit_op { SCANJIT_SUM, SCANJIT_PROD, SCANJIT_MAX, SCANJIT_MIN, SCANJIT_LOGSUMEXP } scanjit_op;

/* Flags of scanjit_spec_for. */
enum { SCANJIT_REVERSE = 1, SCANJIT_EXCLUSIVE = 2 };

/* A tensor's layout: `rank` sizes and element strides (no data pointer). */
typedef struct scanjit_tensor {
  scanjit_dtype dtype;
  int rank;
  const int64_t *sizes;
  const int64_t *strides;
} scanjit_tensor;

/* The canonical spec of a scan of `in` into `out` along `dim` (`mask`: NULL,
 * or a bool tensor of in's sizes; `flags`: SCANJIT_REVERSE | SCANJIT_EXCLUSIVE).
 * Writes it, NUL-terminated, into `spec` when `capacity` is enough; *length
 * (if not NULL) receives its length without the NUL either way. */
scanjit_status scanjit_spec_for(scanjit_op op, const scanjit_tensor *out, const scanjit_tensor *in, int dim,
                                const scanjit_tensor *mask, unsigned flags, char *spec, size_t capacity,
                                size_t *length);

/* What the compiler makes of a spec for `arch` ("sm_90"; NULL or "": $SCANJIT_ARCH,
 * else the GPU present, else sm_90), without a GPU. */
typedef struct scanjit_resources {
  int registers;
  int spill_stores, spill_loads; /* bytes; -1: unknown (no ptxas report, and a stack frame) */
  int shared_bytes;              /* static */
  long long dynamic_shared_bytes;
  double compile_ms;
} scanjit_resources;
scanjit_status scanjit_inspect(const char *spec, const char *arch, scanjit_resources *resources);

/* Compiles `count` specs for `arch_count` archs (0: as scanjit_inspect) into the
 * disk cache under `cache_dir` (NULL or "": the $SCANJIT_* settings), `jobs` at a
 * time (0: every core); no GPU needed. *compiled and *cached (if not NULL) count
 * what was compiled and what was there already. If any spec fails, returns
 * SCANJIT_INVALID_SPEC with every failure in scanjit_last_error(), one a line
 * ("<n>: '<spec>' (sm_XX): why"). */
scanjit_status scanjit_precompile(const char *const *specs, size_t count, const char *const *archs,
                                  size_t arch_count, const char *cache_dir, unsigned jobs, size_t *compiled,
                                  size_t *cached);

/* Kernels this process found in memory, loaded from the disk cache, and compiled. */
typedef struct scanjit_stats {
  uint64_t memory_hits, disk_hits, compiles;
} scanjit_stats;
scanjit_status scanjit_runtime_stats(scanjit_stats *stats);

/* Compiles (or finds) and loads the kernel for `spec`; *kernel is set on success. */
scanjit_status scanjit_prepare(const char *spec, scanjit_kernel **kernel);
/* Launches a prepared kernel on `stream` (a CUstream; NULL for the default stream).
 * SCANJIT_INVALID_ARGUMENT, before anything runs, for a pointer the GPU cannot
 * reach (pageable host memory, a freed allocation) or an allocation too small
 * for its tensor. */
scanjit_status scanjit_launch(const scanjit_kernel *kernel, void *out, const void *in,
                              const void *mask, void *stream);
/* scanjit_launch without asking the driver about each pointer, for callers that
 * validated their buffers once (a bad pointer then faults the context). */
scanjit_status scanjit_launch_unchecked(const scanjit_kernel *kernel, void *out, const void *in,
                                        const void *mask, void *stream);
/* For a max/min spec with the `indices` flag: also each result's int64 index
 * along the scan dim (torch.cummax's; -1 before any kept element), at the
 * output's strides. scanjit_launch refuses such a spec. */
scanjit_status scanjit_launch_with_indices(const scanjit_kernel *kernel, void *out, int64_t *indices,
                                          const void *in, const void *mask, void *stream);
/* prepare + launch in one call. */
scanjit_status scanjit_scan(const char *spec, void *out, const void *in, const void *mask,
                            void *stream);
void scanjit_release(scanjit_kernel *kernel);
/* The canonical plan / spec text of a kernel (valid while the kernel lives). */
const char *scanjit_kernel_plan(const scanjit_kernel *kernel);
const char *scanjit_kernel_spec(const scanjit_kernel *kernel);
/* The message of this thread's last failed call ("" if none). */
const char *scanjit_last_error(void);
/* The library's version, "MAJOR.MINOR.PATCH". */
const char *scanjit_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SCANJIT_C_API_H */
