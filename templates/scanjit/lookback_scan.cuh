// Look-back family for few long rows: every tile of every row is its own
// block, chained in one pass by decoupled look-back (after Merrill & Garland
// 2016). A block takes the next tile in launch order from a global counter
// (so all its predecessors are running or done: no deadlock), scans its
// tile, publishes its aggregate, finds its prefix from its predecessors'
// published values, and publishes its inclusive prefix.
//
// Reproducibility: the classic look-back stops at the first inclusive prefix
// it meets, so the association (and float rounding) depends on timing. Here
// the window is fixed: tile i's prefix is always inclusive[i - W] followed by
// the aggregates of tiles i-W+1 .. i-1 (combined by one warp in a fixed
// order), so results are bitwise reproducible. The dependency chain between
// inclusive prefixes has one link per W tiles.
//
// Workspace (zeroed before each launch by the host): a tile counter, then per
// tile a status word (0 empty, 1 aggregate, 2 inclusive), its aggregate and
// its inclusive prefix. Values are written before their status, with a fence
// between; readers read the status, fence, then the value.
#pragma once

#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"
#include "scanjit/tile_scan.cuh"

namespace scanjit {

template <class Acc> struct LookbackWorkspace {
  unsigned long long *counter;
  volatile int *status;
  volatile Acc *aggregate;
  volatile Acc *inclusive;

  __device__ __forceinline__ LookbackWorkspace(void *base, long long tiles) {
    char *p = static_cast<char *>(base);
    counter = reinterpret_cast<unsigned long long *>(p);
    status = reinterpret_cast<volatile int *>(p + 16);
    // Align the value arrays to 8 bytes after the status words.
    const long long statusBytes = ((tiles * 4 + 15) / 16) * 16;
    aggregate = reinterpret_cast<volatile Acc *>(p + 16 + statusBytes);
    inclusive = reinterpret_cast<volatile Acc *>(p + 16 + statusBytes + tiles * sizeof(Acc));
  }
};

// Bytes of workspace for `tiles` tiles of accumulator size `accBytes` (the
// planner computes the same and the emitted source asserts it).
__host__ __device__ constexpr long long lookback_workspace_bytes(long long tiles, int accBytes) {
  return 16 + ((tiles * 4 + 15) / 16) * 16 + 2 * tiles * accBytes;
}

template <class P, class Plan>
__device__ __forceinline__ void lookback_scan(const void *in_, const u8 *mask, void *out_,
                                              void *workspace) {
  typedef typename P::Index Index;
  typedef typename P::Acc Acc;
  typedef typename P::Op Op;
  typedef PlainMonoid<Op, Acc> M;
  constexpr int T = Plan::kThreads, I = Plan::kItems;
  constexpr long long L = P::kLength;
  constexpr long long kTile = (long long)T * I;
  constexpr long long kTilesPerRow = (L + kTile - 1) / kTile;
  constexpr long long kTiles = kTilesPerRow * P::Lines::kCount;
  const typename P::In *in = static_cast<const typename P::In *>(in_);
  typename P::Out *out = static_cast<typename P::Out *>(out_);
  LookbackWorkspace<Acc> ws(workspace, kTiles);
  __shared__ BlockScanStorage<M, T> storage;
  __shared__ long long shared_id;
  __shared__ Acc shared_prefix;
  int buffer = 0;
  const bool no_heads[I] = {};

  if (threadIdx.x == 0)
    shared_id = (long long)atomicAdd(ws.counter, 1ULL);
  __syncthreads();
  const long long id = shared_id;                 // tiles in scan order
  const long long row = id / kTilesPerRow;
  const long long step = id % kTilesPerRow;       // 0: the row's first tile in scan order
  const Index tile = P::kReverse ? Index(kTilesPerRow - 1 - step) : Index(step);
  const Offsets<Index> o = line_offsets<Index, typename P::Lines>(Index(row));
  const Index start = tile * Index(kTile) + Index(threadIdx.x) * I;

  Acc x[I], r[I];
  load_lifted<P, I, 1, 1>(in + o.in + start, mask + o.mask + start, Index(L) - start, x);
  TileScanState<M, I> s;
  tile_local_scan<M, P::kReverse, T, I>(x, s, storage, buffer);

  const long long row_first = id - step; // first tile of this row, in scan order
  if (threadIdx.x < 32) {
    const int lane = threadIdx.x;
    if (lane == 0) {
      ws.aggregate[id] = s.total;
      __threadfence();
      ws.status[id] = 1;
    }
    constexpr int K = Plan::kLookbackPerLane;
    constexpr long long W = 32LL * K;
    const long long base = id - W; // its inclusive prefix starts ours
    // Lane `lane` combines window tiles base+1+lane*K .. base+(lane+1)*K, in order.
    Acc part = M::identity();
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const long long p = base + 1 + (long long)lane * K + k;
      if (p >= row_first && p < id) {
        while (ws.status[p] == 0) {
        }
        __threadfence();
        part = M::combine(part, ws.aggregate[p]);
      }
    }
    Acc window_total;
    (void)warp_exclusive_scan<M, false>(part, lane, window_total);
    if (lane == 0) {
      Acc prefix = window_total;
      if (base >= row_first) {
        while (ws.status[base] != 2) {
        }
        __threadfence();
        prefix = M::combine(ws.inclusive[base], window_total);
      }
      ws.inclusive[id] = M::combine(prefix, s.total);
      __threadfence();
      ws.status[id] = 2;
      shared_prefix = prefix;
    }
  }
  __syncthreads();
  tile_results<M, Acc, P::kReverse, P::kExclusive, I>(s, shared_prefix, no_heads, r);
  store_converted<P, I, 1>(out + o.out + start, Index(L) - start, r);
}

} // namespace scanjit
