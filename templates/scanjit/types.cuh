// Storage types, numeric limits and conversions between a storage type and
// its accumulator. Self-contained (no CUDA headers) so NVRTC compiles fast.
#pragma once

namespace scanjit {

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned char u8;

// 16-bit floats and bool are stored as raw bits; conversions are explicit.
struct f16 { unsigned short bits; };
struct bf16 { unsigned short bits; };
struct boolean { unsigned char value; };

template <class T> struct Limits {
  static __device__ __forceinline__ T lowest();
  static __device__ __forceinline__ T highest();
};
#define SCANJIT_LIMITS(T, LO, HI)                                                   \
  template <> struct Limits<T> {                                                  \
    static __device__ __forceinline__ T lowest() { return LO; }                   \
    static __device__ __forceinline__ T highest() { return HI; }                  \
  };
SCANJIT_LIMITS(unsigned char, 0, 255)
SCANJIT_LIMITS(signed char, -128, 127)
SCANJIT_LIMITS(short, -32768, 32767)
SCANJIT_LIMITS(int, (-2147483647 - 1), 2147483647)
SCANJIT_LIMITS(i64, (-9223372036854775807LL - 1), 9223372036854775807LL)
#undef SCANJIT_LIMITS

__device__ __forceinline__ float positive_infinity(float) { return __int_as_float(0x7f800000); }
__device__ __forceinline__ double positive_infinity(double) {
  return __longlong_as_double(0x7ff0000000000000LL);
}
__device__ __forceinline__ float quiet_nan(float) { return __int_as_float(0x7fc00000); }
__device__ __forceinline__ double quiet_nan(double) { return __longlong_as_double(0x7ff8000000000000LL); }

template <class T> __device__ __forceinline__ bool is_nan(T x) { return x != x; }

// Convert<T>: storage T <-> accumulator A. The generic case is a C cast.
template <class T> struct Convert {
  template <class A> static __device__ __forceinline__ A load(T v) { return static_cast<A>(v); }
  template <class A> static __device__ __forceinline__ T store(A v) { return static_cast<T>(v); }
};

template <> struct Convert<f16> {
  template <class A> static __device__ __forceinline__ A load(f16 v) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
    return static_cast<A>(f);
  }
  static __device__ __forceinline__ f16 from(float v) {
    f16 h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(v));
    return h;
  }
  static __device__ __forceinline__ f16 from(double v) {
    f16 h;
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h.bits) : "d"(v));
    return h;
  }
  static __device__ __forceinline__ f16 from(i64 v) { return from(static_cast<double>(v)); }
  template <class A> static __device__ __forceinline__ f16 store(A v) { return from(v); }
};

template <> struct Convert<bf16> {
  template <class A> static __device__ __forceinline__ A load(bf16 v) {
    return static_cast<A>(__uint_as_float(static_cast<unsigned>(v.bits) << 16));
  }
  // Round to nearest even; NaN stays a (quiet) NaN. A double goes through
  // float first, which can round twice (only reachable with out=bf16).
  // From sm_80 one cvt does it; the bit arithmetic below cost 7 instructions
  // an element, which made bf16 stores issue-bound (BENCHMARKS.md).
  static __device__ __forceinline__ bf16 from(float v) {
    bf16 b;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b.bits) : "f"(v));
    return b;
#else
    unsigned u = __float_as_uint(v);
    if (is_nan(v)) {
      b.bits = static_cast<unsigned short>((u >> 16) | 0x40u);
      return b;
    }
    u += 0x7fffu + ((u >> 16) & 1u);
    b.bits = static_cast<unsigned short>(u >> 16);
    return b;
#endif
  }
  template <class A> static __device__ __forceinline__ bf16 store(A v) {
    return from(static_cast<float>(v));
  }
};

template <> struct Convert<boolean> {
  template <class A> static __device__ __forceinline__ A load(boolean v) {
    return static_cast<A>(v.value != 0);
  }
  template <class A> static __device__ __forceinline__ boolean store(A v) {
    boolean b;
    b.value = v != A(0);
    return b;
  }
};

// Bounds of a storage type seen as its accumulator (used by max/min identities).
template <class T, class A> struct AccLimits {
  static __device__ __forceinline__ A lowest() { return static_cast<A>(Limits<T>::lowest()); }
  static __device__ __forceinline__ A highest() { return static_cast<A>(Limits<T>::highest()); }
};
template <class A> struct AccLimits<boolean, A> {
  static __device__ __forceinline__ A lowest() { return A(0); }
  static __device__ __forceinline__ A highest() { return A(1); }
};
#define SCANJIT_FLOAT_LIMITS(T)                                                                  \
  template <class A> struct AccLimits<T, A> {                                                   \
    static __device__ __forceinline__ A lowest() { return -positive_infinity(A()); }            \
    static __device__ __forceinline__ A highest() { return positive_infinity(A()); }            \
  };
SCANJIT_FLOAT_LIMITS(f16)
SCANJIT_FLOAT_LIMITS(bf16)
SCANJIT_FLOAT_LIMITS(float)
SCANJIT_FLOAT_LIMITS(double)
#undef SCANJIT_FLOAT_LIMITS

// A if kFirst, else B (NVRTC compiles without the standard library).
template <bool kFirst, class A, class B> struct Select {
  typedef A type;
};
template <class A, class B> struct Select<false, A, B> {
  typedef B type;
};

} // namespace scanjit
