// Packed narrow columns, a thread a lane (lane_threads=1 in the plan): of a
// tile of packed items (packed_lanes.cuh), thread t scans lane t % C of
// items (t / C) * kItems .. + kItems, which lie C elements apart in the
// stage. Its items are scalars, so each rung costs what one row's does: a
// warp scans a lane's threads in log2(32 / C) shuffles, where a thread of
// Lanes items combines C values at every step of every rung (f32[4194304,4]
// dim=0 issued 1.8x the instructions of the same bytes as one row). An odd
// kItems keeps a warp's stage reads on different banks. The tile's total and
// its prefix stay Lanes, so the look-back (window, workspace, published
// values) is the packed one's, and a tile holds kThreads * kItems / C items.
//
// kWidth > 1 (lane_width in the plan): a thread holds kWidth adjacent lanes
// of each of its items, read from and written to the stage as one word (the
// 2-byte elements of f16[N,4] a 4-byte word a thread: the stage's scalar
// 2-byte accesses are what made a thread a 2-byte lane lose to Lanes items),
// and C / kWidth threads share an item.
//
// Log-sum-exp (a lane a thread only: the planner's logSumExpLanesPack) scans
// a thread's items as a plain log-sum-exp tile does (log_sum_exp_tile.cuh):
// linear sums, then (max, sum) pairs across the lane's threads and warps,
// so an item costs an exp in and a log out. The warps' lane totals cross
// shared memory in log space (as tile totals do), in the slots the other
// ops' values take.
#pragma once

#include "scanjit/byte_lanes.cuh"
#include "scanjit/log_sum_exp_tile.cuh"
#include "scanjit/packed_lanes.cuh"
#include "scanjit/thread_scan.cuh"

