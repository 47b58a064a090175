// Reading and writing single elements of any scanjit dtype in host memory,
// including f16/bf16 bit conversions (round to nearest even). Used by the
// CPU reference, the verifier and the random data generator.
#pragma once

#include "compiler/DType.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace scanjit::detail {

double halfBitsToDouble(uint16_t bits);
double bf16BitsToDouble(uint16_t bits);
uint16_t doubleToHalfBits(double v);
uint16_t doubleToBf16Bits(double v);

/// Element `index` of a host array of `t`, as a double (floats) ...
double loadAsDouble(const void *base, DType t, int64_t index);
/// ... or as an int64 (integers and bool).
int64_t loadAsInt(const void *base, DType t, int64_t index);

/// Stores `v` into element `index`, converting like a C cast (integers wrap).
void storeDouble(void *base, DType t, int64_t index, double v);
void storeInt(void *base, DType t, int64_t index, int64_t v);

/// Elements a tensor spans: 1 + sum((size-1)*stride), 0 if any size is 0.
int64_t extentElements(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> strides);

} // namespace scanjit::detail
