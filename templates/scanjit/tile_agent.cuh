// The tile rung of the scan ladder (thread -> warp -> block -> tile), our
// counterpart of CUB's AgentScan. A family's kernel brings a tile's lifted
// items (from its own loads: registers, stages, bulk copies, edges) and a
// TileAgent scans them and hands back each thread's results, taking the
// tile's prefix from a pluggable source:
//   RunningPrefix   the carry of the tiles a block scanned before (row,
//                   segmented, strided and row-pipeline kernels); with the
//                   segmented monoid, segment heads cut it through the
//                   values' flags, so one source serves both;
//   LookbackPrefix  the decoupled look-back over other blocks' tiles
//                   (lookback_scan.cuh);
//   KnownPrefix     a prefix found before the tile's scan (narrow columns
//                   look back for all of a step's lines at once).
// consume() runs the whole tile; scan() and results() are its two phases,
// for callers that find a tile's prefix later (the pipelined look-back
// finishes each tile one tile late). Whole and partial tiles differ only in
// their loads and stores, which stay the caller's: items past a tile's end
// reach the agent as the identity.
#pragma once

#include "scanjit/tile_scan.cuh"

namespace scanjit {

template <class M, class Acc, bool kReverse, bool kExclusive, int kThreads, int kItems> struct TileAgent {
  typedef typename M::Value Value;
  typedef TileScanState<M, kItems> State;
  // The agent's shared memory: the block scan's warp totals, double-buffered
  // so that consecutive tiles need one block barrier each.
  typedef BlockScanStorage<M, kThreads> Storage;
  Storage &storage;
  int buffer;

  __device__ __forceinline__ explicit TileAgent(Storage &s) : storage(s), buffer(0) {}

  // Phase 1, everything that does not need the prefix: the thread's items,
  // then the block's thread totals (one block barrier; past it every thread
  // has lifted its items, so the tile's input may be overwritten).
  __device__ __forceinline__ void scan(const Value (&v)[kItems], State &s) {
    tile_local_scan<M, kReverse, kThreads, kItems>(v, s, storage, buffer);
  }

  // Phase 2: the results, given the combination of every earlier tile.
  template <class Prefix>
  __device__ __forceinline__ void results(const State &s, Prefix prefix, const bool (&heads)[kItems],
                                          Acc (&r)[kItems]) const {
    tile_results<M, Acc, kReverse, kExclusive, kItems>(s, prefix, heads, r);
  }

  // For callers that did not hold the tile's scanned items but have its
  // items again (a look-back tile read again from its stage): the thread's
  // scan runs again, before phase 2; the block's part of `s` is kept. Not
  // log-sum-exp, whose thread scan is relative to a reference it chose.
  __device__ __forceinline__ void scan_again(const Value (&v)[kItems], State &s) const {
    static_assert(!IsPlainLogSumExp<M>::value, "log-sum-exp's thread scan is not run again");
    thread_inclusive_scan<M, kReverse, kItems>(v, s.local);
  }

  // A whole tile: `after_scan` runs on every thread once the tile's block
  // barrier has passed (a pipeline refills the tile's stage there), then
  // the source gives the prefix.
  template <class Source, class AfterScan>
  __device__ __forceinline__ void consume(const Value (&v)[kItems], const bool (&heads)[kItems], Acc (&r)[kItems],
                                          Source &source, AfterScan after_scan) {
    State s;
    scan(v, s);
    after_scan();
    results(s, source.prefix(s), heads, r);
  }
  template <class Source>
  __device__ __forceinline__ void consume(const Value (&v)[kItems], const bool (&heads)[kItems], Acc (&r)[kItems],
                                          Source &source) {
    consume(v, heads, r, source, [] {});
  }
};

// The prefix of a block's tiles in scan order: the carry of those before,
// reset where a row or chunk starts. Log-sum-exp carries its (max, sum)
// pair, which needs no log between tiles.
template <class M> struct RunningPrefix {
  typedef CarryMonoid<M> Carry;
  typename Carry::Value carry;

  __device__ __forceinline__ RunningPrefix() : carry(Carry::identity()) {}
  __device__ __forceinline__ void reset() { carry = Carry::identity(); }
  template <int kItems> __device__ __forceinline__ typename Carry::Value prefix(const TileScanState<M, kItems> &s) {
    const typename Carry::Value before = carry;
    carry = tile_carry(carry, s);
    return before;
  }
};

// A prefix the caller found before the tile's scan.
template <class Value> struct KnownPrefix {
  Value value;
  template <class State> __device__ __forceinline__ Value prefix(const State &) const { return value; }
};

} // namespace scanjit
