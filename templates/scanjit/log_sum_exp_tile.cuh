// Log-sum-exp tiles without a log per combine. A thread's items become
// running sums of exp(x - ref), ref the largest of its items, so an item
// costs one exp on the way in and one log on the way out; the block scan
// combines (max, sum) pairs (LsePairMonoid: one exp each). In log space
// every combine costs an exp and a log1p, in the thread's scan, the block
// scan and the results, and those made logcumsumexp compute-bound.
//
// A thread whose items hold a NaN or +inf, or only -inf, keeps the
// log-space path: torch's special-value rules live in LogSumExpOp::combine.
// Tile totals and the prefixes between tiles stay in log space.
#pragma once

#include "scanjit/monoid.cuh"

namespace scanjit {

template <class M> struct LinearLogSumExp {
  static constexpr bool value = false;
};
template <class In, class Acc> struct LinearLogSumExp<PlainMonoid<LogSumExpOp<In, Acc>, Acc>> {
  static constexpr bool value = true;
};

// A thread's items (in scan order: kReverse walks them from the end) as
// `local`: running sums of exp(x - ref) when `linear`, else the log-space
// inclusive scan. Returns the thread's total as a (max, sum) pair.
template <class M, bool kReverse, int kItems>
__device__ __forceinline__ LsePair<typename M::Value> lse_thread_scan(const typename M::Value (&v)[kItems],
                                                                      typename M::Value (&local)[kItems],
                                                                      typename M::Value &ref, bool &linear) {
  typedef typename M::Value Acc;
  const Acc inf = positive_infinity(Acc());
  ref = -inf;
  bool special = false;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    special = special || is_nan(v[j]) || v[j] == inf;
    ref = v[j] > ref ? v[j] : ref;
  }
  linear = !special && ref != -inf;
  if (linear) {
    Acc run = Acc(0);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int j = kReverse ? kItems - 1 - i : i;
      run += exp_of(v[j] - ref); // exp(-inf) = 0: -inf items add nothing
      local[j] = run;
    }
    return LsePair<Acc>{ref, run}; // run >= 1: the largest item adds exp(0)
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = kReverse ? kItems - 1 - i : i;
    const int before = kReverse ? j + 1 : j - 1;
    local[j] = i == 0 ? v[j] : M::combine(local[before], v[j]);
  }
  return LsePairMonoid<Acc>::of_log(local[kReverse ? 0 : kItems - 1]);
}

// Results of a thread's items given `prefix`, everything before the
// thread's first item in scan order.
template <class M, bool kReverse, bool kExclusive, int kItems, class Acc>
__device__ __forceinline__ void lse_thread_results(const typename M::Value (&local)[kItems], typename M::Value ref,
                                                   bool linear, LsePair<typename M::Value> prefix,
                                                   Acc (&result)[kItems]) {
  typedef typename M::Value Value;
  typedef LsePairMonoid<Value> Pair;
  const Value inf = positive_infinity(Value());
  if (!linear || is_nan(prefix.max) || prefix.max == inf) {
    // Log space (a NaN or +inf prefix absorbs every item: the result is it).
    const Value before_all = Pair::log_value(prefix);
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int before = kReverse ? j + 1 : j - 1;
      const bool first = kReverse ? j == kItems - 1 : j == 0;
      Value value;
      if (!linear)
        value = kExclusive ? (first ? before_all : M::combine(before_all, local[before]))
                           : M::combine(before_all, local[j]);
      else
        value = before_all;
      result[j] = M::acc(value);
    }
    return;
  }
  // max + log(sum) combined with ref + log(local) is
  // hi + log(sum * exp(max - hi) + local * exp(ref - hi)); a prefix of
  // nothing (max -inf) gives a = 0.
  const Value hi = prefix.max > ref ? prefix.max : ref;
  const Value a = prefix.sum * exp_of(prefix.max - hi), b = exp_of(ref - hi);
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int before = kReverse ? j + 1 : j - 1;
    const bool first = kReverse ? j == kItems - 1 : j == 0;
    Value value;
    if (kExclusive)
      value = first ? Pair::log_value(prefix) : hi + log_of(a + b * local[before]);
    else
      value = hi + log_of(a + b * local[j]);
    result[j] = M::acc(value);
  }
}

} // namespace scanjit
