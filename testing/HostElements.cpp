#include "testing/HostElements.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace scanjit::detail {
namespace {

template <class T> T read(const void *base, int64_t index) {
  T v;
  std::memcpy(&v, static_cast<const char *>(base) + index * sizeof(T), sizeof(T));
  return v;
}

template <class T> void write(void *base, int64_t index, T v) {
  std::memcpy(static_cast<char *>(base) + index * sizeof(T), &v, sizeof(T));
}

// Saturating double -> integer cast where C++ would be undefined; NaN -> 0.
template <class T> T castToInt(double v) {
  if (std::isnan(v))
    return 0;
  if (v <= double(std::numeric_limits<int64_t>::min()))
    return T(std::numeric_limits<int64_t>::min());
  if (v >= double(std::numeric_limits<int64_t>::max()))
    return T(std::numeric_limits<int64_t>::max());
  return T(int64_t(v));
}

} // namespace

double halfBitsToDouble(uint16_t bits) {
  const int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
  else
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -magnitude : magnitude;
}

double bf16BitsToDouble(uint16_t bits) {
  uint32_t u = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t doubleToHalfBits(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v))
    return 0x7e00;
  double a = std::fabs(v);
  if (a >= 65520.0) // rounds to infinity
    return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14)) { // subnormal: multiples of 2^-24
    double q = std::nearbyint(a * std::ldexp(1.0, 24)); // ties to even (default rounding)
    return sign | uint16_t(q);
  }
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  double q = std::nearbyint(std::ldexp(a, 11 - e)); // 11 significant bits
  if (q == 2048) {
    q = 1024;
    ++e;
  }
  if (e + 14 >= 31)
    return sign | 0x7c00;
  return sign | uint16_t((e + 14) << 10) | uint16_t(int(q) - 1024);
}

uint16_t doubleToBf16Bits(double v) {
  float f = float(v); // may round twice; the generator only stores exact values
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f))
    return uint16_t((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}

double loadAsDouble(const void *base, DType t, int64_t i) {
  switch (t) {
  case DType::F16: return halfBitsToDouble(read<uint16_t>(base, i));
  case DType::BF16: return bf16BitsToDouble(read<uint16_t>(base, i));
  case DType::F32: return read<float>(base, i);
  case DType::F64: return read<double>(base, i);
  default: return double(loadAsInt(base, t, i));
  }
}

int64_t loadAsInt(const void *base, DType t, int64_t i) {
  switch (t) {
  case DType::U8: return read<uint8_t>(base, i);
  case DType::I8: return read<int8_t>(base, i);
  case DType::I16: return read<int16_t>(base, i);
  case DType::I32: return read<int32_t>(base, i);
  case DType::I64: return read<int64_t>(base, i);
  case DType::Bool: return read<uint8_t>(base, i) != 0;
  default: return castToInt<int64_t>(loadAsDouble(base, t, i));
  }
}

void storeDouble(void *base, DType t, int64_t i, double v) {
  switch (t) {
  case DType::F16: return write<uint16_t>(base, i, doubleToHalfBits(v));
  case DType::BF16: return write<uint16_t>(base, i, doubleToBf16Bits(v));
  case DType::F32: return write<float>(base, i, float(v));
  case DType::F64: return write<double>(base, i, v);
  default: return storeInt(base, t, i, castToInt<int64_t>(v));
  }
}

void storeInt(void *base, DType t, int64_t i, int64_t v) {
  switch (t) {
  case DType::U8: return write<uint8_t>(base, i, uint8_t(v));
  case DType::I8: return write<int8_t>(base, i, int8_t(v));
  case DType::I16: return write<int16_t>(base, i, int16_t(v));
  case DType::I32: return write<int32_t>(base, i, int32_t(v));
  case DType::I64: return write<int64_t>(base, i, v);
  case DType::Bool: return write<uint8_t>(base, i, v != 0);
  default: return storeDouble(base, t, i, double(v));
  }
}

int64_t extentElements(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> strides) {
  int64_t extent = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0)
      return 0;
    extent += (shape[d] - 1) * strides[d];
  }
  return extent;
}

} // namespace scanjit::detail
