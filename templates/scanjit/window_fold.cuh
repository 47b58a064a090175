// How a look-back folds the values published in a tile's window (after
// lookback_scan.cuh's LookbackWindow has read them): each reading warp's
// part, then the warps' totals and the window's base into the tile's
// prefix. Every fold runs in a fixed order whatever the timing, so results
// stay bitwise reproducible.
//
// Log-sum-exp folds in linear space: the largest value, then one sum of
// exp(v - largest) and one log. Folded in log space, each of a reader's
// values and each of the warp's five rounds cost an exp and a log1p with
// torch's special cases, and a tile's window (512 tiles in a double plan)
// took a third of the double 1-D kernel's instructions (ncu, H100).
#pragma once

#include "scanjit/monoid.cuh"
#include "scanjit/warp_scan.cuh"

namespace scanjit {

template <class M> struct WindowFold {
  typedef typename M::Value Acc;
  typedef typename ChainMonoid<M>::type C;

  // The reader's values whose bit is set in `valid`, then the warp's (on
  // every lane).
  template <int K> static __device__ __forceinline__ Acc warp_total(const Acc (&v)[K], unsigned valid) {
    Acc part = M::identity();
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (valid >> k & 1)
        part = C::combine(part, v[k]);
    Acc total;
    (void)warp_exclusive_scan<C, false>(part, threadIdx.x & 31, total);
    return total;
  }

  // The window's base (when there is one), then the warps' totals in order.
  template <int N>
  static __device__ __forceinline__ Acc prefix(const Acc (&totals)[N], bool has_base, Acc base) {
    Acc total = totals[0];
#pragma unroll
    for (int w = 1; w < N; ++w)
      total = C::combine(total, totals[w]);
    return has_base ? C::combine(base, total) : total;
  }
  // The same, called by every lane of a warp (log-sum-exp's spreads its
  // exps over the lanes).
  template <int N>
  static __device__ __forceinline__ Acc prefix_across_lanes(const Acc (&totals)[N], bool has_base, Acc base) {
    return prefix(totals, has_base, base);
  }
};

template <class T> __device__ __forceinline__ T warp_max_all(T v) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1)
    v = fmax_of(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
}
template <class T> __device__ __forceinline__ T warp_sum_all(T v) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

template <class In, class Acc> struct WindowFold<PlainMonoid<LogSumExpOp<In, Acc>, Acc>> {
  // log(sum of exp(v)) over the values given their largest, `hi` (fmax:
  // NaNs aside) and whether any is a NaN: a NaN, a +inf largest (which
  // absorbs the rest) and an only -inf are torch's special values; a finite
  // largest adds exp(0) = 1, so the sum is a positive normal number.
  static __device__ __forceinline__ bool special(Acc hi, bool nan, Acc &result) {
    const Acc inf = positive_infinity(Acc());
    result = nan ? quiet_nan(Acc()) : hi;
    return nan || !(-inf < hi && hi < inf);
  }

  template <int K> static __device__ __forceinline__ Acc warp_total(const Acc (&v)[K], unsigned valid) {
    Acc hi = -positive_infinity(Acc());
    bool nan = false;
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (valid >> k & 1) {
        hi = fmax_of(hi, v[k]);
        nan |= v[k] != v[k];
      }
    hi = warp_max_all(hi);
    Acc result;
    if (special(hi, __any_sync(0xffffffffu, nan), result))
      return result;
    Acc sum = Acc(0);
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (valid >> k & 1)
        sum += exp_nonpositive(v[k] - hi); // (-inf items add 0)
    return plus_log_positive(hi, warp_sum_all(sum));
  }

  template <int N>
  static __device__ __forceinline__ Acc prefix(const Acc (&totals)[N], bool has_base, Acc base) {
    const Acc low = -positive_infinity(Acc());
    const Acc b = has_base ? base : low;
    Acc hi = b;
    bool nan = b != b;
#pragma unroll
    for (int w = 0; w < N; ++w) {
      hi = fmax_of(hi, totals[w]);
      nan |= totals[w] != totals[w];
    }
    Acc result;
    if (special(hi, nan, result))
      return result;
    Acc sum = exp_nonpositive(b - hi);
#pragma unroll
    for (int w = 0; w < N; ++w)
      sum += exp_nonpositive(totals[w] - hi);
    return plus_log_positive(hi, sum);
  }

  // prefix, called by every lane of a warp: lane 0 takes the base, lane w + 1
  // the total of warp w, and each lane one exp (every thread of a block
  // folds the window's totals after its barrier: N + 1 exps a thread took
  // a sixth of the f64 1-D kernel's). The first kWidth lanes' sums meet in
  // a butterfly; lane 0's largest and sum go to every lane, so the whole
  // warp takes the same path (the shuffles need every lane) and bits.
  template <int N>
  static __device__ __forceinline__ Acc prefix_across_lanes(const Acc (&totals)[N], bool has_base, Acc base) {
    static_assert(N + 1 <= 32, "a lane a value");
    constexpr int kWidth = lanes_holding(N + 1);
    const int lane = int(threadIdx.x & 31);
    const Acc low = -positive_infinity(Acc());
    const Acc mine = lane == 0 ? (has_base ? base : low) : lane <= N ? totals[lane - 1] : low;
    Acc hi = mine;
#pragma unroll
    for (int d = kWidth / 2; d > 0; d >>= 1)
      hi = fmax_of(hi, __shfl_xor_sync(0xffffffffu, hi, d));
    hi = __shfl_sync(0xffffffffu, hi, 0);
    Acc result;
    if (special(hi, __any_sync(0xffffffffu, mine != mine), result))
      return result;
    Acc sum = exp_nonpositive(mine - hi); // (-inf adds 0)
#pragma unroll
    for (int d = kWidth / 2; d > 0; d >>= 1)
      sum += __shfl_xor_sync(0xffffffffu, sum, d);
    return plus_log_positive(hi, __shfl_sync(0xffffffffu, sum, 0));
  }
};

} // namespace scanjit
