// The stage ring of tile_pipeline.cuh for rows off the 16-byte grid (odd
// lengths, pointers a few elements in: plans with edges=1). Lane 0 of warp 0
// issues; every thread waits on the stage's mbarrier, lifts its items from
// shared memory, and the scan's own block barrier tells warp 0 that the
// stage has been read and may be refilled.
//
// Any row length and any element-aligned pointer: tiles lie on the input's
// 16-byte grid (RowTiles), and a tile's input and mask arrive as the whole
// 16-byte words holding them (copy_words), so the copy engine moves
// every byte; the slots outside the tile's own [lo, hi) hold neighbouring
// bytes, which the loads ignore. Only the tensor's last word, which may end
// its allocation, is copied by the issuing thread. A mask whose words lie
// elsewhere on the grid lands shifted in its stage by its place in its word.
// Results leave through the stage: a warp's whole, aligned run by one bulk
// store, any other run by coalesced stores of the warp's lanes.
#pragma once

#include "scanjit/bulk_copy.cuh"
#include "scanjit/element_io.cuh"

namespace scanjit {

// The tiles of a row of `n` elements on its input's 16-byte grid: tile m
// (in memory order) holds elements first(m) .. first(m) + kTile - 1, where
// first(0) = -lead puts the row's first element in the slot of its place
// in its 16-byte word. Slots [lo, hi) of a tile hold the row's elements.
template <class In, int kTile> struct RowTiles {
  static constexpr int kWordElems = 16 / int(sizeof(In));
  static constexpr int kMaxLead = kWordElems - 1;
  int lead;    // elements of the row's first 16-byte word before the row
  long long n; // the row's elements

  __device__ __forceinline__ RowTiles(const In *row, long long elems)
      : lead(int((reinterpret_cast<u64>(row) & 15) / sizeof(In))), n(elems) {}
  __device__ __forceinline__ long long count() const { return (lead + n + kTile - 1) / kTile; }
  __device__ __forceinline__ long long first(long long m) const { return m * kTile - lead; }
  __device__ __forceinline__ int lo(long long m) const { return m == 0 ? lead : 0; }
  __device__ __forceinline__ int hi(long long m) const {
    return int(min((long long)kTile, n - first(m)));
  }
};

// A tile as a stage sees it: slot j is element `first + j` of the row whose
// input, mask and output start at the row pointers; slots [lo, hi) exist.
struct TileSlots {
  long long first;
  int lo, hi;
  __device__ __forceinline__ bool whole(int tile) const { return lo == 0 && hi == tile; }
};

// kEvictFirst: the bulk copies carry the evict-first L2 policy (the plan's
// choice: it helped the look-back and slowed block-per-row scans on H200).
template <class P, int kStages, int kTileElems, bool kEvictFirst> struct GridPipeline {
  typedef typename P::In In;
  typedef typename P::Out Out;
  static constexpr int kInWord = 16 / int(sizeof(In)); // input elements in a 16-byte word
  // A stage holds a tile's input, and later its output (staged stores).
  static constexpr int kInBytes = kTileElems * int(sizeof(In) > sizeof(Out) ? sizeof(In) : sizeof(Out));
  // The mask lands shifted by its place in its 16-byte word (up to 15
  // bytes), and a lane's read of its bytes may touch the word after them.
  static constexpr int kMaskBytes = P::kMask ? kTileElems + 32 : 16;
  // Arrivals per phase: the issuing lane's (the copies' bytes aside).
  static constexpr unsigned kArrivals = 1;

  alignas(128) unsigned char in[kStages][kInBytes];
  alignas(16) unsigned char mask[kStages][kMaskBytes];
  u64 full[kStages];
  long long item[kStages]; // the work item the stage holds (set by the issuer)
  // The start of the tensor's last 16-byte word of input and of mask
  // (TensorLastWords): the tiles' copies of whole words stop there
  // (copy_words). Kept here, for the issuing lane alone, not in every
  // thread's registers.
  u64 last_in, last_mask;

  // Every thread, for `lines` lines of P::kLength elements from `in0` and
  // `mask0` (strides are never negative); a block barrier must follow.
  __device__ __forceinline__ void init(const In *in0, const u8 *mask0, long long lines) {
    if (threadIdx.x == 0) {
      const TensorLastWords<P> last(in0, mask0, lines);
      last_in = last.in;
      last_mask = last.mask;
#pragma unroll
      for (int s = 0; s < kStages; ++s)
        mbarrier_init(&full[s], kArrivals);
      mbarrier_init_fence();
    }
  }

  // Where in its stage the tile's mask byte of slot 0 lands.
  static __device__ __forceinline__ int mask_shift(const u8 *mask0) {
    return P::kMask ? int(reinterpret_cast<u64>(mask0) & 15) : 0;
  }

  // Bytes [b0, b1) of a run whose byte 0 is at 16-byte aligned `base`, into
  // stage bytes `dst` at the same places: the copy engine brings the whole
  // words holding them, up to `last` (the tensor's last word, which may end
  // its allocation: words never lie partly in one otherwise, since
  // allocations start on 16-byte multiples), and this thread copies the
  // bytes from there on (the tensor's last tile only).
  __device__ __forceinline__ void copy_words(unsigned char *dst, const unsigned char *base, int b0, int b1, u64 last,
                                             u64 *bar) {
    const int w0 = b0 & ~15;
    int w1 = (b1 + 15) & ~15;
    if (reinterpret_cast<u64>(base + w1) > last) {
      const long long room = (long long)(last - reinterpret_cast<u64>(base)); // a multiple of 16
      w1 = int(max((long long)w0, min((long long)w1, room)));
#pragma unroll 1
      for (int b = max(b0, w1); b < b1; ++b)
        dst[b] = base[b];
    }
    if (w1 > w0) {
      mbarrier_expect_tx(bar, unsigned(w1 - w0));
      bulk_copy_to_shared<kEvictFirst>(dst + w0, base + w0, unsigned(w1 - w0), bar);
    }
  }

  // Stage `s` receives the tile `t` for work item `work`, whose slot 0 is
  // at `in0` (16-byte aligned: tiles lie on the input's grid) and `mask0`:
  // the whole words holding slots [t.lo, t.hi) of input and mask
  // (copy_words). Lane 0 of warp 0 copies and arrives, which ends the
  // stage's phase once the copies land; the other lanes may call it too.
  __device__ __forceinline__ void issue(int s, long long work, const In *in0, const u8 *mask0, const TileSlots &t) {
    if ((threadIdx.x & 31) != 0)
      return;
    item[s] = work;
    if (t.hi > t.lo) {
      constexpr int E = int(sizeof(In));
      copy_words(in[s], reinterpret_cast<const unsigned char *>(in0), t.lo * E, t.hi * E, last_in, &full[s]);
      if (P::kMask) {
        const int shift = mask_shift(mask0);
        copy_words(mask[s], mask0 - shift, shift + t.lo, shift + t.hi, last_mask, &full[s]);
      }
    }
    mbarrier_arrive(&full[s]); // (its acquire by the waiters makes the bytes copied here visible)
  }

  // Stage `s` holds no work (none is left); called as issue().
  __device__ __forceinline__ void issue_end(int s) {
    if ((threadIdx.x & 31) != 0)
      return;
    item[s] = -1;
    mbarrier_arrive(&full[s]);
  }

  // Use number `use` (0, 1, 2, ...) of stage `s`: waits for its data and
  // returns its work item. Every thread calls it.
  __device__ __forceinline__ long long wait(int s, long long use) {
    mbarrier_wait(&full[s], unsigned(use & 1));
    return item[s];
  }

  // This thread's kItems elements at slot `first` of stage `s`, lifted to
  // the accumulator; slots outside [t.lo, t.hi) lift to the identity
  // (kWhole: the caller knows the tile is whole, so none is checked).
  template <int kItems, bool kWhole>
  __device__ __forceinline__ void load_lifted(int s, int first, const TileSlots &t, int shift,
                                              typename P::Acc (&x)[kItems]) const {
    In raw[kItems];
    u8 keep[kItems];
    VectorAccess<In, kItems>::load_shared(reinterpret_cast<const In *>(in[s]) + first, raw);
    if (P::kMask)
      load_shared_unaligned(mask[s] + shift + first, keep);
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const bool use = (kWhole || (first + j >= t.lo && first + j < t.hi)) && (!P::kMask || keep[j] != 0);
      x[j] = use ? Convert<In>::template load<typename P::Acc>(raw[j]) : P::Op::identity();
    }
  }
  template <int kItems>
  __device__ __forceinline__ void load_lifted(int s, int first, const TileSlots &t, int shift,
                                              typename P::Acc (&x)[kItems]) const {
    if (t.whole(kTileElems))
      load_lifted<kItems, true>(s, first, t, shift, x);
    else
      load_lifted<kItems, false>(s, first, t, shift, x);
  }

