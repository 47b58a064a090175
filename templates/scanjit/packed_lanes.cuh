// Narrow columns as one row of packed rows: f32[8388608,2] dim=0 is one row
// of 8388608 items, each a row's 2 values, scanned lane by lane. Such a
// problem is the look-back's own case of few long contiguous rows, so it
// takes the look-back's pipelined kernel whole (bulk-copied stages, a tile
// finished one tile late) with one look-back a tile for all its lanes,
// where lookback_lanes.cuh looks back once a lane and loads through
// registers. PackedLanes<P> is P with its innermost line dim (the lanes)
// folded into the element: every type a Lanes, every combine lane-wise,
// the other line dims' strides counted in packed items. Plans with
// lane_threads=1 keep its stages, look-back and tile values but scan a
// thread a lane (lane_threads.cuh).
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/flagged_value.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/monoid.cuh"

namespace scanjit {

// A row's values of C narrow columns, in memory order.
template <class T, int C> struct Lanes {
  typedef T Value;
  T v[C];
};

// Op lane by lane.
template <class Op, class Acc, int C> struct LanesOp {
  static __device__ __forceinline__ Lanes<Acc, C> identity() {
    Lanes<Acc, C> r;
#pragma unroll
    for (int c = 0; c < C; ++c)
      r.v[c] = Op::identity();
    return r;
  }
  static __device__ __forceinline__ Lanes<Acc, C> combine(Lanes<Acc, C> a, Lanes<Acc, C> b) {
    Lanes<Acc, C> r;
#pragma unroll
    for (int c = 0; c < C; ++c)
      r.v[c] = Op::combine(a.v[c], b.v[c]);
    return r;
  }
};
template <class Op, class Acc, int C> struct CheapCombine<LanesOp<Op, Acc, C>> : CheapCombine<Op> {};

template <class T, int C> struct Convert<Lanes<T, C>> {
  template <class A> static __device__ __forceinline__ A load(Lanes<T, C> x) {
    A r;
#pragma unroll
    for (int c = 0; c < C; ++c)
      r.v[c] = Convert<T>::template load<typename A::Value>(x.v[c]);
    return r;
  }
  template <class A> static __device__ __forceinline__ Lanes<T, C> store(A x) {
    Lanes<T, C> r;
#pragma unroll
    for (int c = 0; c < C; ++c)
      r.v[c] = Convert<T>::store(x.v[c]);
    return r;
  }
};

template <class Op, class Acc, class T, int C>
__device__ __forceinline__ Acc lift_masked(bool in_tile, Lanes<T, C> raw, Lanes<u8, C> keep) {
  const Acc identity = Op::identity();
  Acc r;
#pragma unroll
  for (int c = 0; c < C; ++c)
    r.v[c] = in_tile && keep.v[c] != 0 ? Convert<T>::template load<typename Acc::Value>(raw.v[c]) : identity.v[c];
  return r;
}

// Warp shuffles lane by lane.
template <class T, int C, class Shuffle> __device__ __forceinline__ Lanes<T, C> each_lane(Lanes<T, C> x, Shuffle f) {
#pragma unroll
  for (int c = 0; c < C; ++c)
    x.v[c] = f(x.v[c]);
  return x;
}
template <class T, int C> __device__ __forceinline__ Lanes<T, C> shfl_up(Lanes<T, C> x, int d) {
  return each_lane(x, [d](T v) { return shfl_up(v, d); });
}
template <class T, int C> __device__ __forceinline__ Lanes<T, C> shfl_down(Lanes<T, C> x, int d) {
  return each_lane(x, [d](T v) { return shfl_down(v, d); });
}
template <class T, int C> __device__ __forceinline__ Lanes<T, C> shfl_idx(Lanes<T, C> x, int lane) {
  return each_lane(x, [lane](T v) { return shfl_idx(v, lane); });
}

// A group of over 32 bytes publishes its lanes in the fewest parts of at
// most 32 bytes (flagged_value.cuh), of as many adjacent lanes each, the
// last padded where they do not divide C: f64 x 6 in two parts of 3, x 5 in
// two of 3, x 7 in two of 4; f32 x 9 in two of 5. Padding lanes publish T()
// and no result reads them (put() skips them). The planner's
// publishedParts() counts the same.
template <class T, int C> __host__ __device__ constexpr int lanes_a_part() {
  constexpr int kParts = (C * int(sizeof(T)) + 31) / 32;
  return (C + kParts - 1) / kParts;
}
template <class T, int C, bool kSplit = (sizeof(Lanes<T, C>) > 32)> struct LanesParts {
  static constexpr int kParts = 1;
  typedef Lanes<T, C> Part;
};
template <class T, int C> struct LanesParts<T, C, true> {
  static constexpr int kPartLanes = lanes_a_part<T, C>();
  static constexpr int kParts = (C + kPartLanes - 1) / kPartLanes;
  static_assert(kPartLanes * int(sizeof(T)) <= 32, "a part fits a published value");
  typedef Lanes<T, kPartLanes> Part;
  // (q is a constant wherever these are called: unrolled loops over parts.)
  static __device__ __forceinline__ Part part(const Lanes<T, C> &v, int q) {
    Part p;
#pragma unroll
    for (int c = 0; c < kPartLanes; ++c)
      p.v[c] = q * kPartLanes + c < C ? v.v[q * kPartLanes + c] : T();
    return p;
  }
  static __device__ __forceinline__ void put(Lanes<T, C> &v, int q, const Part &p) {
#pragma unroll
    for (int c = 0; c < kPartLanes; ++c)
      if (q * kPartLanes + c < C)
        v.v[q * kPartLanes + c] = p.v[c];
  }
};
template <class T, int C> struct PublishedParts<Lanes<T, C>> : LanesParts<T, C> {};
// The lane-wise monoid of a part's lanes.
template <class Op, class Acc, int C> struct PartMonoid<PlainMonoid<LanesOp<Op, Acc, C>, Lanes<Acc, C>>> {
  static constexpr int kPartLanes = sizeof(typename PublishedParts<Lanes<Acc, C>>::Part) / sizeof(Acc);
  typedef PlainMonoid<LanesOp<Op, Acc, kPartLanes>, Lanes<Acc, kPartLanes>> type;
};

// A line dim with its strides counted in items of C elements (the planner
// checks that they divide: packedLanes() in compiler/Planner.cpp).
template <class D, long long C> struct PackedDim {
  static_assert(D::kIn % C == 0 && D::kOut % C == 0 && D::kMask % C == 0, "strides of whole packed items");
  typedef Dim<D::kSize, D::kIn / C, D::kOut / C, D::kMask / C> type;
};

// Lines without their innermost dim (the lanes), the rest packed.
template <class Lines, long long C> struct PackedLines;
template <class D, long long C> struct PackedLines<DimList<D>, C> {
  typedef DimList<> type;
};
template <class D, class E, class... Rest, long long C> struct PackedLines<DimList<D, E, Rest...>, C> {
  template <class List> struct Prepend;
  template <class... Ds> struct Prepend<DimList<Ds...>> {
    typedef DimList<typename PackedDim<D, C>::type, Ds...> type;
  };
  typedef typename Prepend<typename PackedLines<DimList<E, Rest...>, C>::type>::type type;
};

template <class P, int C> struct PackedLanes {
  typedef P Unpacked;
  static constexpr int kLanes = C;
  typedef Lanes<typename P::In, C> In;
  typedef Lanes<typename P::Out, C> Out;
  typedef Lanes<typename P::Acc, C> Acc;
  typedef LanesOp<typename P::Op, typename P::Acc, C> Op;
  typedef typename P::Index Index;
  static constexpr bool kMask = P::kMask;
  typedef Lanes<u8, C> MaskItem;
  static constexpr bool kReverse = P::kReverse;
  static constexpr bool kExclusive = P::kExclusive;
  static constexpr long long kLength = P::kLength;
  typedef Dim<kLength, 1, 1, 1> Scan;
  typedef typename PackedLines<typename P::Lines, C>::type Lines;
  typedef typename P::Inner Inner;
};

} // namespace scanjit
