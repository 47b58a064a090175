// A ring of shared-memory stages that the bulk copy engine fills with the
// input (and mask) of the tiles a block will scan next, so several tiles per
// block are in flight while the block scans the current one, at no register
// cost. Thread 0 issues; every thread waits on the stage's mbarrier, lifts
// its items from shared memory, and the scan's own block barrier tells
// thread 0 that the stage has been read and may be refilled.
//
// Bulk copies need 16-byte aligned tile starts and sizes: the planner checks
// the strides and lengths, and the runtime launches such a plan only with
// input and mask pointers on the 16-byte grid (others take the spec's
// off-grid plan: KernelEntry::offGridEntry in runtime/KernelRegistry.h),
// so no kernel carries a second, thread-filled path. (The exceptions: the
// ragged end of a segmented chunk or of a packed group, the tensor's last
// partial 16-byte word, which the issuing thread copies, kRaggedEnd below;
// and packed groups' shifted stages, kShifted, which take the whole words
// holding each tile from any pointer.)
#pragma once

#include "scanjit/bulk_copy.cuh"
#include "scanjit/element_io.cuh"
#include "scanjit/geometry.cuh"

namespace scanjit {

// Each stage's mbarrier and the work item it holds: the issuer sets the item
// before the stage's phase completes, and every thread reads it after its wait.
template <int kStages> struct StageRing {
  u64 full[kStages];
  long long item[kStages]; // the work item the stage holds (set by the issuer)

  // Every thread; a block barrier must follow.
  __device__ __forceinline__ void init() {
    if (threadIdx.x == 0) {
#pragma unroll
      for (int s = 0; s < kStages; ++s)
        mbarrier_init(&full[s], 1);
      mbarrier_init_fence();
    }
  }

  // Thread 0: stage `s` completes its phase with no data (no work left).
  __device__ __forceinline__ void issue_end(int s) {
    item[s] = -1;
    mbarrier_arrive(&full[s]);
  }

  // Use number `use` (0, 1, 2, ...) of stage `s`: every thread waits for its
  // data and gets its work item.
  __device__ __forceinline__ long long wait(int s, long long use) {
    mbarrier_wait(&full[s], unsigned(use & 1));
    return item[s];
  }
};

// kEvictFirst: the bulk copies carry the evict-first L2 policy (the plan's
// choice: it helped the look-back and slowed block-per-row scans on H200).
// kChunkRows: rows a block walks as one flat run of tiles (the segmented
// family's chunks of contiguous rows; 1: a row alone). kShifted: tiles that
// start anywhere in a word (packed lanes from a pointer off the 16-byte
// grid, or in lines whose strides are not whole words; their items need
// not tile words): each stage receives the whole words holding its tile,
// which starts where the tile does in its first word (in_at, mask_at).
template <class P, int kStages, int kTileElems, bool kEvictFirst, long long kChunkRows = 1, bool kShifted = false>
struct TilePipeline {
  typedef typename P::In In;
  typedef typename MaskItemOf<P>::type MaskItem;
  // Rows off the 16-byte grid in chunks that are whole words (the planner
  // rounds the segmented family's chunks to them), or one row of packed
  // lanes of any length: only the tensor's last tile may end inside a word,
  // and its last partial word (input, mask or output) is copied by a
  // thread, since a bulk copy moves whole words. (Packed items of 3, 5, 6
  // or 7 lanes straddle words: those bytes are copied as bytes.)
  static constexpr bool kRaggedEnd =
      (P::kLength * sizeof(In)) % 16 != 0 || (P::kMask && (P::kLength * sizeof(MaskItem)) % 16 != 0);
  static constexpr bool kRaggedOut = (P::kLength * sizeof(typename P::Out)) % 16 != 0;
  // A stage holds a tile's input, and later its output (staged stores).
  static constexpr int kInBytes =
      kTileElems * int(sizeof(In) > sizeof(typename P::Out) ? sizeof(In) : sizeof(typename P::Out));
  static constexpr int kMaskBytes = P::kMask ? kTileElems * int(sizeof(MaskItem)) : 16;

  // (A shifted tile's words: one more, and one to spare for the 16 bytes
  // load_shared_shifted reads past it.)
  static constexpr int kPad = kShifted ? 32 : 0;

