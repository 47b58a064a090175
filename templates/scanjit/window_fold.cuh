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
#include "scanjit/packed_lanes.cuh"
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

// Whether WindowFold<M>::prefix_across_lanes folds a value's lanes in
// segments of the warp, reading the totals by lane: log-sum-exp's packed
// lanes (below), whose parts lookback_prefix hands it in shared memory.
template <class M> struct FoldsLanesInSegments {
  static constexpr bool value = false;
};
template <class In, class Acc, int C>
struct FoldsLanesInSegments<PlainMonoid<LanesOp<LogSumExpOp<In, Acc>, Acc, C>, Lanes<Acc, C>>> {
  static constexpr bool value = true;
};

// Log-sum-exp's packed lanes (lane threads' tiles, lane_threads.cuh): the
// fold above lane by lane, not LanesOp's combine in log space (an exp and
// a log1p a lane at every value and every round).
template <class In, class Acc, int C> struct WindowFold<PlainMonoid<LanesOp<LogSumExpOp<In, Acc>, Acc, C>, Lanes<Acc, C>>> {
  typedef WindowFold<PlainMonoid<LogSumExpOp<In, Acc>, Acc>> Lane;
  typedef Lanes<Acc, C> Value;

  template <int K> static __device__ __forceinline__ Value warp_total(const Value (&v)[K], unsigned valid) {
    Value r;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      Acc lane[K];
      column(v, c, lane);
      r.v[c] = Lane::warp_total(lane, valid);
    }
    return r;
  }
  template <int N>
  static __device__ __forceinline__ Value prefix(const Value (&totals)[N], bool has_base, Value base) {
    Value r;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      Acc lane[N];
      column(totals, c, lane);
      r.v[c] = Lane::prefix(lane, has_base, base.v[c]);
    }
    return r;
  }
  // prefix, called by every lane of a warp with `totals` and `base` in
  // shared memory (lookback_prefix: it indexes them by lane): the warp in C
  // segments of 32 / C threads, segment c folding lane c's base and totals
  // (a few a thread, then butterflies within the segment), then each lane's
  // result from its segment to every thread. Folded one lane at a time over
  // the warp (prefix_across_lanes of the scalar fold), each lane cost every
  // thread its butterflies, an exp and a log: C of them a tile.
  template <int N>
  static __device__ __forceinline__ Value prefix_across_lanes(const Value (&totals)[N], bool has_base,
                                                              const Value &base) {
    static_assert(32 % C == 0, "each lane a segment of the warp");
    constexpr int S = 32 / C;
    constexpr int kEach = (N + 1 + S - 1) / S; // values a thread folds
    const int l = int(threadIdx.x & 31), c = l / S, i = l % S;
    const Acc low = -positive_infinity(Acc());
    Acc v[kEach];
    Acc hi = low;
    bool nan = false;
#pragma unroll
    for (int k = 0; k < kEach; ++k) {
      const int j = i + k * S; // 0: the base, j: warp j - 1's total
      v[k] = j == 0 ? (has_base ? base.v[c] : low) : j <= N ? totals[j - 1].v[c] : low;
      hi = fmax_of(hi, v[k]);
      nan |= v[k] != v[k];
    }
#pragma unroll
    for (int d = S / 2; d > 0; d >>= 1)
      hi = fmax_of(hi, __shfl_xor_sync(0xffffffffu, hi, d));
    const unsigned segment = (S == 32 ? 0xffffffffu : ((1u << S) - 1u)) << (c * S);
    Acc special_result;
    const bool special = Lane::special(hi, (__ballot_sync(0xffffffffu, nan) & segment) != 0, special_result);
    // (Every thread runs the sums, whose shuffles need the whole warp; a
    // special segment's are discarded.)
    Acc sum = Acc(0);
#pragma unroll
    for (int k = 0; k < kEach; ++k)
      sum += exp_nonpositive(v[k] - hi); // (-inf adds 0)
#pragma unroll
    for (int d = S / 2; d > 0; d >>= 1)
      sum += __shfl_xor_sync(0xffffffffu, sum, d);
    const Acc mine = special ? special_result : plus_log_positive(hi, sum);
    Value r;
#pragma unroll
    for (int lane = 0; lane < C; ++lane)
      r.v[lane] = __shfl_sync(0xffffffffu, mine, lane * S);
    return r;
  }

private:
  // Lane c of each value.
  template <int K> static __device__ __forceinline__ void column(const Value (&v)[K], int c, Acc (&lane)[K]) {
#pragma unroll
    for (int k = 0; k < K; ++k)
      lane[k] = v[k].v[c];
  }
};

} // namespace scanjit
