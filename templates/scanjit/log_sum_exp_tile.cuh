// Log-sum-exp tiles without a log per combine. A thread's items become
// running sums of exp(x - ref), ref the largest of its items, so an item
// costs one exp on the way in and one log on the way out; the block scan
// combines (max, sum) pairs (LsePairMonoid: one exp each). In log space
// every combine costs an exp and a log1p, in the thread's scan, the block
// scan and the results, and those made logcumsumexp compute-bound.
//
// A thread whose items hold a NaN or +inf, or a finite item so far below
// the largest that exp(x - ref) would underflow, keeps the log-space path:
// torch's special-value rules live in LogSumExpOp::combine. A thread whose
// items are all -inf (a row's padding lanes past its end, masked-out runs)
// stays linear, its sums 0 (the identity pair): in log space its rolled
// loops ran beside its warp's linear lanes (logsumexp f64[65536,300] dim=1,
// two padding lanes a row: 2.55 -> 1.90 x copy, H200); a result whose
// prefix is -inf too still takes the log-space path (a of exp(NaN) below).
// Tile totals published to a look-back stay in log space.
#pragma once

#include "scanjit/monoid.cuh"
#include "scanjit/thread_scan.cuh"

namespace scanjit {

// How far below a thread's largest item its items may lie for the linear
// path: exp(-64) and exp(-512) are normal numbers with every bit of
// precision (the smallest are about exp(-87) and exp(-708)).
__device__ __forceinline__ float lse_linear_range(float) { return 64.0f; }
__device__ __forceinline__ double lse_linear_range(double) { return 512.0; }

// The log-space paths (special values only) run as rolled loops: unrolled,
// their kItems combines (an exp and a log1p with torch's special cases
// each) were a third of a log-sum-exp kernel's code and compile time. The
// items rotate through registers (the loop takes the front and appends its
// result at the back), so no array is indexed dynamically, which would put
// it on the stack.
template <class T, int kItems> __device__ __forceinline__ void rotate_in(T (&a)[kItems], T back) {
#pragma unroll
  for (int j = 0; j + 1 < kItems; ++j)
    a[j] = a[j + 1];
  a[kItems - 1] = back;
}

template <class M, bool kReverse, int kItems>
__device__ __forceinline__ typename M::Value lse_log_space_scan(const typename M::Value (&v)[kItems],
                                                                typename M::Value (&local)[kItems]) {
  typedef typename M::Value Acc;
  Acc items[kItems]; // in scan order
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    items[i] = v[kReverse ? kItems - 1 - i : i];
  Acc run = M::identity();
#pragma unroll 1
  for (int i = 0; i < kItems; ++i) {
    run = M::combine(run, items[0]);
    rotate_in(items, run);
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    local[kReverse ? kItems - 1 - i : i] = items[i];
  return run;
}

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
  Acc lowest = inf;
  bool special = false;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    special |= !(v[j] < inf); // NaN or +inf
    ref = fmax_of(ref, v[j]); // NaN aside (special)
    lowest = fmin_of(lowest, v[j]);
  }
  linear = !special;
  // An item far below ref, or a -inf item (which adds exactly 0): look closer.
  bool far = linear && lowest < ref - lse_linear_range(Acc());
  if (far) {
    far = false;
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      far |= v[j] < ref - lse_linear_range(Acc()) && v[j] != -inf;
  }
  linear = linear && !far;
  if (linear) {
    // Items all -inf (ref too) sum exp(-inf - 0) = 0 each: the identity pair.
    const Acc base = ref == -inf ? Acc(0) : ref;
    Acc run = Acc(0);
    if constexpr (sizeof(Acc) == 8) {
      // Double: the items' exps four at a time (exps_below), then their sums.
      exps_below_by_fours(v, base, local);
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const int j = kReverse ? kItems - 1 - i : i;
        run += local[j]; // exp(-inf) = 0: -inf items add nothing
        local[j] = run;
      }
    } else {
      const Acc ref_log2e = ref_log2e_of(base);
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const int j = kReverse ? kItems - 1 - i : i;
        run += exp_below(v[j], base, ref_log2e); // exp(-inf) = 0: -inf items add nothing
        local[j] = run;
      }
    }
    return LsePair<Acc>{ref, run}; // run >= 1: the largest item adds about exp(0)
  }
  return LsePairMonoid<Acc>::of_log(lse_log_space_scan<M, kReverse, kItems>(v, local));
}

// Results of a thread's items given `prefix`, everything before the
// thread's first item in scan order.
template <class M, bool kReverse, bool kExclusive, int kItems, class Acc>
__device__ __forceinline__ void lse_thread_results(const typename M::Value (&local)[kItems], typename M::Value ref,
                                                   bool linear, LsePair<typename M::Value> prefix,
                                                   Acc (&result)[kItems]) {
  typedef typename M::Value Value;
  const Value inf = positive_infinity(Value());
  const Value before_all = LsePairMonoid<Value>::log_value(prefix);
  // before_all combined with ref + log(local) is
  // hi + log(exp(before_all - hi) + local * exp(ref - hi)). A scale that
  // underflows is negligible beside the other term while local >= exp(-64);
  // local is 0 only after nothing but -inf items, and then a must not be 0.
  const Value hi = before_all > ref ? before_all : ref;
  const Value a = exp_nonpositive(before_all - hi), b = linear_sum_scale(ref, hi);
  const Value first_local = local[kReverse ? kItems - 1 : 0];
  if (linear && before_all < inf && (a > Value(0) || first_local > Value(0))) {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int before = kReverse ? j + 1 : j - 1;
      const bool first = kReverse ? j == kItems - 1 : j == 0;
      result[j] =
          M::acc(kExclusive && first ? before_all : plus_log_positive(hi, a + b * local[kExclusive ? before : j]));
    }
    return;
  }
  // Log space: items in log space, a NaN or +inf prefix (which absorbs every
  // item), or -inf items under a prefix too small for a.
  // (Rolled, as lse_log_space_scan: values[j] is item j's result.)
  Value values[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int before = kReverse ? j + 1 : j - 1;
    const bool first = kReverse ? j == kItems - 1 : j == 0;
    values[j] = local[kExclusive && !first ? before : j];
  }
#pragma unroll 1
  for (int j = 0; j < kItems; ++j) {
    const Value upto = values[0];
    rotate_in(values, M::combine(before_all, linear ? ref + log_of(upto) : upto));
  }
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const bool first = kReverse ? j == kItems - 1 : j == 0;
    result[j] = M::acc(kExclusive && first ? before_all : values[j]);
  }
}

} // namespace scanjit