  alignas(128) unsigned char in[kStages][kInBytes + kPad];
  alignas(16) unsigned char mask[kStages][kMaskBytes + (P::kMask ? kPad : 0)];
  StageRing<kStages> ring; // (after the stages: their offsets stay small constants)
  // kShifted: where each stage's tile lies in it (its input's and mask's
  // place in their first words, set by the issuer as the stage's work item
  // is), and the start of each tensor's last word, which is not
  // bulk-copied: set by thread 0 before the block's first barrier
  // (init_shifted), and read from here rather than held in registers
  // across the loop (16-44 spills).
  struct Shifts {
    unsigned char in[kStages], mask[kStages];
    u64 in_last_word, mask_last_word;
  };
  struct NoShifts {};
  static constexpr bool kShiftedStages = kShifted;
  typename Select<kShifted, Shifts, NoShifts>::type shifts;

  // Thread 0, before the block's first barrier: the tensors `in0` and
  // `mask0` of `lines` lines.
  __device__ __forceinline__ void init_shifted(const In *in0, const u8 *mask0, long long lines) {
    const TensorLastWords<P, MaskItem> last(in0, mask0, lines);
    shifts.in_last_word = last.in;
    shifts.mask_last_word = last.mask;
  }

  // Stage `s`'s tile of input / of mask (past its wait).
  __device__ __forceinline__ const unsigned char *in_at(int s) const {
    if constexpr (kShifted)
      return in[s] + shifts.in[s];
    else
      return in[s];
  }
  __device__ __forceinline__ const unsigned char *mask_at(int s) const {
    if constexpr (kShifted)
      return mask[s] + shifts.mask[s];
    else
      return mask[s];
  }

  __device__ __forceinline__ void init() { ring.init(); }
  __device__ __forceinline__ void issue_end(int s) { ring.issue_end(s); }
  __device__ __forceinline__ long long wait(int s, long long use) { return ring.wait(s, use); }

  // Thread 0: stage `s` receives `count` elements from `src_in` (and the
  // mask from `src_mask`) for work item `work`.
  __device__ __forceinline__ void issue(int s, long long work, const In *src_in, const MaskItem *src_mask, int count) {
    ring.item[s] = work;
    if constexpr (kShifted) {
      issue_shifted(s, src_in, src_mask, count);
      return;
    }
    unsigned in_bytes = unsigned(count) * unsigned(sizeof(In));
    unsigned mask_bytes = P::kMask ? unsigned(count) * unsigned(sizeof(MaskItem)) : 0u;
    if constexpr (kRaggedEnd) { // (before the arrival, which publishes them)
      in_bytes = copy_last_partial_word(in[s], src_in, count);
      if (P::kMask)
        mask_bytes = copy_last_partial_word(mask[s], src_mask, count);
    }
    mbarrier_arrive_expect_tx(&ring.full[s], in_bytes + mask_bytes);
    // (A ragged end may hold no whole word at all: a bulk copy moves one or
    // more, so none is issued then.)
    if (!kRaggedEnd || in_bytes > 0)
      bulk_copy_to_shared<kEvictFirst>(in[s], src_in, in_bytes, &ring.full[s]);
    if (P::kMask && (!kRaggedEnd || mask_bytes > 0))
      bulk_copy_to_shared<kEvictFirst>(mask[s], src_mask, mask_bytes, &ring.full[s]);
  }

  // kShifted: the whole words holding the tile, up to the tensor's last
  // word, whose bytes in the tile this thread copies.
  __device__ __forceinline__ void issue_shifted(int s, const In *src_in, const MaskItem *src_mask, int count) {
    const unsigned in_shift = unsigned(reinterpret_cast<u64>(src_in)) & 15u;
    const unsigned mask_shift = unsigned(reinterpret_cast<u64>(src_mask)) & 15u;
    shifts.in[s] = (unsigned char)in_shift;
    shifts.mask[s] = (unsigned char)mask_shift;
    const unsigned char *in_word = reinterpret_cast<const unsigned char *>(src_in) - in_shift;
    const unsigned char *mask_word = reinterpret_cast<const unsigned char *>(src_mask) - mask_shift;
    const unsigned in_bytes =
        copy_past_words(in[s], in_word, in_shift + unsigned(count) * unsigned(sizeof(In)), shifts.in_last_word);
    const unsigned mask_bytes =
        P::kMask ? copy_past_words(mask[s], mask_word, mask_shift + unsigned(count) * unsigned(sizeof(MaskItem)),
                                   shifts.mask_last_word)
                 : 0u;
    mbarrier_arrive_expect_tx(&ring.full[s], in_bytes + mask_bytes);
    if (in_bytes > 0)
      bulk_copy_to_shared<kEvictFirst>(in[s], in_word, in_bytes, &ring.full[s]);
    if (P::kMask && mask_bytes > 0)
      bulk_copy_to_shared<kEvictFirst>(mask[s], mask_word, mask_bytes, &ring.full[s]);
  }
  // The bytes of the whole words of a run of `bytes` bytes from the word
  // at `word`, to be bulk-copied into `dst`, up to `last_word` (the
  // tensor's last word); the run's bytes from there on (fewer than 16)
  // copied here. (Bytes before a tile in its first word lie in the
  // tensor's allocation, which starts on a word: reading them is safe.)
  static __device__ __forceinline__ unsigned copy_past_words(unsigned char *dst, const unsigned char *word,
                                                             unsigned bytes, u64 last_word) {
    unsigned bulk = (bytes + 15u) & ~15u;
    if (reinterpret_cast<u64>(word) + bulk > last_word) { // the tensor's last tile only
      const u64 at = reinterpret_cast<u64>(word);
      bulk = last_word > at ? unsigned(last_word - at) : 0u;
      copy_pieces(dst + bulk, word + bulk, bytes - bulk);
    }
    return bulk;
  }

