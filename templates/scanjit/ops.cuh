// Scan operators over an accumulator type Acc. `In` is the input's storage
// type: max/min take their identity from its range (so an exclusive max of u8
// starts at 0, not at the i64 minimum). combine(earlier, later) keeps the scan
// order, which makes results reproducible even where rounding depends on it.
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

__device__ __forceinline__ float wrapping_add(float a, float b) { return a + b; }
__device__ __forceinline__ double wrapping_add(double a, double b) { return a + b; }
__device__ __forceinline__ i64 wrapping_add(i64 a, i64 b) {
  return static_cast<i64>(static_cast<u64>(a) + static_cast<u64>(b)); // wraps like torch
}
// (int: sums and products of integers into at most 4 bytes, whose low 32
// bits are all they keep: accumulatorType.)
__device__ __forceinline__ int wrapping_add(int a, int b) {
  return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
}
__device__ __forceinline__ float wrapping_mul(float a, float b) { return a * b; }
__device__ __forceinline__ double wrapping_mul(double a, double b) { return a * b; }
__device__ __forceinline__ i64 wrapping_mul(i64 a, i64 b) {
  return static_cast<i64>(static_cast<u64>(a) * static_cast<u64>(b));
}
__device__ __forceinline__ int wrapping_mul(int a, int b) {
  return static_cast<int>(static_cast<unsigned>(a) * static_cast<unsigned>(b));
}

__device__ __forceinline__ float log1p_exp_neg(float d) { return log1pf(expf(d)); }
__device__ __forceinline__ double log1p_exp_neg(double d) { return log1p(exp(d)); }

template <class In, class Acc> struct SumOp {
  static __device__ __forceinline__ Acc identity() { return Acc(0); }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return wrapping_add(a, b); }
};

template <class In, class Acc> struct ProdOp {
  static __device__ __forceinline__ Acc identity() { return Acc(1); }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return wrapping_mul(a, b); }
};

// NaN is sticky (torch.cummax); on ties the later element wins, as in torch.
template <class In, class Acc> struct MaxOp {
  static __device__ __forceinline__ Acc identity() { return AccLimits<In, Acc>::lowest(); }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) {
    return is_nan(a) || b < a ? a : b; // (a NaN b fails b < a: it takes over)
  }
};

template <class In, class Acc> struct MinOp {
  static __device__ __forceinline__ Acc identity() { return AccLimits<In, Acc>::highest(); }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) {
    return is_nan(a) || b > a ? a : b;
  }
};

// log(exp(a) + exp(b)) without overflow; -inf is the identity, equal
// infinities stay themselves (as torch.logcumsumexp).
template <class In, class Acc> struct LogSumExpOp {
  static __device__ __forceinline__ Acc identity() { return -positive_infinity(Acc()); }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    Acc hi = a < b ? b : a;
    Acc lo = a < b ? a : b;
    if (lo == -positive_infinity(Acc()) || hi == positive_infinity(Acc()))
      return hi;
    return hi + log1p_exp_neg(lo - hi);
  }
};

// Ops whose combine is a few instructions: kernels may unroll it freely.
// Log-sum-exp's (an exp and a log1p with special cases) multiplies compile
// time and registers when unrolled over many rows.
template <class Op> struct CheapCombine {
  static constexpr bool value = true;
};
template <class In, class Acc> struct CheapCombine<LogSumExpOp<In, Acc>> {
  static constexpr bool value = false;
};

} // namespace scanjit
