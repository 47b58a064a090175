// General strided family: strides that normalize to neither a contiguous row
// nor a contiguous inner dimension. One warp scans one line cooperatively,
// kItems elements per lane per step, with warp shuffles and a running carry.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/tile_agent.cuh"

namespace scanjit {

// The walk both strided kernels share: each warp takes lines (blockIdx.x
// first, then every gridDim.x-th group of kWarps) and walks each in steps of
// 32 x kItems elements in scan order. `step(o, start, valid, carry)` gets
// the line's offsets, the lane's first element (its place along the line)
// and how many of its kItems exist; `carry` is reset for each line.
template <class P, class Plan, class M, class Step>
__device__ __forceinline__ void for_each_line_step(long long lines, Step step) {
  typedef typename P::Index Index;
  constexpr int I = Plan::kItems;
  constexpr int kWarps = Plan::kThreads / 32;
  constexpr long long kChunk = 32LL * I;
  constexpr long long kChunks = (P::kLength + kChunk - 1) / kChunk;
  const int lane = threadIdx.x & 31;
  for (Index line = Index(blockIdx.x) * kWarps + (threadIdx.x >> 5); line < Index(lines);
       line += Index(gridDim.x) * kWarps) {
    const Offsets<Index> o = line_offsets<Index, typename P::Lines>(line);
    RunningPrefix<M> carry;
    for (Index k = 0; k < Index(kChunks); ++k) {
      const Index chunk = P::kReverse ? Index(kChunks) - 1 - k : k;
      const Index start = chunk * Index(kChunk) + lane * I;
      step(o, start, Index(P::kLength) - start, carry);
    }
  }
}

template <class P, class Plan>
__device__ __forceinline__ void strided_scan(const void *in_, const u8 *mask, void *out_, long long lines) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef PlainMonoid<typename P::Op, Acc> M;
  typedef typename P::Scan S;
  constexpr int I = Plan::kItems;
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  // A warp's tile: a warp-wide agent, whose storage goes unused.
  typedef TileAgent<M, Acc, P::kReverse, P::kExclusive, 32, I> Agent;
  typename Agent::Storage unused;
  Agent agent(unused);
  const bool no_heads[I] = {};
  for_each_line_step<P, Plan, M>(lines, [&](const Offsets<Index> &o, Index start, Index valid, RunningPrefix<M> &carry) {
    Acc x[I], r[I];
    load_lifted<P, I, S::kIn, S::kMask>(in + o.in + start * Index(S::kIn), mask + o.mask + start * Index(S::kMask),
                                        valid, x);
    agent.consume(x, no_heads, r, carry);
    store_converted<P, I, S::kOut>(out + o.out + start * Index(S::kOut), valid, r);
  });
}

} // namespace scanjit