namespace scanjit {

// A group of a stage as one word where `kWord` (its place a multiple of its
// size), else element by element (a shifted stage's tile starts anywhere).
template <class T, bool kWord> __device__ __forceinline__ T load_group(const T *p) {
  if constexpr (kWord && sizeof(T) > 1) {
    T v[1];
    VectorAccess<T, 1>::load_shared(p, v);
    return v[0];
  } else {
    return *p;
  }
}
template <class T, bool kWord> __device__ __forceinline__ void store_group(T *p, T v) {
  if constexpr (kWord && sizeof(T) > 1) {
    static_assert(sizeof(typename VectorAccess<T, 1>::Word) == sizeof(T), "a group is one word");
    const T one[1] = {v};
    VectorAccess<T, 1>::store_shared(p, one);
  } else {
    *p = v;
  }
}

// An item's group lifted from the stage (its mask's group at `keep`; the
// identity past the tile's end or where its mask is 0), and a result
// stored to it, as one word where `kWord` (load_group).
template <class In, class Out, class Acc, class Keep, class Op, bool kMask> struct ConvertedGroupIo {
  template <bool kWord> static __device__ __forceinline__ Acc lift(const In *in, const Keep *keep, bool in_tile) {
    const In raw = load_group<In, kWord>(in);
    if constexpr (kMask)
      return lift_masked<Op, Acc>(in_tile, raw, load_group<Keep, kWord>(keep));
    else
      return in_tile ? Convert<In>::template load<Acc>(raw) : Op::identity();
  }
  template <bool kWord> static __device__ __forceinline__ void store(Out *out, Acc a) {
    store_group<Out, kWord>(out, Convert<Out>::store(a));
  }
};

// What a lane thread holds of an item: kWidth adjacent lanes, or one
// lane's scalars, or (max and min of byte lanes) words of four lanes
// (byte_lanes.cuh).
template <class P, int kWidth, bool kByteWords = HeldAsByteWords<P, kWidth>::value>
struct LaneGroup : ConvertedGroupIo<Lanes<typename P::In, kWidth>, Lanes<typename P::Out, kWidth>,
                                    Lanes<typename P::Acc, kWidth>, Lanes<u8, kWidth>,
                                    LanesOp<typename P::Op, typename P::Acc, kWidth>, P::kMask> {
  typedef Lanes<typename P::In, kWidth> In;
  typedef Lanes<typename P::Out, kWidth> Out;
  typedef Lanes<typename P::Acc, kWidth> Acc;
  typedef Lanes<u8, kWidth> Keep;
  typedef LanesOp<typename P::Op, typename P::Acc, kWidth> Op;
  // The lanes' accumulators from a tile's lanes, from lane `first` on.
  template <class Tile> static __device__ __forceinline__ Acc of(const Tile &t, int first) {
    Acc r;
#pragma unroll
    for (int g = 0; g < kWidth; ++g)
      r.v[g] = t.v[first + g];
    return r;
  }
  template <class Tile> static __device__ __forceinline__ void put(Tile &t, int first, Acc a) {
#pragma unroll
    for (int g = 0; g < kWidth; ++g)
      t.v[first + g] = a.v[g];
  }
};
template <class P>
struct LaneGroup<P, 1, false> : ConvertedGroupIo<typename P::In, typename P::Out, typename P::Acc, u8,
                                                 typename P::Op, P::kMask> {
  typedef typename P::In In;
  typedef typename P::Out Out;
  typedef typename P::Acc Acc;
  typedef u8 Keep;
  typedef typename P::Op Op;
  template <class Tile> static __device__ __forceinline__ Acc of(const Tile &t, int first) { return t.v[first]; }
  template <class Tile> static __device__ __forceinline__ void put(Tile &t, int first, Acc a) { t.v[first] = a; }
};
template <class P, int kWidth> struct LaneGroup<P, kWidth, true> : ByteLaneGroup<P, kWidth> {};

// PP: PackedLanes<P, C>; Storage: the look-back's block scan storage, whose
// 2 x kWarps Lanes values this agent uses as 2 x kWarps * C scalars.
//
// kReload: the tile's stage still holds its input when its results are due
// (the look-back's staged output: a stage is refilled only after its tile's
// results left through it), so a thread scans its items again from there
// (rescan) rather than holding their scan across the next tile's (4 lanes
// of 2-byte elements, 11 items: 88 spilled stores). Its caller rescans
// before the block barrier that precedes the results' stores into the
// stage where they land on other threads' items (an output wider than the
// input), else may rescan at any time before them.
template <class PP, int kThreads, int kItems, int kWidth = 1, bool kReload = false> struct LaneThreadAgent {
  typedef typename PP::Unpacked P;
  static_assert(PP::kLanes % kWidth == 0, "whole groups of lanes");
  static constexpr int C = PP::kLanes / kWidth; // threads that share an item
  static constexpr int kWarps = kThreads / 32;
  static_assert(32 % C == 0, "a lane's threads tile each warp");
  static constexpr int kRounds = (kWarps * C + 31) / 32; // of the warps' lane totals
  static constexpr bool kReverse = P::kReverse;
  typedef LaneGroup<P, kWidth> Group;
  typedef typename Group::Acc Acc;
  typedef PlainMonoid<typename Group::Op, Acc> M;
  // What the lane's threads and warps combine: M, or log-sum-exp's pairs.
  static constexpr bool kLogSumExp = IsPlainLogSumExp<M>::value;
  typedef typename BlockMonoid<M>::type ScanM;
  typedef typename ScanM::Value Run;
  typedef typename PP::Acc Tile; // a tile's lanes: its total, its prefix
  static constexpr int kTileItems = kThreads * kItems / C;

  struct State {
    Acc local[kReload ? 1 : kItems]; // inclusive scan of this thread's items, in scan order (kReload: none)
    Run excl;          // combination of the lane's earlier threads in the tile
    Tile total;        // the tile's combination, every lane
    Acc ref;           // log-sum-exp: what `local`'s linear sums are relative to, ...
    bool linear;       // ... when they are (log_sum_exp_tile.cuh)
  };

  Acc (*totals)[kWarps * C]; // two buffers of the warps' lane totals
  int buffer;

  template <class Storage> __device__ __forceinline__ explicit LaneThreadAgent(Storage &storage) : buffer(0) {
    static_assert(sizeof(Storage) >= 2 * kWarps * C * sizeof(Acc), "the block scan's storage holds every warp's lanes");
    totals = reinterpret_cast<Acc(*)[kWarps * C]>(&storage);
  }

  static __device__ __forceinline__ int lane() { return int(threadIdx.x) % C; }
  static __device__ __forceinline__ int first_item() { return int(threadIdx.x) / C * kItems; }
  // Element `j` of this thread, counted in the tile's scalars.
  static __device__ __forceinline__ int element(int j) { return (first_item() + j) * C + lane(); }

  // This thread's items of the stage, lifted; items at or past `valid` (the
  // tile's packed items) lift to the identity.
  template <class Pipe> __device__ __forceinline__ void load(Pipe &pipe, int s, int valid, Acc (&x)[kItems]) const {
    typedef typename Group::In In;
    typedef typename Group::Keep Keep;
    constexpr bool kWords = kWidth > 1 && !Pipe::kShiftedStages;
    const In *in = reinterpret_cast<const In *>(pipe.in_at(s));
    const Keep *keep = reinterpret_cast<const Keep *>(pipe.mask_at(s));
    if (first_item() + kItems <= valid) // (every tile but a scan's last: no item checked)
      lift_items<kWords, true>(in, keep, valid, x);
    else
      lift_items<kWords, false>(in, keep, valid, x);
  }

  // Lifts this thread's items from the stage (kFull: every item in the
  // tile, none checked against `valid`).
  template <bool kWords, bool kFull, class In, class Keep>
  static __device__ __forceinline__ void lift_items(const In *in, const Keep *keep, int valid, Acc (&x)[kItems]) {
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      x[j] = Group::template lift<kWords>(in + element(j), keep + element(j), kFull || first_item() + j < valid);
  }

  // The tile's scan but its prefix: thread, then the lane's threads in the
  // warp (every C-th lane), then the warps' totals of each lane (one block
  // barrier; past it every thread has read its items from the stage).
  __device__ __forceinline__ void scan(const Acc (&v)[kItems], State &s) {
    const int l = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
    Acc local[kItems];
    Run incl = thread_scan(v, local, s.ref, s.linear);
    if constexpr (!kReload) {
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        s.local[j] = local[j];
    }
    incl = strided_inclusive_scan(incl, l);
    const Run warp_excl = strided_exclusive(incl, l);
    if (kReverse ? l < C : l >= 32 - C) // the lane's last thread in scan order
      totals[buffer][warp * C + lane()] = ScanM::acc(incl);
    __syncthreads();
    // Slot w * C + c holds warp w's total of lane c, in rounds of 32 slots:
    // every warp scans each round (slots past the last warp hold the
    // identity, which combines exactly in either direction), carrying each
    // lane's total from round to round in scan order.
    const int mine = warp * C + lane(); // this thread's warp's slot
    Run before = ScanM::identity(), carry = ScanM::identity();
#pragma unroll
    for (int n = 0; n < kRounds; ++n) {
      const int round = kReverse ? kRounds - 1 - n : n;
      const int slot = 32 * round + l;
      Run t = slot < kWarps * C ? ScanM::make(totals[buffer][slot], false) : ScanM::identity();
      t = strided_inclusive_scan(t, l);
      if (round == mine / 32) // (uniform in the warp)
        before = ScanM::combine(carry, shfl_idx(strided_exclusive(t, l), mine % 32));
      carry = ScanM::combine(carry, shfl_idx(t, (kReverse ? 0 : 32 - C) + lane()));
    }
    buffer ^= 1;
    s.excl = ScanM::combine(before, warp_excl);
    const Acc lane_total = ScanM::acc(carry); // (log-sum-exp: one log a thread, not C)
#pragma unroll
    for (int c = 0; c < C; ++c)
      Group::put(s.total, c * kWidth, shfl_idx(lane_total, c)); // (lane c's carry is its group's)
  }

  // This thread's items scanned (`local`, and log-sum-exp's `ref` and
  // `linear` with them) for the results: held in `s`, or (kReload) scanned
  // again from stage `stage`, of `valid` packed items.
  template <class Pipe>
  __device__ __forceinline__ void rescan(Pipe &pipe, int stage, int valid, const State &s, Acc (&local)[kItems],
                                         Acc &ref, bool &linear) const {
    ref = s.ref;
    linear = s.linear;
    if constexpr (kReload) {
      Acc x[kItems];
      load(pipe, stage, valid, x);
      thread_scan(x, local, ref, linear);
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        local[j] = s.local[j];
    }
  }

  // The results, given the combination of every earlier tile and this
  // thread's items scanned (rescan).
  __device__ __forceinline__ void results(const State &s, const Acc (&local)[kItems], Acc ref, bool linear,
                                          const Tile &prefix, Acc (&r)[kItems]) const {
    Acc mine = Group::of(prefix, 0); // (selects: a dynamic index would put `prefix` in local memory)
#pragma unroll
    for (int c = 1; c < C; ++c)
      if (lane() == c)
        mine = Group::of(prefix, c * kWidth);
    const Run before = ScanM::combine(ScanM::make(mine, false), s.excl);
    if constexpr (kLogSumExp) {
      lse_thread_results<M, kReverse, P::kExclusive, kItems>(local, ref, linear, before, r);
    } else {
      const bool no_heads[kItems] = {};
      thread_results<M, Acc, kReverse, P::kExclusive, kItems>(local, before, no_heads, r);
    }
  }

  // The results through stage `s` (the pipeline's staged stores: each warp's
  // threads hold a contiguous run of 32 * kItems / C packed items) to `dst`,
  // the tile's first item, of `count`.
  template <class Pipe>
  __device__ __forceinline__ void store_staged(Pipe &pipe, int s, typename PP::Out *dst, int count, bool on_grid,
                                               const Acc (&r)[kItems]) const {
    typedef typename Group::Out Out;
    Out *staged = reinterpret_cast<Out *>(pipe.in[s]);
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      Group::template store<(kWidth > 1)>(staged + element(j), r[j]);
    constexpr int kRun = 32 * kItems / C;
    pipe.template store_warp_run<kRun>(s, dst, count, on_grid, int(threadIdx.x >> 5) * kRun);
  }

  // The results from registers to `dst`, the tile's first item, of `count`.
  __device__ __forceinline__ void store_direct(typename PP::Out *dst, int count, const Acc (&r)[kItems]) const {
    typedef typename Group::Out Out;
    Out *out = reinterpret_cast<Out *>(dst);
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (first_item() + j < count)
        Group::template store<false>(out + element(j), r[j]);
  }

private:
  // This thread's items scanned into `local` (log-sum-exp: linear sums
  // relative to `ref` where `linear`); their total.
  static __device__ __forceinline__ Run thread_scan(const Acc (&v)[kItems], Acc (&local)[kItems], Acc &ref,
                                                    bool &linear) {
    if constexpr (kLogSumExp) {
      static_assert(kWidth == 1, "log-sum-exp lanes a lane a thread");
      return lse_thread_scan<M, kReverse, kItems>(v, local, ref, linear);
    } else {
      return thread_inclusive_scan<M, kReverse, kItems>(v, local);
    }
  }
  // Inclusive scan of the lanes that share this thread's lane() (every C-th).
  static __device__ __forceinline__ Run strided_inclusive_scan(Run v, int l) {
#pragma unroll
    for (int d = C; d < 32; d <<= 1) {
      const Run other = kReverse ? shfl_down(v, d) : shfl_up(v, d);
      if (kReverse ? l + d < 32 : l >= d)
        v = ScanM::combine(other, v);
    }
    return v;
  }
  // The exclusive value of each lane given their inclusive values.
  static __device__ __forceinline__ Run strided_exclusive(Run incl, int l) {
    const Run prev = kReverse ? shfl_down(incl, C) : shfl_up(incl, C);
    return (kReverse ? l >= 32 - C : l < C) ? ScanM::identity() : prev;
  }
};

} // namespace scanjit
