// Compile-time geometry of the lines a kernel scans. Every non-scanned
// dimension is a Dim with its size and its element stride in the input, the
// output and the mask; a line index decomposes into offsets with divisions by
// constants (multiply-shift), innermost dimension first.
//
// The outermost line dim's size may instead be a launch argument (the
// batch; size 0 here, `batch=launch` in the plan): nothing in a kernel's
// code depends on it, so one kernel serves every batch of its shape class.
// Kernels take their line count from Lines::count(batch), never from a
// constant.
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

template <class Index> struct Offsets {
  Index in, out, mask;
};

// kSize_ == 0: the size is the launch's batch (outermost dim only).
template <long long kSize_, long long kIn_, long long kOut_, long long kMask_> struct Dim {
  static constexpr long long kSize = kSize_;
  static constexpr long long kIn = kIn_;
  static constexpr long long kOut = kOut_;
  static constexpr long long kMask = kMask_;
};

template <class... Ds> struct DimList;

template <> struct DimList<> {
  static constexpr bool kRuntimeBatch = false;
  __host__ __device__ static constexpr long long count(long long) { return 1; }
  __host__ __device__ static constexpr long long in_span(long long) { return 0; }
  __host__ __device__ static constexpr long long mask_span(long long) { return 0; }
  __host__ __device__ static constexpr bool out_strides_in_words(long long) { return true; }
  template <class Index> static __device__ __forceinline__ void add(Index &, Offsets<Index> &) {}
};

template <class D, class... Rest> struct DimList<D, Rest...> {
  typedef DimList<Rest...> Inner;
  static_assert(!Inner::kRuntimeBatch, "only the outermost line dim's size may be a launch argument");
  static constexpr bool kRuntimeBatch = D::kSize == 0;
  __host__ __device__ static constexpr long long size(long long batch) { return kRuntimeBatch ? batch : D::kSize; }
  // Lines in all, for a launch of `batch` (ignored unless kRuntimeBatch).
  __host__ __device__ static constexpr long long count(long long batch) { return size(batch) * Inner::count(0); }
  // Elements from a tensor's first to its last, less one (strides are never
  // negative), for `lines` lines in all.
  __host__ __device__ static constexpr long long in_span(long long lines) {
    return (lines / Inner::count(0) - 1) * D::kIn + Inner::in_span(Inner::count(0));
  }
  __host__ __device__ static constexpr long long mask_span(long long lines) {
    return (lines / Inner::count(0) - 1) * D::kMask + Inner::mask_span(Inner::count(0));
  }
  // Whether every output stride, of elements of `bytes` bytes, is a whole
  // number of 16-byte words.
  __host__ __device__ static constexpr bool out_strides_in_words(long long bytes) {
    return (D::kOut * bytes) % 16 == 0 && Inner::out_strides_in_words(bytes);
  }
  template <class Index>
  static __device__ __forceinline__ void add(Index &line, Offsets<Index> &o) {
    Inner::add(line, o);
    Index i = line; // the outermost dim's index is what is left
    if constexpr (!kRuntimeBatch) {
      i = line % Index(D::kSize);
      line /= Index(D::kSize);
    }
    o.in += i * Index(D::kIn);
    o.out += i * Index(D::kOut);
    o.mask += i * Index(D::kMask);
  }
};

// The innermost dim of a DimList (a size-1 Dim when there is none).
template <class Lines> struct LastDim {
  typedef Dim<1, 0, 0, 0> type;
};
template <class D> struct LastDim<DimList<D>> {
  typedef D type;
};
template <class D, class E, class... Rest> struct LastDim<DimList<D, E, Rest...>> : LastDim<DimList<E, Rest...>> {};

template <class Index, class Lines>
__device__ __forceinline__ Offsets<Index> line_offsets(Index line) {
  Offsets<Index> o = {0, 0, 0};
  Lines::add(line, o);
  return o;
}

// The start of the last 16-byte word of a problem's input and mask (a scan
// of P::kLength steps of P::Inner::kSize elements, columns or 1, on `lines`
// lines; strides are never negative): bulk copies of whole words stop
// there, since a tensor's last word may end its allocation, and the
// issuing thread copies the elements past it itself (copy_run_as_words).
// (MaskItem: a mask element's type, a packed item's lanes for PackedLanes.)
template <class P, class MaskItem = u8> struct TensorLastWords {
  u64 in, mask;
  __device__ __forceinline__ TensorLastWords(const typename P::In *in_, const u8 *mask_, long long lines) {
    const long long in_span =
        (P::kLength - 1) * P::Scan::kIn + (P::Inner::kSize - 1) * P::Inner::kIn + P::Lines::in_span(lines);
    const long long mask_span =
        (P::kLength - 1) * P::Scan::kMask + (P::Inner::kSize - 1) * P::Inner::kMask + P::Lines::mask_span(lines);
    in = reinterpret_cast<u64>(in_ + in_span + 1) & ~u64(15);
    mask = reinterpret_cast<u64>(reinterpret_cast<const MaskItem *>(mask_) + mask_span + 1) & ~u64(15);
  }
};

} // namespace scanjit
