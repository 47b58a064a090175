// Compile-time geometry of the lines a kernel scans. Every non-scanned
// dimension is a Dim with its size and its element stride in the input, the
// output and the mask; a line index decomposes into offsets with divisions by
// constants (multiply-shift), innermost dimension first.
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

template <class Index> struct Offsets {
  Index in, out, mask;
};

template <long long kSize_, long long kIn_, long long kOut_, long long kMask_> struct Dim {
  static constexpr long long kSize = kSize_;
  static constexpr long long kIn = kIn_;
  static constexpr long long kOut = kOut_;
  static constexpr long long kMask = kMask_;
};

template <class... Ds> struct DimList;

template <> struct DimList<> {
  static constexpr long long kCount = 1;
  static constexpr long long kInSpan = 0, kMaskSpan = 0;
  __host__ __device__ static constexpr bool out_strides_multiple_of(long long) { return true; }
  template <class Index> static __device__ __forceinline__ void add(Index &, Offsets<Index> &) {}
};

template <class D, class... Rest> struct DimList<D, Rest...> {
  static constexpr long long kCount = D::kSize * DimList<Rest...>::kCount;
  // Elements from a tensor's first to its last, less one (strides are never negative).
  static constexpr long long kInSpan = (D::kSize - 1) * D::kIn + DimList<Rest...>::kInSpan;
  static constexpr long long kMaskSpan = (D::kSize - 1) * D::kMask + DimList<Rest...>::kMaskSpan;
  __host__ __device__ static constexpr bool out_strides_multiple_of(long long m) {
    return D::kOut % m == 0 && DimList<Rest...>::out_strides_multiple_of(m);
  }
  template <class Index>
  static __device__ __forceinline__ void add(Index &line, Offsets<Index> &o) {
    DimList<Rest...>::add(line, o);
    Index i = line % Index(D::kSize);
    line /= Index(D::kSize);
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

} // namespace scanjit
