// What the scan ladder (thread -> warp -> block -> tile) combines: a plain
// operator value, or a (value, head) pair for segmented scans of short rows,
// where a head restarts the running value.
#pragma once

#include "scanjit/lse_math.cuh"
#include "scanjit/ops.cuh"

namespace scanjit {

template <class Op, class Acc> struct PlainMonoid {
  typedef Acc Value;
  static __device__ __forceinline__ Value identity() { return Op::identity(); }
  static __device__ __forceinline__ Value combine(Value a, Value b) { return Op::combine(a, b); }
  static __device__ __forceinline__ Value make(Acc v, bool) { return v; }
  static __device__ __forceinline__ Acc acc(Value v) { return v; }
};

template <class Acc> struct Segment {
  Acc value;
  int head; // nonzero: a segment starts inside the range this value covers
};

// Log-sum-exp as a (max, sum) pair worth max + log(sum): sum adds exp(x -
// max) over the items, so a combine costs one exp and no log. The block
// scan of plain log-sum-exp, and a row's carry from tile to tile, run on
// it (BlockMonoid, CarryMonoid); look-back totals and prefixes are
// published in log space (and folded in linear space: window_fold.cuh).
template <class Acc> struct LsePair {
  Acc max;
  Acc sum;
};

template <class Acc> struct LsePairMonoid {
  typedef LsePair<Acc> Value;
  static __device__ __forceinline__ Value identity() { return Value{-positive_infinity(Acc()), Acc(0)}; }
  static __device__ __forceinline__ Value of_log(Acc x) { return Value{x, Acc(1)}; }
  static __device__ __forceinline__ Value as_pair(Acc x) { return of_log(x); }
  static __device__ __forceinline__ Value as_pair(Value v) { return v; }
  // An item, and a result, as PlainMonoid's make and acc.
  static __device__ __forceinline__ Value make(Acc x, bool) { return of_log(x); }
  static __device__ __forceinline__ Acc acc(Value v) { return log_value(v); }
  // A finite max has a sum of at least 1 (its own exp(0)) unless a NaN
  // went into it: the fast log, else log's special cases.
  static __device__ __forceinline__ Acc log_value(Value v) {
    const Acc inf = positive_infinity(Acc());
    return -inf < v.max && v.max < inf && v.sum >= Acc(1) ? plus_log_positive(v.max, v.sum) : v.max + log_of(v.sum);
  }
  // The smaller max's sum is scaled by exp(lo - hi). Equal maxima (two
  // infinities among them) scale by 1; a NaN max makes exp(NaN) and so a
  // NaN sum, which no later combine loses.
  static __device__ __forceinline__ Value combine(Value a, Value b) {
    const bool b_higher = b.max > a.max;
    const Acc hi = b_higher ? b.max : a.max;
    const Acc lo = b_higher ? a.max : b.max;
    const Acc scale = lo == hi ? Acc(1) : exp_nonpositive(lo - hi);
    return Value{hi, b_higher ? a.sum * scale + b.sum : b.sum * scale + a.sum};
  }
};

// The monoid a thread's items combine in where they are not a tile's
// linear sums (segments of short rows, a column's serial run): the op's,
// or for log-sum-exp (max, sum) pairs, where a combine costs an exp and a
// result one log. In log space a combine cost an exp and a log1p, and every
// item of short rows paid two; a column's rows each waited on the previous
// row's (3x copy in f32, 6.4x in f64).
template <class Op, class Acc> struct ItemMonoid {
  typedef PlainMonoid<Op, Acc> type;
};
template <class In, class Acc> struct ItemMonoid<LogSumExpOp<In, Acc>, Acc> {
  typedef LsePairMonoid<Acc> type;
};

template <class Op, class Acc> struct SegmentedMonoid {
  typedef typename ItemMonoid<Op, Acc>::type Item;
  typedef Segment<typename Item::Value> Value;
  static __device__ __forceinline__ Value identity() { return segment(Item::identity(), false); }
  static __device__ __forceinline__ Value combine(Value a, Value b) {
    Value r;
    r.value = b.head ? b.value : Item::combine(a.value, b.value);
    r.head = a.head | b.head;
    return r;
  }
  static __device__ __forceinline__ Value make(Acc v, bool head) { return segment(Item::make(v, head), head); }
  static __device__ __forceinline__ Acc acc(Value v) { return Item::acc(v.value); }

private:
  static __device__ __forceinline__ Value segment(typename Item::Value v, bool head) {
    Value r;
    r.value = v;
    r.head = head;
    return r;
  }
};

// A thread's running value along a serial scan (a column's rows) in
// ItemMonoid: for log-sum-exp a step carries only a compare and an FMA
// from one element to the next (its exp is of the previous max), and the
// log is taken once a result, off that chain.
template <class Op, class Acc> struct SerialRun {
  typedef typename ItemMonoid<Op, Acc>::type Item;
  typedef typename Item::Value Value;
  static __device__ __forceinline__ Value of(Acc a) { return Item::make(a, false); }
  static __device__ __forceinline__ Value step(Value run, Acc x) { return Item::combine(run, Item::make(x, false)); }
  static __device__ __forceinline__ Acc value(Value run) { return Item::acc(run); }
};

// Plain (unsegmented) log-sum-exp: its scans run on (max, sum) pairs
// above the thread level (log_sum_exp_tile.cuh).
template <class M> struct IsPlainLogSumExp {
  static constexpr bool value = false;
};
template <class In, class Acc> struct IsPlainLogSumExp<PlainMonoid<LogSumExpOp<In, Acc>, Acc>> {
  static constexpr bool value = true;
};

// The monoid a block scan of M's thread totals runs on.
template <class M, bool kPairs = IsPlainLogSumExp<M>::value> struct BlockMonoid {
  typedef M type;
};
template <class M> struct BlockMonoid<M, true> {
  typedef LsePairMonoid<typename M::Value> type;
};

// Whether a combine is costly enough to call out of line where it runs once
// a tile or a piece (look-back windows, column pieces' prefixes and slice
// totals), not once an item: an op's that is not cheap (CheapCombine:
// log-sum-exp's exp and log1p with torch's special cases, which, inlined at
// every unrolled site of those paths, were three quarters of a double
// column kernel's code), and a monoid's over such an op.
template <class C> struct CostlyCombine {
  static constexpr bool value = !CheapCombine<C>::value;
};
template <class Op, class Acc> struct CostlyCombine<PlainMonoid<Op, Acc>> : CostlyCombine<Op> {};
template <class Op, class Acc> struct CostlyCombine<SegmentedMonoid<Op, Acc>> : CostlyCombine<Op> {};

template <class C, class V> __device__ __noinline__ V combine_out_of_line(V a, V b) { return C::combine(a, b); }

// C::combine (C an op or a monoid) on a path taken once a tile or a piece.
template <class C, class V> __device__ __forceinline__ V combine_cold(V a, V b) {
  if constexpr (CostlyCombine<C>::value)
    return combine_out_of_line<C, V>(a, b);
  else
    return C::combine(a, b);
}

// M, combined through combine_cold: for warp scans on such paths.
template <class M> struct ColdMonoid : M {
  static __device__ __forceinline__ typename M::Value combine(typename M::Value a, typename M::Value b) {
    return combine_cold<M>(a, b);
  }
};

// The monoid of a look-back's chain (window totals, published prefixes),
// where a combine's latency is every later tile's: out of line only for a
// costly 8-byte combine (double log-sum-exp: 9.1 -> 8.1x copy on a 1-D
// exclusive scan, H100); float log-sum-exp's stays inline (out of line, the
// 1-D look-back went 2.17 -> 2.22x, BENCHMARKS.md).
template <class M, bool kOutOfLine = CostlyCombine<M>::value && sizeof(typename M::Value) >= 8>
struct ChainMonoid {
  typedef M type;
};
template <class M> struct ChainMonoid<M, true> {
  typedef ColdMonoid<M> type;
};

// Warp shuffles for every Value type (CUDA provides float, double, long long).
template <class T> __device__ __forceinline__ T shfl_up(T v, int d) {
  return __shfl_up_sync(0xffffffffu, v, d);
}
template <class T> __device__ __forceinline__ T shfl_down(T v, int d) {
  return __shfl_down_sync(0xffffffffu, v, d);
}
template <class T> __device__ __forceinline__ T shfl_idx(T v, int lane) {
  return __shfl_sync(0xffffffffu, v, lane);
}
template <class A> __device__ __forceinline__ Segment<A> shfl_up(Segment<A> v, int d) {
  v.value = shfl_up(v.value, d);
  v.head = shfl_up(v.head, d);
  return v;
}
template <class A> __device__ __forceinline__ Segment<A> shfl_down(Segment<A> v, int d) {
  v.value = shfl_down(v.value, d);
  v.head = shfl_down(v.head, d);
  return v;
}
template <class A> __device__ __forceinline__ Segment<A> shfl_idx(Segment<A> v, int lane) {
  v.value = shfl_idx(v.value, lane);
  v.head = shfl_idx(v.head, lane);
  return v;
}

template <class A> __device__ __forceinline__ LsePair<A> shfl_up(LsePair<A> v, int d) {
  return LsePair<A>{shfl_up(v.max, d), shfl_up(v.sum, d)};
}
template <class A> __device__ __forceinline__ LsePair<A> shfl_down(LsePair<A> v, int d) {
  return LsePair<A>{shfl_down(v.max, d), shfl_down(v.sum, d)};
}
template <class A> __device__ __forceinline__ LsePair<A> shfl_idx(LsePair<A> v, int lane) {
  return LsePair<A>{shfl_idx(v.max, lane), shfl_idx(v.sum, lane)};
}

} // namespace scanjit