  // Results may leave through their stage when a stage can wait a tile for
  // its refill (three or more); held shares, which refill none, always may.
  static constexpr bool kCanStageOutput = kStages >= 3;

  // Output through a stage that has been read: each warp writes its
  // threads' results (a contiguous run of 32 x kItems slots), converted,
  // into the stage; a run that is whole and starts on a 16-byte word of the
  // output leaves by one bulk copy from lane 0, any other run by the lanes'
  // coalesced stores of the slots in [t.lo, t.hi). `out0` is slot 0's
  // output element. Only the warp synchronizes. Before the stage is
  // refilled, retire_stores() must have run on every warp.
  template <int kItems>
  __device__ __forceinline__ void store_through_stage(int s, Out *out0, const TileSlots &t,
                                                      const typename P::Acc (&r)[kItems]) {
    static_assert(kTileElems * sizeof(Out) <= kInBytes, "the output tile must fit in its stage");
    static_assert((32 * kItems * sizeof(Out)) % 16 == 0, "a warp's run is whole 16-byte words");
    Out *staged = reinterpret_cast<Out *>(in[s]);
    store_converted_shared<P, kItems>(staged + threadIdx.x * kItems, r);
    const int lane = int(threadIdx.x & 31);
    const int first = int(threadIdx.x & ~31) * kItems; // the warp's run
    constexpr int kRun = 32 * kItems;
    if (t.lo <= first && first + kRun <= t.hi && aligned16(out0 + first)) {
      fence_shared_to_async_proxy();
      __syncwarp();
      if (lane == 0) {
        bulk_copy_to_global<kEvictFirst>(out0 + first, staged + first, unsigned(kRun) * unsigned(sizeof(Out)));
        bulk_commit_group();
      }
      return;
    }
    __syncwarp();
    if constexpr (copies_runs_by_lane_words<Out>())
      copy_run_by_lane_words(out0, staged, max(first, t.lo), min(first + kRun, t.hi));
    else
      copy_run_by_lanes<kItems>(out0, staged, first, t.lo, t.hi);
  }

  // Every thread, before the block barrier that precedes a stage's refill:
  // this warp's bulk stores have read the stages.
  __device__ __forceinline__ void retire_stores() const { retire_warp_bulk_stores(); }

  // Every thread, before the block exits: this warp's bulk stores are done.
  __device__ __forceinline__ void drain_stores() const { drain_warp_bulk_stores(); }
};

} // namespace scanjit
