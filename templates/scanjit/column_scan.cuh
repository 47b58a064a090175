// Column family: the scanned dimension is not the contiguous one. Threads
// spread across the contiguous (inner) dimension, kVector columns each, so
// every step along the scan is one coalesced vector access per thread; the
// running values stay in registers and kUnroll steps are loaded before use.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"

namespace scanjit {

template <class P, class Plan>
__device__ __forceinline__ void column_scan(const void *in_, const u8 *mask, void *out_) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::Op Op;
  typedef typename P::Scan S;
  constexpr int T = Plan::kThreads, V = Plan::kVector, U = Plan::kUnroll;
  constexpr long long L = P::kLength;
  constexpr long long C = P::Inner::kSize;
  constexpr long long kGroups = (C + V - 1) / V;
  constexpr long long kWork = P::Lines::kCount * kGroups;
  static_assert(P::Inner::kIn == 1 && P::Inner::kOut == 1 && (!P::kMask || P::Inner::kMask == 1),
                "the column family needs a contiguous inner dimension");
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);

  for (Index w = Index(blockIdx.x) * T + threadIdx.x; w < Index(kWork); w += Index(gridDim.x) * T) {
    const Index col = (w % Index(kGroups)) * V;
    Offsets<Index> o = line_offsets<Index, typename P::Lines>(w / Index(kGroups));
    o.in += col;
    o.out += col;
    o.mask += col;
    const Index valid = Index(C) - col;
    Acc carry[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      carry[v] = Op::identity();
    for (Index l0 = 0; l0 < Index(L); l0 += U) {
      Acc x[U][V];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const Index l = l0 + u;
        const Index at = P::kReverse ? Index(L) - 1 - l : l;
        if (L % U == 0 || l < Index(L))
          load_lifted<P, V, 1, 1>(in + o.in + at * Index(S::kIn), mask + o.mask + at * Index(S::kMask),
                                  valid, x[u]);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const Index l = l0 + u;
        const Index at = P::kReverse ? Index(L) - 1 - l : l;
        if (L % U == 0 || l < Index(L)) {
          Acc r[V];
#pragma unroll
          for (int v = 0; v < V; ++v) {
            const Acc before = carry[v];
            carry[v] = Op::combine(carry[v], x[u][v]);
            r[v] = P::kExclusive ? before : carry[v];
          }
          store_converted<P, V, 1>(out + o.out + at * Index(S::kOut), valid, r);
        }
      }
    }
  }
}

} // namespace scanjit
