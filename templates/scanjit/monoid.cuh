// What the scan ladder (thread -> warp -> block -> tile) combines: a plain
// operator value, or a (value, head) pair for segmented scans of short rows,
// where a head restarts the running value.
#pragma once

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

template <class Op, class Acc> struct SegmentedMonoid {
  typedef Segment<Acc> Value;
  static __device__ __forceinline__ Value identity() { return make(Op::identity(), false); }
  static __device__ __forceinline__ Value combine(Value a, Value b) {
    Value r;
    r.value = b.head ? b.value : Op::combine(a.value, b.value);
    r.head = a.head | b.head;
    return r;
  }
  static __device__ __forceinline__ Value make(Acc v, bool head) {
    Value r;
    r.value = v;
    r.head = head;
    return r;
  }
  static __device__ __forceinline__ Acc acc(Value v) { return v.value; }
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

} // namespace scanjit
