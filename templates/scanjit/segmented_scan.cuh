// Segmented family for short contiguous rows: a block takes a chunk of whole
// rows and scans it as one flat array of (value, starts-a-row) pairs, so a
// tile covers many rows and every load is a full vector. Chunks begin on a
// row boundary, so no carry crosses blocks. With stages (sm_90, 16-byte
// aligned rows) the chunks' tiles stream through the row family's pipeline.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/row_scan.cuh"
#include "scanjit/tile_scan.cuh"

namespace scanjit {

template <class P, class Plan>
__device__ __forceinline__ void segmented_scan_direct(const void *in_, const u8 *mask, void *out_) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef SegmentedMonoid<typename P::Op, Acc> M;
  constexpr int T = Plan::kThreads, I = Plan::kItems;
  constexpr long long L = P::kLength;
  constexpr long long kRows = P::Lines::kCount;
  constexpr long long kChunkRows = Plan::kRowsPerChunk;
  constexpr long long kChunks = (kRows + kChunkRows - 1) / kChunkRows;
  constexpr long long kTile = (long long)T * I;
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  __shared__ BlockScanStorage<M, T> storage;
  int buffer = 0;

  for (Index chunk = blockIdx.x; chunk < Index(kChunks); chunk += gridDim.x) {
    const Index first = chunk * Index(kChunkRows * L);
    const Index rows = min(Index(kChunkRows), Index(kRows) - chunk * Index(kChunkRows));
    const Index end = first + rows * Index(L);
    const Index tiles = (end - first + Index(kTile) - 1) / Index(kTile);
    typename M::Value carry = M::identity();
    for (Index k = 0; k < tiles; ++k) {
      const Index tile = P::kReverse ? tiles - 1 - k : k;
      const Index start = first + tile * Index(kTile) + Index(threadIdx.x) * I;
      const Index valid = end - start;
      Acc x[I], r[I];
      load_lifted<P, I, 1, 1>(in + start, mask + start, valid, x);
      typename M::Value v[I];
      bool heads[I];
      with_row_heads<M, P::kReverse, L, I>(x, start % Index(L), Index(0), valid, heads, v);
      scan_tile<M, Acc, P::kReverse, P::kExclusive, T, I>(v, heads, r, carry, storage, buffer);
      store_converted<P, I, 1>(out + start, valid, r);
    }
  }
}

template <class P, class Plan>
__device__ __forceinline__ void segmented_scan(const void *in_, const u8 *mask, void *out_) {
  if constexpr (Plan::kStages > 0 && SCANJIT_BULK_COPY) {
    const typename P::In *in = static_cast<const typename P::In *>(in_);
    row_scan_pipelined<P, Plan, Plan::kRowsPerChunk>(in, mask, static_cast<typename P::Out *>(out_),
                                                     bulk_inputs_aligned<P>(in, mask));
  } else {
    segmented_scan_direct<P, Plan>(in_, mask, out_);
  }
}

} // namespace scanjit
