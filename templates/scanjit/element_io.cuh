// Moving a thread's run of N elements between memory and accumulators:
// load + convert + mask ("lift"), and convert + store. Elements past `valid`
// are neither read nor written and lift to the identity. Contiguous runs
// (stride 1) use vector accesses when the pointers are aligned.
#pragma once

#include "scanjit/vector_io.cuh"

namespace scanjit {

// What a problem's mask holds an element of: a byte, or a packed item's
// bytes (packed_lanes.cuh: P::MaskItem).
template <class...> struct AlwaysVoid {
  typedef void type;
};
template <class P, class = void> struct MaskItemOf {
  typedef u8 type;
};
template <class P> struct MaskItemOf<P, typename AlwaysVoid<typename P::MaskItem>::type> {
  typedef typename P::MaskItem type;
};

// An element lifted to the accumulator where it lies in the tile and its
// mask keeps it, else the identity (a packed item: lane by lane).
template <class Op, class Acc, class In>
__device__ __forceinline__ Acc lift_masked(bool in_tile, In raw, u8 keep) {
  return in_tile && keep != 0 ? Convert<In>::template load<Acc>(raw) : Op::identity();
}

// kItems bytes of shared memory at any byte address: the 4-byte words that
// cover them, shifted into place. The caller's stage has room for the word
// after its last byte.
template <int kItems> __device__ __forceinline__ void load_shared_bytes(const u8 *p, u8 (&v)[kItems]) {
  if constexpr (kItems % 4 != 0) {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      v[j] = p[j];
  } else {
    const u64 a = reinterpret_cast<u64>(p);
    const unsigned *w = reinterpret_cast<const unsigned *>(a & ~u64(3));
    const unsigned bits = unsigned(a & 3) * 8;
    unsigned word[kItems / 4];
    unsigned lo = w[0];
#pragma unroll
    for (int i = 0; i < kItems / 4; ++i) {
      const unsigned hi = w[i + 1];
      word[i] = __funnelshift_r(lo, hi, bits);
      lo = hi;
    }
    memcpy(v, word, sizeof(word));
  }
}

template <class T, int N, long long kStride, class Index>
__device__ __forceinline__ void load_run(const T *p, Index valid, T (&v)[N]) {
  if (kStride == 1 && valid >= N && VectorAccess<T, N>::is_aligned(p)) {
    VectorAccess<T, N>::load(p, v);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j < valid)
      v[j] = p[j * kStride];
}

// Loads, converts to the accumulator and applies the mask.
template <class P, int N, long long kStrideIn, long long kStrideMask, class Index>
__device__ __forceinline__ void load_lifted(const typename P::In *in, const u8 *mask, Index valid,
                                            typename P::Acc (&x)[N]) {
  typedef typename P::In In;
  In raw[N];
  load_run<In, N, kStrideIn>(in, valid, raw);
  u8 keep[N];
  if (P::kMask)
    load_run<u8, N, kStrideMask>(mask, valid, keep);
#pragma unroll
  for (int j = 0; j < N; ++j) {
    bool use = j < valid && (!P::kMask || keep[j] != 0);
    x[j] = use ? Convert<In>::template load<typename P::Acc>(raw[j]) : P::Op::identity();
  }
}

template <class P, int N, long long kStrideOut, class Index>
__device__ __forceinline__ void store_converted(typename P::Out *out, Index valid,
                                                const typename P::Acc (&r)[N]) {
  typedef typename P::Out Out;
  Out v[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    v[j] = Convert<Out>::store(r[j]);
  if (kStrideOut == 1 && valid >= N && VectorAccess<Out, N>::is_aligned(out)) {
    VectorAccess<Out, N>::store(out, v);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j < valid)
      out[j * kStrideOut] = v[j];
}

// Converts a thread's N results and stores them at `p` in shared memory
// (aligned to the run's vector: a stage's slot of a thread's first item).
template <class P, int N>
__device__ __forceinline__ void store_converted_shared(typename P::Out *p, const typename P::Acc (&r)[N]) {
  typedef typename P::Out Out;
  typedef VectorAccess<Out, N> V;
  Out v[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    v[j] = Convert<Out>::store(r[j]);
  typename V::Word w[V::kWords];
  memcpy(w, v, sizeof(w));
#pragma unroll
  for (int i = 0; i < V::kWords; ++i)
    reinterpret_cast<typename V::Word *>(p)[i] = w[i];
}

// A warp's run of 32 x N elements from `first` on, copied from shared
// memory (`src`) to `dst` where they lie in [lo, hi): lane l copies elements
// first + l, first + l + 32, ..., so each store instruction is 32
// consecutive elements.
template <int N, class Out>
__device__ __forceinline__ void copy_run_by_lanes(Out *dst, const Out *src, int first, int lo, int hi) {
  const int lane = int(threadIdx.x & 31);
#pragma unroll
  for (int m = 0; m < N; ++m) {
    const int slot = first + lane + 32 * m;
    if (slot >= lo && slot < hi)
      dst[slot] = src[slot];
  }
}

// A warp's run of 32 x N consecutive results (lane l holds slots
// [lN, lN + N)) stored at `out`, slot 0's element, where slots [lo, hi)
// exist: through `scratch` (the warp's 32 x N elements of shared memory,
// aligned to 16 bytes), so that each store is coalesced across the lanes:
// whole 16-byte words when the run is whole and `out` on the grid, else
// single elements. For runs longer than two vectors a thread (i64 results
// of u8 rows: 1.8x copy from registers) or outputs off the grid (strided
// scalars: 2-3.7x).
template <class P, int N>
__device__ __forceinline__ void store_converted_warp_run(typename P::Out *out, int lo, int hi,
                                                         typename P::Out *scratch, const typename P::Acc (&r)[N]) {
  typedef typename P::Out Out;
  constexpr int kRun = 32 * N;
  const int lane = int(threadIdx.x & 31);
  __syncwarp(); // the lanes have read the warp's previous run
  store_converted_shared<P, N>(scratch + lane * N, r);
  __syncwarp();
  constexpr int kWordElems = 16 / int(sizeof(Out));
  if constexpr (sizeof(Out) <= 16 && 16 % sizeof(Out) == 0 && kRun % (32 * kWordElems) == 0) {
    if (lo <= 0 && hi >= kRun && VectorAccess<Out, kWordElems>::is_aligned(out)) {
#pragma unroll
      for (int w = lane; w < kRun / kWordElems; w += 32) {
        Out v[kWordElems];
        VectorAccess<Out, kWordElems>::load_shared(scratch + w * kWordElems, v);
        VectorAccess<Out, kWordElems>::store(out + w * kWordElems, v);
      }
      return;
    }
  }
  copy_run_by_lanes<N>(out, scratch, 0, lo, hi);
}

// Whether a thread's run of N results leaves better through the warp's
// shared scratch (store_converted_warp_run) than from its registers.
template <class Out, int N> __device__ __forceinline__ bool store_by_warp_run(const Out *out) {
  return N * sizeof(Out) > 32 || !VectorAccess<Out, N>::is_aligned(out);
}

// The same for a run of which only elements [lo, hi) exist (the edges of a
// tile on the 16-byte grid: lo > 0 before a row's first element).
template <class P, int N, class Index>
__device__ __forceinline__ void load_lifted_in(const typename P::In *in, const u8 *mask, Index lo, Index hi,
                                               typename P::Acc (&x)[N]) {
  if (lo <= 0) {
    load_lifted<P, N, 1, 1>(in, mask, hi, x);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const bool use = j >= lo && j < hi && (!P::kMask || mask[j] != 0);
    x[j] = use ? Convert<typename P::In>::template load<typename P::Acc>(in[j]) : P::Op::identity();
  }
}

template <class P, int N, class Index>
__device__ __forceinline__ void store_converted_in(typename P::Out *out, Index lo, Index hi,
                                                   const typename P::Acc (&r)[N]) {
  if (lo <= 0) {
    store_converted<P, N, 1>(out, hi, r);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j >= lo && j < hi)
      out[j] = Convert<typename P::Out>::store(r[j]);
}

} // namespace scanjit
