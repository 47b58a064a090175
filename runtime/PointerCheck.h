// The launch path's check that a tensor's memory is the GPU's to read or
// write: a pageable host pointer or a freed allocation would otherwise make
// the kernel fault and leave the process's CUDA context dead.
#pragma once

#include "compiler/ScanSpec.h"

#include "cuda.h"

namespace scanjit::detail {

/// Bytes from a tensor's first element to the end of its last, for the
/// spec's sizes and these element strides; 0 where a stride is negative
/// (then only the first element's allocation is checked).
uint64_t tensorSpanBytes(const ScanSpec &spec, const Dims &strides, DType dtype);

/// Throws InvalidArgument naming `name` unless `p` is device memory of a
/// live allocation with `bytes` bytes from `p` inside it, managed memory, or
/// pinned host memory (all the GPU can reach), in `ctx`. One
/// cuPointerGetAttributes call; systems whose GPU reads pageable memory
/// (CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) accept any pointer.
void checkDeviceAccessible(CUcontext ctx, const void *p, uint64_t bytes, const char *name, const ScanSpec &spec);

} // namespace scanjit::detail
