// validateSpec: everything that makes a spec unservable is caught here, with
// a message that names the field and the value, before any planning happens.
#include "compiler/Diagnostics.h"
#include "compiler/ScanSpec.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace scanjit {
namespace {

using detail::makeErrorF;

llvm::Error checkStrides(Dims &strides, const Dims &shape, llvm::StringRef field) {
  if (strides.empty()) {
    strides = contiguousStrides(shape);
    return llvm::Error::success();
  }
  if (strides.size() != shape.size())
    return makeErrorF(ErrorCode::InvalidSpec,
                      "{0}={1} has {2} entries but the shape {3} has rank {4}", field,
                      listText(strides), strides.size(), listText(shape), shape.size());
  for (size_t i = 0; i < strides.size(); ++i)
    if (strides[i] < 0)
      return makeErrorF(ErrorCode::InvalidSpec,
                        "{0}={1}: stride {2} of dimension {3} is negative (not supported)",
                        field, listText(strides), strides[i], i);
  return llvm::Error::success();
}

// The largest element offset the tensor reaches, in bytes, must fit in int64.
llvm::Error checkExtent(const Dims &shape, const Dims &strides, int elemSize,
                        llvm::StringRef field) {
  int64_t extent = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0)
      return llvm::Error::success(); // empty tensors touch no memory
    int64_t span = 0;
    if (__builtin_mul_overflow(shape[i] - 1, strides[i], &span) ||
        __builtin_add_overflow(extent, span, &extent))
      return makeErrorF(ErrorCode::InvalidSpec, "{0}={1}: the largest offset overflows int64",
                        field, listText(strides));
  }
  int64_t bytes = 0;
  if (__builtin_add_overflow(extent, 1, &extent) ||
      __builtin_mul_overflow(extent, static_cast<int64_t>(elemSize), &bytes))
    return makeErrorF(ErrorCode::InvalidSpec,
                      "{0}={1}: the tensor's byte size overflows int64", field,
                      listText(strides));
  return llvm::Error::success();
}

// Distinct output indices must map to distinct addresses, or threads would
// race on one element. Sorting dims by stride, each stride must clear the
// extent of all smaller ones.
llvm::Error checkOutputDoesNotOverlap(const ScanSpec &spec) {
  llvm::SmallVector<std::pair<int64_t, int64_t>, kMaxRank> dims; // (stride, size)
  for (int i = 0; i < spec.rank(); ++i)
    if (spec.shape[i] > 1)
      dims.push_back({spec.outStrides[i], spec.shape[i]});
  llvm::sort(dims);
  int64_t reach = 0; // offsets [0, reach] are covered by the smaller dims
  for (auto [stride, size] : dims) {
    if (stride <= reach)
      return makeErrorF(ErrorCode::InvalidSpec,
                        "out_strides={0}: output elements overlap (stride {1} with size {2} "
                        "reuses offsets of smaller dimensions)",
                        listText(spec.outStrides), stride, size);
    reach += stride * (size - 1);
  }
  return llvm::Error::success();
}

llvm::Error checkTypes(const ScanSpec &spec) {
  if (spec.op == ScanOp::LogSumExp && !isFloating(spec.in))
    return makeErrorF(ErrorCode::InvalidSpec,
                      "logsumexp needs a floating input, got {0} (cast to f32 first)",
                      dtypeName(spec.in));
  if (isFloating(spec.in) && !isFloating(spec.out))
    return makeErrorF(ErrorCode::InvalidSpec,
                      "out={0} with {1} input: a floating scan needs a floating output",
                      dtypeName(spec.out), dtypeName(spec.in));
  bool boolKeepsType = (spec.op == ScanOp::Max || spec.op == ScanOp::Min) && spec.in == DType::Bool;
  if (spec.out == DType::Bool && !boolKeepsType)
    return makeErrorF(ErrorCode::InvalidSpec,
                      "out=bool is only valid for max/min of a bool input ({0} of {1} given)",
                      opName(spec.op), dtypeName(spec.in));
  return llvm::Error::success();
}

} // namespace

llvm::Error validateSpec(ScanSpec &spec) {
  if (spec.rank() > kMaxRank)
    return makeErrorF(ErrorCode::InvalidSpec, "rank {0} exceeds the maximum of {1}", spec.rank(),
                      kMaxRank);
  for (int i = 0; i < spec.rank(); ++i)
    if (spec.shape[i] < 0)
      return makeErrorF(ErrorCode::InvalidSpec, "shape {0}: size {1} of dimension {2} is negative",
                        listText(spec.shape), spec.shape[i], i);
  int64_t numel = 1;
  for (int64_t s : spec.shape)
    if (__builtin_mul_overflow(numel, s, &numel))
      return makeErrorF(ErrorCode::InvalidSpec, "shape {0}: the element count overflows int64",
                        listText(spec.shape));

  int rank = spec.rank();
  int lo = rank == 0 ? -1 : -rank, hi = rank == 0 ? 0 : rank - 1;
  if (spec.dim < lo || spec.dim > hi)
    return makeErrorF(ErrorCode::InvalidSpec,
                      "dim={0} is out of range for rank {1} (expected {2}..{3})", spec.dim, rank,
                      lo, hi);
  if (spec.dim < 0)
    spec.dim += std::max(rank, 1);

  if (llvm::Error e = checkTypes(spec))
    return e;
  if (spec.indices && spec.op != ScanOp::Max && spec.op != ScanOp::Min)
    return makeErrorF(ErrorCode::InvalidSpec, "'indices' is for max and min scans, not {0}", opName(spec.op));
  if (llvm::Error e = checkStrides(spec.inStrides, spec.shape, "strides"))
    return e;
  if (llvm::Error e = checkStrides(spec.outStrides, spec.shape, "out_strides"))
    return e;
  if (!spec.mask && !spec.maskStrides.empty())
    return makeErrorF(ErrorCode::InvalidSpec, "mask_strides given without the mask flag");
  if (spec.mask)
    if (llvm::Error e = checkStrides(spec.maskStrides, spec.shape, "mask_strides"))
      return e;
  if (llvm::Error e = checkExtent(spec.shape, spec.inStrides, dtypeSize(spec.in), "strides"))
    return e;
  if (llvm::Error e = checkExtent(spec.shape, spec.outStrides, dtypeSize(spec.out), "out_strides"))
    return e;
  if (spec.indices) // the indices (int64) lie at the output's strides
    if (llvm::Error e = checkExtent(spec.shape, spec.outStrides, 8, "out_strides (of the indices)"))
      return e;
  if (spec.mask)
    if (llvm::Error e = checkExtent(spec.shape, spec.maskStrides, 1, "mask_strides"))
      return e;
  return checkOutputDoesNotOverlap(spec);
}

} // namespace scanjit
