// Coefficients of the double exp and log series (lse_math.cuh), kept in the
// constant bank and read through ld.const at a fixed offset, which ptxas
// folds into the DFMA as a c[bank][offset] operand. As immediates, a
// double constant cost two UMOVs at each unrolled use: a quarter of the f64
// log-sum-exp kernels' instructions (ncu, H100). Read as plain __constant__
// array elements, the loads tripled NVVM's time on those kernels (0.2 ->
// 1.0 s); the asm keeps them opaque to it.
//
// The tables sit at global scope, so the asm names them unmangled.
#pragma once

// 1/13!, 1/12!, ..., 1/2!: e^r's Taylor series from the top (exp_nonpositive).
__constant__ double scanjit_exp_series[12] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                                              1.0 / 362880.0,     1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,
                                              1.0 / 120.0,        1.0 / 24.0,        1.0 / 6.0,        0.5};
// -ln2 in two parts: its double, then the rest.
__constant__ double scanjit_minus_ln2[2] = {-6.93147180559945286227e-01, -2.31904681384629955842e-17};
// 2/19, 2/17, ..., 2/3: atanh's series in s^2 from the top (plus_log_positive).
__constant__ double scanjit_atanh_series[9] = {2.0 / 19, 2.0 / 17, 2.0 / 15, 2.0 / 13, 2.0 / 11,
                                               2.0 / 9,  2.0 / 7,  2.0 / 5,  2.0 / 3};

namespace scanjit {

enum class F64Table { ExpSeries, AtanhSeries, MinusLn2 };

// Entry K of a table, read at a fixed offset.
template <F64Table T, int K> __device__ __forceinline__ double table_entry() {
  double v;
  if constexpr (T == F64Table::ExpSeries)
    asm("ld.const.f64 %0, [scanjit_exp_series+%1];" : "=d"(v) : "n"(8 * K));
  else if constexpr (T == F64Table::AtanhSeries)
    asm("ld.const.f64 %0, [scanjit_atanh_series+%1];" : "=d"(v) : "n"(8 * K));
  else
    asm("ld.const.f64 %0, [scanjit_minus_ln2+%1];" : "=d"(v) : "n"(8 * K));
  return v;
}
template <int K> __device__ __forceinline__ double minus_ln2() { return table_entry<F64Table::MinusLn2, K>(); }

// Horner's rule over a series table of kTerms entries from its top: p = p
// * x + entry K, for K = 1 .. kTerms - 1, starting from entry 0.
template <F64Table T, int kTerms, int K = 1>
__device__ __forceinline__ double horner(double x, double p = table_entry<T, 0>()) {
  if constexpr (K == kTerms)
    return p;
  else
    return horner<T, kTerms, K + 1>(x, fma(p, x, table_entry<T, K>()));
}

} // namespace scanjit
