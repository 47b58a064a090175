// Row family: the scanned dimension is contiguous in the input, output and
// mask. One block walks one row at a time, tile by tile, carrying the running
// value; reverse rows walk their tiles from the end. Tiles stay aligned to
// the row start so vector accesses line up in both directions.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/tile_scan.cuh"

namespace scanjit {

template <class P, class Plan>
__device__ __forceinline__ void row_scan(const void *in_, const u8 *mask, void *out_) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef PlainMonoid<typename P::Op, Acc> M;
  constexpr int T = Plan::kThreads, I = Plan::kItems;
  constexpr long long L = P::kLength;
  constexpr long long kTile = (long long)T * I;
  constexpr long long kTiles = (L + kTile - 1) / kTile;
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  __shared__ BlockScanStorage<M, T> storage;
  int buffer = 0;
  const bool no_heads[I] = {};

  for (Index line = blockIdx.x; line < Index(P::Lines::kCount); line += gridDim.x) {
    const Offsets<Index> o = line_offsets<Index, typename P::Lines>(line);
    typename M::Value carry = M::identity();
    // The next tile's loads are issued before this tile's scan and barrier,
    // so memory latency overlaps the scan (register double buffering).
    auto load_tile = [&](Index k, Acc (&x)[I]) {
      const Index tile = P::kReverse ? Index(kTiles) - 1 - k : k;
      const Index start = tile * Index(kTile) + Index(threadIdx.x) * I;
      load_lifted<P, I, 1, 1>(in + o.in + start, mask + o.mask + start, Index(L) - start, x);
    };
    Acc x[I];
    load_tile(0, x);
    for (Index k = 0; k < Index(kTiles); ++k) {
      Acc next[I];
      if (k + 1 < Index(kTiles))
        load_tile(k + 1, next);
      const Index tile = P::kReverse ? Index(kTiles) - 1 - k : k;
      const Index start = tile * Index(kTile) + Index(threadIdx.x) * I;
      Acc r[I];
      scan_tile<M, Acc, P::kReverse, P::kExclusive, T, I>(x, no_heads, r, carry, storage, buffer);
      store_converted<P, I, 1>(out + o.out + start, Index(L) - start, r);
#pragma unroll
      for (int j = 0; j < I; ++j)
        x[j] = next[j];
    }
  }
}

} // namespace scanjit
