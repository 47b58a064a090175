// Elementary functions of the log-sum-exp scan (LsePairMonoid and
// log_sum_exp_tile.cuh). Float uses the ex2 and lg2 units where the
// arguments are known to be in range: exps of non-positive numbers inside
// sums of at least 1, logs of positive normal sums, so that their errors
// stay at about a rounding of the sum; double uses its own exp of
// non-positive arguments and log of positive normal numbers (below).
#pragma once

#include "scanjit/f64_series.cuh"
#include "scanjit/types.cuh"

namespace scanjit {

// The double functions below are templates (D = double) so that only the
// kernels that call them instantiate them: every kernel includes this file
// (through monoid.cuh), and as plain functions their Horner series and the
// out-of-line logs were instantiated and compiled into each of them, used
// or not (about 3 ms of a sum's 165-235 ms NVRTC time, same SASS).

template <class T> struct IsDouble {
  static constexpr bool value = false;
};
template <> struct IsDouble<double> {
  static constexpr bool value = true;
};

// log_of is reached only by special values (the log-space paths): out of
// line, it is compiled once instead of at each unrolled site.
template <class D> __device__ __noinline__ D log_f64(D x) {
  static_assert(IsDouble<D>::value, "the double log");
  return log(x);
}
template <class F> __device__ __noinline__ F log_f32(F x) { return logf(x); }

// 2^x on the ex2 unit, subnormal results flushed to 0.
__device__ __forceinline__ float ex2_ftz(float x) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

// e^x for x <= 0 (or NaN), a scale inside a sum that holds exp(0) = 1:
// float uses the ex2 unit (ex2.approx.ftz), whose error, measured against
// that sum, is a rounding or two of it, like expf's; results below 2^-126
// flush to 0, already negligible in a sum of at least 1.
__device__ __forceinline__ float exp_nonpositive(float x) { return ex2_ftz(x * 1.4426950408889634f); }
// Double: x = n ln2 + r (|r| <= ln2 / 2, ln2 in two parts), e^r by its
// Taylor series to r^13 / 13! (the next term is below 2^-57 of it), times
// 2^n put in the exponent bits; results below e^-708 are 0, negligible in
// such a sum, and a NaN stays NaN. exp()'s ranges and special cases cost
// the log-sum-exp f64 kernels their time (BENCHMARKS.md).
template <class D> __device__ __forceinline__ D exp_nonpositive(D x) {
  static_assert(IsDouble<D>::value, "the double exp (float's is the overload above)");
  if (!(x >= -708.0))
    return x != x ? x : 0.0;
  const double n = rint(x * 1.4426950408889634);
  double r = fma(n, minus_ln2<0>(), x);
  r = fma(n, minus_ln2<1>(), r);
  double p = horner<F64Table::ExpSeries, 12>(r);
  p = fma(p, r, 1.0);
  p = fma(p, r, 1.0);
  return p * __longlong_as_double((long long)(int(n) + 1023) << 52);
}
// ref * log2(e), rounded as exp_below's callers take it (their terms'
// scale, linear_sum_scale, takes the rounding back).
__device__ __forceinline__ float ref_log2e_of(float ref) { return ref * 1.4426950408889634f; }
__device__ __forceinline__ double ref_log2e_of(double ref) { return ref * 1.4426950408889634; }

// e^(x - ref) for x <= ref (or -inf), given ref_log2e = ref_log2e_of(ref):
// for float one FFMA and the ex2 unit. The rounding of ref_log2e scales a
// thread's terms alike (linear_sum_scale takes it back).
__device__ __forceinline__ float exp_below(float x, float ref, float ref_log2e) {
  return ex2_ftz(fmaf(x, 1.4426950408889634f, -ref_log2e));
}
template <class D> __device__ __forceinline__ D exp_below(D x, D ref, D) { return exp_nonpositive(x - ref); }

// Double: N items' exp_below at once (N small), exp_nonpositive's steps
// taken item by item at each series coefficient, so that each is loaded
// once for the N items: ptxas loads a double constant into a uniform
// register before each DFMA that uses it (a ULDC each: 14% of the f64
// 1-D log-sum-exp kernel's instructions), and one exp at a time had one
// per DFMA. Items below e^-708 (or -inf) come out 0, NaNs NaN.
template <int N, int K = 1, class D> __device__ __forceinline__ void horner_items(const D *r, D *p) {
  if constexpr (K < 12) {
#pragma unroll
    for (int j = 0; j < N; ++j)
      p[j] = fma(p[j], r[j], table_entry<F64Table::ExpSeries, K>());
    horner_items<N, K + 1>(r, p);
  }
}
template <int N, class D> __device__ __forceinline__ void exps_below(const D *x, D ref, D *e) {
  static_assert(IsDouble<D>::value, "the double exps (float's exp_below is one ex2 each)");
  D r[N], n[N];
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const D d = x[j] - ref;
    const D clamped = d >= -708.0 ? d : -708.0; // (the result is replaced below)
    n[j] = rint(clamped * 1.4426950408889634);
    r[j] = fma(n[j], minus_ln2<1>(), fma(n[j], minus_ln2<0>(), clamped));
    e[j] = table_entry<F64Table::ExpSeries, 0>();
  }
  horner_items<N>(r, e);
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const D d = x[j] - ref; // (again: one DADD, where holding N of them took 2N registers)
    const D p = fma(fma(e[j], r[j], 1.0), r[j], 1.0);
    const D v = p * __longlong_as_double((long long)(int(n[j]) + 1023) << 52);
    e[j] = d >= -708.0 ? v : d != d ? d : 0.0;
  }
}
// exps_below over a thread's kItems items, four at a time (the last group
// the rest).
template <int kItems, int kFirst = 0, class D>
__device__ __forceinline__ void exps_below_by_fours(const D (&x)[kItems], D ref, D (&e)[kItems]) {
  if constexpr (kFirst < kItems) {
    constexpr int kGroup = kItems - kFirst < 4 ? kItems - kFirst : 4;
    exps_below<kGroup>(x + kFirst, ref, e + kFirst);
    exps_below_by_fours<kItems, kFirst + kGroup>(x, ref, e);
  }
}

