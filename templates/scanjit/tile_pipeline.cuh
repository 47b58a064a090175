// A ring of shared-memory stages that the bulk copy engine fills with the
// input (and mask) of the tiles a block will scan next, so several tiles per
// block are in flight while the block scans the current one, at no register
// cost. Thread 0 issues; every thread waits on the stage's mbarrier, lifts
// its items from shared memory, and the scan's own block barrier tells
// thread 0 that the stage has been read and may be refilled.
//
// Requires 16-byte aligned tile starts and sizes (the planner checks the
// strides and lengths; the kernel checks the pointers at run time).
#pragma once

#include "scanjit/bulk_copy.cuh"
#include "scanjit/element_io.cuh"

namespace scanjit {

template <class P, int kStages, int kTileElems> struct TilePipeline {
  typedef typename P::In In;
  static constexpr int kInBytes = kTileElems * int(sizeof(In));
  static constexpr int kMaskBytes = P::kMask ? kTileElems : 16;

  alignas(128) unsigned char in[kStages][kInBytes];
  alignas(16) unsigned char mask[kStages][kMaskBytes];
  u64 full[kStages];
  long long item[kStages]; // the work item the stage holds (set by the issuer)

  // Every thread; a block barrier must follow.
  __device__ __forceinline__ void init() {
    if (threadIdx.x == 0) {
#pragma unroll
      for (int s = 0; s < kStages; ++s)
        mbarrier_init(&full[s]);
      mbarrier_init_fence();
    }
  }

  // Thread 0: stage `s` receives `elems` elements from `src_in` (and the
  // mask from `src_mask`) for work item `work`.
  __device__ __forceinline__ void issue(int s, long long work, const In *src_in, const u8 *src_mask,
                                        int elems) {
    item[s] = work;
    const unsigned in_bytes = unsigned(elems) * unsigned(sizeof(In));
    const unsigned mask_bytes = P::kMask ? unsigned(elems) : 0u;
    mbarrier_arrive_expect_tx(&full[s], in_bytes + mask_bytes);
    bulk_copy_to_shared(in[s], src_in, in_bytes, &full[s]);
    if (P::kMask)
      bulk_copy_to_shared(mask[s], src_mask, mask_bytes, &full[s]);
  }

  // Thread 0: stage `s` completes its phase with no data (no work left).
  __device__ __forceinline__ void issue_end(int s) {
    item[s] = -1;
    mbarrier_arrive(&full[s]);
  }

  // Use number `use` (0, 1, 2, ...) of stage `s`: wait for its data.
  __device__ __forceinline__ long long wait(int s, long long use) {
    mbarrier_wait(&full[s], unsigned(use & 1));
    return item[s];
  }

  // This thread's kItems elements at `first` (of the stage), lifted to the
  // accumulator; elements at or past `valid` lift to the identity.
  template <int kItems>
  __device__ __forceinline__ void load_lifted(int s, int first, int valid, typename P::Acc (&x)[kItems]) const {
    In raw[kItems];
    u8 keep[kItems];
    copy_from_shared<In, kItems>(reinterpret_cast<const In *>(in[s]) + first, raw);
    if (P::kMask)
      copy_from_shared<u8, kItems>(mask[s] + first, keep);
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const bool use = first + j < valid && (!P::kMask || keep[j] != 0);
      x[j] = use ? Convert<In>::template load<typename P::Acc>(raw[j]) : P::Op::identity();
    }
  }

private:
  template <class T, int N> static __device__ __forceinline__ void copy_from_shared(const T *p, T (&v)[N]) {
    typedef VectorAccess<T, N> V;
    typename V::Word w[V::kWords];
#pragma unroll
    for (int i = 0; i < V::kWords; ++i)
      w[i] = reinterpret_cast<const typename V::Word *>(p)[i];
    memcpy(v, w, sizeof(w));
  }
};

__device__ __forceinline__ bool aligned16(const void *p) { return (reinterpret_cast<u64>(p) & 15) == 0; }

} // namespace scanjit
