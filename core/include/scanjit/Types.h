// Value types of the public API: element types, scan operators, and a
// reference to a tensor in device memory.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace scanjit {

enum class DType : uint8_t { F16, BF16, F32, F64, U8, I8, I16, I32, I64, Bool };

enum class ScanOp : uint8_t { Sum, Prod, Max, Min, LogSumExp };

inline constexpr int kMaxRank = 8;

/// A CUDA stream (CUstream or cudaStream_t; null is the legacy default stream).
using Stream = void *;

/// A tensor in device memory: pointer to element [0,...,0], element type,
/// sizes and element strides. Fixed capacity, so building one never allocates.
struct TensorRef {
  void *data = nullptr;
  DType dtype = DType::F32;
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {}; // in elements

  /// A row-major contiguous tensor.
  static TensorRef contiguous(void *data, DType dtype, std::initializer_list<int64_t> sizes) {
    TensorRef t;
    t.data = data;
    t.dtype = dtype;
    for (int64_t s : sizes)
      if (t.rank < kMaxRank)
        t.sizes[t.rank++] = s;
    int64_t stride = 1;
    for (int d = t.rank - 1; d >= 0; --d) {
      t.strides[d] = stride;
      stride *= t.sizes[d] > 0 ? t.sizes[d] : 1;
    }
    return t;
  }
  /// The same tensor with other element strides.
  TensorRef withStrides(std::initializer_list<int64_t> s) const {
    TensorRef t = *this;
    int d = 0;
    for (int64_t v : s)
      if (d < kMaxRank)
        t.strides[d++] = v;
    return t;
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < rank; ++d)
      n *= sizes[d];
    return n;
  }
};

} // namespace scanjit