// exp(ref - hi) for ref <= hi: the scale of a sum of exp_below(x, ref, .)
// terms in a result of magnitude hi. Float's terms are 2^(x log2e - R), R
// = ref log2e rounded, so each is exp(x - ref) times 2^(ref log2e - R):
// the scale takes that factor back. Left in, it put ref's rounding, up to
// an ulp of ref, into results far smaller than ref (an item before its
// thread's largest: f32 [64,3000] mask, 0.028 off by 5.7e-6).
// A ref of -inf (a thread of -inf items only, whose sums are 0) scales by 0.
__device__ __forceinline__ float linear_sum_scale(float ref, float hi) {
  const float residual = fmaf(ref, 1.4426950408889634f, -ref_log2e_of(ref));
  return ref == -positive_infinity(ref) ? 0.0f : ex2_ftz(fmaf(ref - hi, 1.4426950408889634f, -residual));
}
template <class D> __device__ __forceinline__ D linear_sum_scale(D ref, D hi) { return exp_nonpositive(ref - hi); }

__device__ __forceinline__ float fmax_of(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double fmax_of(double a, double b) { return fmax(a, b); }
__device__ __forceinline__ float fmin_of(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ double fmin_of(double a, double b) { return fmin(a, b); }

template <class T> __device__ __forceinline__ T log_of(T x) {
  if constexpr (sizeof(T) == 4)
    return log_f32(x);
  else
    return log_f64(x);
}

// hi + log(x) for a positive normal x below 2^32. Float takes x = 2^e * m,
// m in [1, 2), and log2(m) from the lg2 unit, whose absolute error there is
// about 2^-22: with e * ln2 (ln2 rounded to float: |e| * 2e-9 more), the
// error stays near 2e-7 for any x, below an ulp of a result of magnitude 4
// or more. logf's polynomial and special cases were a fifth of the
// log-sum-exp kernel's time (BENCHMARKS.md).
// hi + e ln2 is formed first, in one rounding: a thread's linear sums are
// relative to its largest item, so a result near 0 may come from hi = 30
// and e = -44, and hi + log2(m) ln2 rounded first put half an ulp of 30
// into it (bf16 [8000,48] mask, spread 32: 4.3e-6 for 0).
__device__ __forceinline__ float plus_log_positive(float hi, float x) {
  const int bits = __float_as_int(x);
  const int e = (bits >> 23) - 127;
  const float m = __int_as_float(bits - e * (1 << 23)); // x with exponent 0
  float log2m;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(log2m) : "f"(m));
  return fmaf(log2m, 0.6931471805599453f, fmaf(float(e), 0.6931471805599453f, hi));
}
// Double: x = 2^e * m, m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact), and
// log(m) = 2 atanh(s) = f - s (f - R), s = f / (2 + f), R = the sum over k
// = 1 .. 9 of 2 s^2k / (2k + 1) (s^2 <= 0.0295: the next term is below
// 2^-55 of log(m)). 1 / (2 + f) is the rcp unit's seed refined by one cubic
// Newton step, and s is corrected by its residual. Like exp_nonpositive it
// skips log()'s special cases (x is a positive normal number here).
template <class D> __device__ __forceinline__ D plus_log_positive(D hi, D x) {
  static_assert(IsDouble<D>::value, "the double log (float's is the overload above)");
  const long long bits = __double_as_longlong(x);
  const long long kSqrt2Fraction = 0x6a09e667f3bcdLL; // sqrt(2)'s 52 fraction bits
  const int e = int(bits >> 52) - 1023 + ((bits & 0xfffffffffffffLL) >= kSqrt2Fraction ? 1 : 0);
  const double m = __longlong_as_double(bits - (long long)e * (1LL << 52));
  const double f = m - 1.0;
  const double t = 2.0 + f;
  double r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(t));
  const double err = fma(-t, r, 1.0);
  r = fma(r, fma(err, err, err), r); // r (1 + err + err^2): the seed's error cubed
  double s = f * r;
  s = fma(r, fma(-t, s, f), s);
  const double z = s * s;
  const double log_m = f - s * (f - horner<F64Table::AtanhSeries, 9>(z) * z);
  // hi + e ln2 first, in one rounding (as float's, above), then log(m) and
  // e ln2's small part.
  return fma(double(-e), minus_ln2<0>(), hi) + fma(double(-e), minus_ln2<1>(), log_m);
}

} // namespace scanjit