  // Thread 0, issuing: the bytes of a run of `count` elements from `src`
  // that lie past its last whole 16-byte word, copied into the stage at
  // `dst`; the whole words' bytes are returned, for the bulk copy. (The
  // tail starts on a word in both: 8-, 4-, 2- and 1-byte pieces, aligned,
  // with no loop, whose registers 64- and 80-register plans spilled.)
  template <class T>
  static __device__ __forceinline__ unsigned copy_last_partial_word(unsigned char *dst, const T *src, int count) {
    const unsigned bytes = unsigned(count) * unsigned(sizeof(T)), whole = bytes & ~15u, tail = bytes & 15u;
    if (tail != 0) // the tensor's last tile only
      copy_pieces(dst + whole, reinterpret_cast<const unsigned char *>(src) + whole, tail);
    return whole;
  }
  static __device__ __forceinline__ void copy_pieces(unsigned char *dst, const unsigned char *src, unsigned tail) {
    unsigned at = 0;
    if (tail & 8u) {
      *reinterpret_cast<u64 *>(dst) = *reinterpret_cast<const u64 *>(src);
      at = 8;
    }
    if (tail & 4u) {
      *reinterpret_cast<unsigned *>(dst + at) = *reinterpret_cast<const unsigned *>(src + at);
      at += 4;
    }
    if (tail & 2u) {
      *reinterpret_cast<unsigned short *>(dst + at) = *reinterpret_cast<const unsigned short *>(src + at);
      at += 2;
    }
    if (tail & 1u)
      dst[at] = src[at];
  }

  // This thread's kItems elements at `first` (of the stage), lifted to the
  // accumulator; elements at or past `valid` lift to the identity (kFull:
  // the caller knows every tile is whole, so none is checked).
  template <int kItems, bool kFull = false>
  __device__ __forceinline__ void load_lifted(int s, int first, int valid, typename P::Acc (&x)[kItems]) const {
    In raw[kItems];
    MaskItem keep[kItems];
    if constexpr (kShifted) { // (aligned to the elements only)
      load_shared_shifted(in_at(s) + first * int(sizeof(In)), raw);
      if (P::kMask)
        load_shared_shifted(mask_at(s) + first * int(sizeof(MaskItem)), keep);
    } else {
      VectorAccess<In, kItems>::load_shared(reinterpret_cast<const In *>(in[s]) + first, raw);
      if (P::kMask)
        VectorAccess<MaskItem, kItems>::load_shared(reinterpret_cast<const MaskItem *>(mask[s]) + first, keep);
    }
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const bool in_tile = kFull || first + j < valid;
      if constexpr (P::kMask)
        x[j] = lift_masked<typename P::Op, typename P::Acc>(in_tile, raw[j], keep[j]);
      else
        x[j] = in_tile ? Convert<In>::template load<typename P::Acc>(raw[j]) : P::Op::identity();
    }
  }

