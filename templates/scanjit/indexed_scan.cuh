// Max and min scans that also give each result's index along the scan dim
// (torch.cummax / cummin's indices, int64, at the output's strides). A
// value and its index ride together as one monoid value through the same
// ladder. torch's rule, in scan order: a later element takes over when it
// is NaN, or when the running value is not NaN and the element ties or
// beats it; so ties take the later index and every NaN its own. That rule
// is associative (NaN ranks above every number, and among equals the later
// element wins). An empty value (index -1: masked, past a line's end, or
// before the first element of an exclusive scan) never takes over.
//
// So far one family carries it: the strided family's warp per line, whose
// loads know each element's place (the planner sends every `indices` spec
// there, whatever its layout).
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/strided_scan.cuh"
#include "scanjit/tile_agent.cuh"

namespace scanjit {

template <class Acc> struct Indexed {
  Acc v;
  long long i; // < 0: empty
};

template <class A> __device__ __forceinline__ Indexed<A> shfl_up(Indexed<A> x, int d) {
  return Indexed<A>{shfl_up(x.v, d), shfl_up(x.i, d)};
}
template <class A> __device__ __forceinline__ Indexed<A> shfl_down(Indexed<A> x, int d) {
  return Indexed<A>{shfl_down(x.v, d), shfl_down(x.i, d)};
}
template <class A> __device__ __forceinline__ Indexed<A> shfl_idx(Indexed<A> x, int lane) {
  return Indexed<A>{shfl_idx(x.v, lane), shfl_idx(x.i, lane)};
}

// Whether a later value b that is not NaN takes over from a (not NaN).
template <class Op> struct TakesOver;
template <class In, class Acc> struct TakesOver<MaxOp<In, Acc>> {
  static __device__ __forceinline__ bool of(Acc a, Acc b) { return b >= a; }
};
template <class In, class Acc> struct TakesOver<MinOp<In, Acc>> {
  static __device__ __forceinline__ bool of(Acc a, Acc b) { return b <= a; }
};

template <class Op, class Acc> struct IndexedMonoid {
  typedef Indexed<Acc> Value;
  static __device__ __forceinline__ Value identity() { return Value{Op::identity(), -1}; }
  static __device__ __forceinline__ Value combine(Value a, Value b) {
    const bool later = b.i >= 0 && (a.i < 0 || is_nan(b.v) || (!is_nan(a.v) && TakesOver<Op>::of(a.v, b.v)));
    return later ? b : a;
  }
  static __device__ __forceinline__ Value acc(Value x) { return x; }
};

// One warp a line, kItems elements a lane a step (strided_scan's walk); the
// values go to `out` and the indices to `indices`, both at the output's
// strides.
template <class P, class Plan>
__device__ __forceinline__ void indexed_strided_scan(const void *in_, const u8 *mask, void *out_, long long *indices,
                                                     long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef IndexedMonoid<typename P::Op, Acc> M;
  typedef typename M::Value Value;
  typedef typename P::Scan S;
  constexpr int I = Plan::kItems;
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  typedef TileAgent<M, Value, P::kReverse, P::kExclusive, 32, I> Agent;
  typename Agent::Storage unused; // (a warp's tile: no block scan)
  Agent agent(unused);
  const bool no_heads[I] = {};
  for_each_line_step<P, Plan, M>(lines, [&](const Offsets<Index> &o, Index start, Index valid, RunningPrefix<M> &carry) {
    typename P::In raw[I];
    load_run<typename P::In, I, S::kIn>(in + o.in + start * Index(S::kIn), valid, raw);
    u8 keep[I];
    if (P::kMask)
      load_run<u8, I, S::kMask>(mask + o.mask + start * Index(S::kMask), valid, keep);
    Value x[I], r[I];
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const bool use = j < valid && (!P::kMask || keep[j] != 0);
      x[j] = use ? Value{Convert<typename P::In>::template load<Acc>(raw[j]), (long long)(start + j)} : M::identity();
    }
    agent.consume(x, no_heads, r, carry);
#pragma unroll
    for (int j = 0; j < I; ++j)
      if (j < valid) {
        const Index at = o.out + (start + j) * Index(S::kOut);
        out[at] = Convert<typename P::Out>::store(r[j].v);
        indices[at] = r[j].i;
      }
  });
}

} // namespace scanjit
