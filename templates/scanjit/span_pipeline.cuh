// The stage ring of tile_pipeline.cuh for lines at a small stride of their
// own (x[::2], x[::3], a column of few): a tile's elements lie every kIn-th
// in memory, so the copy engine brings the tile's whole dense span (the
// words from its first element to its last, kIn times its bytes) and the
// lanes pick their elements out of the stage. Loaded by each thread
// instead, the tile's loads waited a round trip with nothing in flight
// behind them (f16[8388608] at stride 2: 2.8-3.6x copy).
//
// Any element-aligned pointer: a tile's first element lands at its place in
// its first 16-byte word (`lead`), and the line's last word, which may end
// its allocation, is copied by the issuing thread (copy_run_as_words).
//
// Picking: lane l of a warp reads its warp's slots l, l + 32, ... at the
// stride (kIn x the element's bytes between lanes: at most two-way bank
// conflicts at stride 2), and writes them back consecutively into its warp's
// own part of the stage, 16 bytes in (each warp's part is kIn times its
// slots' bytes, so neither the part before it nor after is touched), from
// where each thread reads its run of consecutive items as the scan wants
// them. A strided mask is picked the same way; a contiguous one is read
// where it lies.
#pragma once

#include "scanjit/tile_pipeline.cuh"

namespace scanjit {

// Lines at a stride of 2 to 16 bytes an element (and a mask at most 16
// bytes a step): their dense spans are staged. Wider strides read a sector
// an element however they are loaded.
template <class P> struct SpanStaged {
  typedef typename P::Scan S;
  static constexpr bool value = S::kIn >= 2 && S::kIn * (long long)sizeof(typename P::In) <= 16 &&
                                (!P::kMask || (S::kMask >= 1 && S::kMask <= 16));
};

template <class P, int kStages, int kTileElems, bool kEvictFirst> struct SpanPipeline {
  typedef typename P::In In;
  typedef u8 MaskItem;
  typedef typename P::Scan S;
  static_assert(SpanStaged<P>::value, "spans of a small stride");
  static constexpr int kIn = int(S::kIn);
  static constexpr int kMask = P::kMask ? int(S::kMask) : 1;
  // A tile's dense span, its first element up to 15 bytes into its first
  // word and its last word whole: 32 bytes of room.
  static constexpr int kInBytes = kTileElems * kIn * int(sizeof(In)) + 32;
  static constexpr int kMaskBytes = P::kMask ? kTileElems * kMask + 32 : 16;
  static constexpr bool kCanStageOutput = false;
  static constexpr bool kShiftedStages = false; // (spans start anywhere: their own way)

  alignas(128) unsigned char in[kStages][kInBytes];
  alignas(16) unsigned char mask[kStages][kMaskBytes];
  StageRing<kStages> ring;
  unsigned char lead[kStages][2]; // where the tile's first input element and
                                  // mask byte lie in their stages

  __device__ __forceinline__ void init() { ring.init(); }
  __device__ __forceinline__ void issue_end(int s) { ring.issue_end(s); }
  __device__ __forceinline__ long long wait(int s, long long use) { return ring.wait(s, use); }

  // Thread 0: stage `s` receives elements [start, start + count) of the
  // line whose input starts at `line` (and mask at `mask_line`), for work
  // item `work`. The line's last word is copied by this thread.
  __device__ __forceinline__ void issue_span(int s, long long work, const In *line, const u8 *mask_line,
                                             long long start, int count) {
    ring.item[s] = work;
    const In *src = line + start * kIn;
    const u64 in_end = reinterpret_cast<u64>(line + (P::kLength - 1) * kIn + 1) & ~u64(15);
    lead[s][0] = (unsigned char)(reinterpret_cast<u64>(src) & 15);
    copy_run_as_words<kEvictFirst>(in[s], src, unsigned(count - 1) * unsigned(kIn) + 1, in_end, &ring.full[s]);
    if constexpr (P::kMask) {
      const u8 *keep = mask_line + start * kMask;
      const u64 mask_end = reinterpret_cast<u64>(mask_line + (P::kLength - 1) * kMask + 1) & ~u64(15);
      lead[s][1] = (unsigned char)(reinterpret_cast<u64>(keep) & 15);
      copy_run_as_words<kEvictFirst>(mask[s], keep, unsigned(count - 1) * unsigned(kMask) + 1, mask_end, &ring.full[s]);
    }
    mbarrier_arrive(&ring.full[s]);
  }

  // A warp's 32 x kItems slots of a dense span at stride `kStride` (its
  // first element `lead` bytes into `span`), written consecutively into the
  // warp's part of the span 16 bytes in: returns where. Every lane calls it.
  template <class T, int kStride, int kItems>
  static __device__ __forceinline__ T *pick(unsigned char *span, int lead, int warp_first) {
    const int lane = int(threadIdx.x & 31);
    const T *dense = reinterpret_cast<const T *>(span + lead);
    T v[kItems];
#pragma unroll
    for (int m = 0; m < kItems; ++m)
      v[m] = dense[(warp_first + 32 * m + lane) * kStride];
    __syncwarp();
    T *picked = reinterpret_cast<T *>(span + warp_first * kStride * int(sizeof(T)) + 16);
#pragma unroll
    for (int m = 0; m < kItems; ++m)
      picked[32 * m + lane] = v[m];
    __syncwarp();
    return picked;
  }

  // This thread's kItems elements at slot `first` of stage `s` (every
  // thread of the block calls it, its warp's slots together), lifted to the
  // accumulator; slots at or past `valid` lift to the identity (kFull:
  // the caller knows there are none). The stage is rewritten: read it once.
  template <int kItems, bool kFull = false>
  __device__ __forceinline__ void load_lifted(int s, int first, int valid, typename P::Acc (&x)[kItems]) {
    static_assert(32 * kItems * int(sizeof(In)) >= 16, "a warp's picked slots fit in its part");
    const int warp_first = int(threadIdx.x & ~31) * kItems;
    const int lane_first = first - warp_first;
    In raw[kItems];
    VectorAccess<In, kItems>::load_shared(pick<In, kIn, kItems>(in[s], lead[s][0], warp_first) + lane_first, raw);
    u8 keep[kItems];
    if constexpr (P::kMask) {
      if constexpr (kMask == 1) {
        load_shared_unaligned(mask[s] + lead[s][1] + first, keep);
      } else {
        VectorAccess<u8, kItems>::load_shared(pick<u8, kMask, kItems>(mask[s], lead[s][1], warp_first) + lane_first,
                                              keep);
      }
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

  // No bulk stores: results leave from each thread's registers.
  __device__ __forceinline__ void retire_stores() const {}
  __device__ __forceinline__ void drain_stores() const {}
};

} // namespace scanjit