  // Results may leave through their stage when output tiles lie a whole
  // number of 16-byte words apart (where the output pointer lies is the
  // launch's): always where no stage is refilled (held shares), and in a
  // ring when a stage can wait a tile for its refill (three or more).
  // (A segmented chunk's rows are contiguous: chunks lie whole words apart
  // where the chunk's bytes are whole words.)
  // (One row: only the tensor's last tile may end inside a word, which
  // store_warp_run finishes. Shifted stages: every tile's output finds its
  // own place, store_warp_run.)
  static constexpr bool kOneRow = !P::Lines::kRuntimeBatch && P::Lines::count(0) == 1;
  static constexpr bool kOutputFitsStages =
      kChunkRows > 1 ? (kChunkRows * P::kLength * sizeof(typename P::Out)) % 16 == 0
                     : kShifted || (((P::kLength * sizeof(typename P::Out)) % 16 == 0 || kOneRow) &&
                                    P::Lines::out_strides_in_words(sizeof(typename P::Out)));
  static constexpr bool kCanStageOutput = kStages >= 3 && kOutputFitsStages;

  // Output through a stage that has been read: each warp writes its
  // threads' results (a contiguous run of 32 x kItems elements), converted,
  // into the stage. A run that starts on a 16-byte word of the output
  // leaves by one bulk copy from lane 0 (the tile's bytes are a multiple of
  // 16); a run off the grid (an output pointer not on the input's grid) by
  // the lanes' coalesced stores, instead of each thread's strided scalars
  // (f16 rows: 7.4x copy). `dst` is the tile's first element, `count` the
  // tile's elements, `on_grid` whether the output pointer (and so every
  // tile's and warp's run) lies on the 16-byte grid. Only the warp
  // synchronizes. Before the stage is refilled, retire_stores() must have
  // run on every warp.
  template <int kItems>
  __device__ __forceinline__ void store_through_stage(int s, typename P::Out *dst, int count, bool on_grid,
                                                      const typename P::Acc (&r)[kItems]) {
    typedef typename P::Out Out;
    static_assert(kTileElems * sizeof(Out) <= kInBytes, "the output tile must fit in its stage");
    Out *staged = reinterpret_cast<Out *>(in[s]);
    store_converted_shared<P, kItems>(staged + threadIdx.x * kItems, r);
    store_warp_run<32 * kItems>(s, dst, count, on_grid, (threadIdx.x & ~31) * kItems);
  }

  // The warp's run of kRun elements from `first` on, which its threads
  // have written into stage `s`, to `dst` (the tile's first element; the
  // tile holds `count`).
  template <int kRun>
  __device__ __forceinline__ void store_warp_run(int s, typename P::Out *dst, int count, bool on_grid, int first) {
    typedef typename P::Out Out;
    const Out *staged = reinterpret_cast<const Out *>(in[s]);
    const int n = min(kRun, count - first);
    if constexpr (kShifted) // (lines whose output strides are not whole words: each tile's own place)
      on_grid = on_grid && (reinterpret_cast<u64>(dst) & 15u) == 0;
    if (on_grid) {
      // (A ragged end's last partial word leaves by lane 0's stores. A warp
      // past the tile's end has none: n <= 0.)
      const unsigned bytes = n > 0 ? unsigned(n) * unsigned(sizeof(Out)) : 0u;
      const unsigned whole = kRaggedOut ? bytes & ~15u : bytes;
      fence_shared_to_async_proxy();
      __syncwarp();
      if ((threadIdx.x & 31) == 0) {
        if (whole > 0) {
          bulk_copy_to_global<kEvictFirst>(dst + first, staged + first, whole);
          bulk_commit_group();
        }
        if (kRaggedOut && bytes != whole)
          copy_pieces(reinterpret_cast<unsigned char *>(dst + first) + whole,
                      reinterpret_cast<const unsigned char *>(staged + first) + whole, bytes - whole);
      }
      return;
    }
    __syncwarp();
    if constexpr (copies_runs_by_lane_words<Out>()) {
      copy_run_by_lane_words(dst, staged, first, first + n);
      return;
    }
    if constexpr (copies_runs_by_members<Out>()) { // (packed lanes: member by member, not an item a lane)
      copy_member_run_by_lanes(dst, staged, first, first + n);
      return;
    }
#pragma unroll 1 // (the rare path: kept off the common path's registers)
    for (int m = 0; m < (kRun + 31) / 32; ++m) {
      const int slot = first + int(threadIdx.x & 31) + 32 * m;
      if (slot < count && (kRun % 32 == 0 || slot < first + kRun))
        dst[slot] = staged[slot];
    }
  }

  // Every thread, before the block barrier that precedes a stage's refill:
  // this warp's bulk stores have read the stages.
  __device__ __forceinline__ void retire_stores() const { retire_warp_bulk_stores(); }

  // Every thread, before the block exits: this warp's bulk stores are done.
  __device__ __forceinline__ void drain_stores() const { drain_warp_bulk_stores(); }
};

} // namespace scanjit
