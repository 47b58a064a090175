// Hopper's bulk copy engine for contiguous tiles: cp.async.bulk moves bytes
// from global to shared memory without registers and completes on an
// mbarrier that counts the bytes (sm_90). Only the wrappers live here.
#pragma once

#include "scanjit/types.cuh"

// cp.async.bulk and mbarrier transaction counts need sm_90; older targets
// keep the register path even when the plan asks for stages.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SCANJIT_BULK_COPY 1
#else
#define SCANJIT_BULK_COPY 0
#endif
// cp.async and mbarriers (sm_80 on): stages filled by word copies
// (copy_word_async_to), where a plan asks for them.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define SCANJIT_ASYNC_COPY 1
#else
#define SCANJIT_ASYNC_COPY 0
#endif

namespace scanjit {

__device__ __forceinline__ bool aligned16(const void *p) { return (reinterpret_cast<u64>(p) & 15) == 0; }

// The stages of a plan live in dynamic shared memory (the host launches with
// Plan::kSharedBytes and raises the kernel's limit above 48 KB).
template <class Layout, class Plan> __device__ __forceinline__ Layout &dynamic_stages() {
  static_assert(sizeof(Layout) <= Plan::kSharedBytes, "the host launches with too little shared memory");
  extern __shared__ __align__(128) unsigned char scanjit_dynamic_shared[];
  return *reinterpret_cast<Layout *>(scanjit_dynamic_shared);
}

__device__ __forceinline__ unsigned shared_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// `arrivals` arrivals complete a phase (with the bytes it expects).
__device__ __forceinline__ void mbarrier_init(u64 *bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(arrivals) : "memory");
}

// Makes initialized barriers visible to the copy engine; a block barrier
// must follow before any thread uses them. (Before sm_90 there is no copy
// engine: the block barrier suffices.)
__device__ __forceinline__ void mbarrier_init_fence() {
#if SCANJIT_BULK_COPY
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

__device__ __forceinline__ void mbarrier_arrive_expect_tx(u64 *bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)),
               "r"(bytes)
               : "memory");
}

// The phase also waits for `bytes` more of the copy engine's bytes.
__device__ __forceinline__ void mbarrier_expect_tx(u64 *bar, unsigned bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbarrier_arrive(u64 *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}

// Waits until the barrier's phase with this parity has completed (before
// sm_90, which has no try_wait, by polling test_wait).
__device__ __forceinline__ void mbarrier_wait(u64 *bar, unsigned parity) {
#if SCANJIT_BULK_COPY
  asm volatile("{\n"
               ".reg .pred done;\n"
               "WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n"
               "}" ::"r"(shared_address(bar)),
               "r"(parity)
               : "memory");
#else
  asm volatile("{\n"
               ".reg .pred done;\n"
               "WAIT:\n"
               "mbarrier.test_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n"
               "}" ::"r"(shared_address(bar)),
               "r"(parity)
               : "memory");
#endif
}

// An L2 policy for bytes a scan touches once: evicted first, so streaming
// tiles do not push out lines that are read again (the look-back's flags).
__device__ __forceinline__ u64 l2_evict_first() {
  u64 policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// `bytes` (a multiple of 16) from 16-byte aligned global `src` to shared
// `dst`, counted on `bar`; kEvictFirst: with the evict-first L2 policy.
template <bool kEvictFirst>
__device__ __forceinline__ void bulk_copy_to_shared(void *dst, const void *src, unsigned bytes, u64 *bar) {
  if (kEvictFirst)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, "
                 "[%3], %4;" ::"r"(shared_address(dst)),
                 "l"(src), "r"(bytes), "r"(shared_address(bar)), "l"(l2_evict_first())
                 : "memory");
  else
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     shared_address(dst)),
                 "l"(src), "r"(bytes), "r"(shared_address(bar))
                 : "memory");
}

// A run of `n` elements anywhere in memory, to shared `dst` (16-byte
// aligned) at the run's own place in its first 16-byte word: the whole words
// holding the run by one bulk copy whose bytes this thread expects on
// `bar`, so up to 15 bytes either side are read too. Words are never partly
// in an allocation (allocations start on 16-byte multiples), except the
// tensor's last: words from `safe_end` (the start of the tensor's last word)
// on are not bulk-copied, and the run's elements there are copied by this
// thread (its arrival on `bar`, after, publishes them).
template <bool kEvictFirst, class T>
__device__ __forceinline__ void copy_run_as_words(unsigned char *dst, const T *src, unsigned n, u64 safe_end,
                                                  u64 *bar) {
  const u64 begin = reinterpret_cast<u64>(src), end = begin + u64(n) * sizeof(T);
  const u64 lo = begin & ~u64(15);
  const u64 hi = min((end + 15) & ~u64(15), safe_end);
  if (hi > lo) {
    mbarrier_expect_tx(bar, unsigned(hi - lo));
    bulk_copy_to_shared<kEvictFirst>(dst, reinterpret_cast<const void *>(lo), unsigned(hi - lo), bar);
  }
  for (u64 at = max(begin, hi); at < end; at += sizeof(T)) // the tensor's last word, rarely
    *reinterpret_cast<T *>(dst + (at - lo)) = *reinterpret_cast<const T *>(at);
}

// One 16-byte word from 16-byte aligned global `word` to shared address `dst`
// (16-byte aligned): cp.async, an address a thread (sm_80 on), so a warp
// issues 32 at once where bulk copies of per-thread addresses go one lane
// at a time. `policy`: an L2 policy from l2_evict_first(), used when
// kEvictFirst. The copies complete on a barrier through
// mbarrier_arrive_on_async_copies(), or cp_async_wait_all().
template <bool kEvictFirst>
__device__ __forceinline__ void copy_word_async_to(unsigned dst, const void *word, u64 policy) {
  if (kEvictFirst)
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(dst), "l"(word), "l"(policy)
                 : "memory");
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(word) : "memory");
}

// This thread's arrival on the barrier's current phase (one of those it
// was initialized to count, as mbarrier_arrive's), made once every cp.async
// it has issued so far has completed; their bytes are then visible to every
// thread that waits on the phase.
__device__ __forceinline__ void mbarrier_arrive_on_async_copies(u64 *bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(shared_address(bar)) : "memory");
}

// Waits for every cp.async this thread has issued.
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

// `bytes` (a multiple of 16) from shared `src` to 16-byte aligned global
// `dst`, in the issuing thread's current bulk group (commit it after).
template <bool kEvictFirst>
__device__ __forceinline__ void bulk_copy_to_global(void *dst, const void *src, unsigned bytes) {
  if (kEvictFirst)
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" ::"l"(dst),
                 "r"(shared_address(src)), "r"(bytes), "l"(l2_evict_first())
                 : "memory");
  else
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
                 "r"(shared_address(src)), "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }

// The issuing thread's bulk stores have read their shared memory (it may be
// overwritten) / have completed.
__device__ __forceinline__ void bulk_wait_read_all() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

// Every thread of a warp whose lane 0 issues bulk stores: before the block
// barrier that lets their shared memory be overwritten / before the block
// exits.
__device__ __forceinline__ void retire_warp_bulk_stores() {
  if ((threadIdx.x & 31) == 0)
    bulk_wait_read_all();
}
__device__ __forceinline__ void drain_warp_bulk_stores() {
  if ((threadIdx.x & 31) == 0)
    bulk_wait_all();
}

// This thread's shared-memory writes become visible to the copy engine.
__device__ __forceinline__ void fence_shared_to_async_proxy() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

} // namespace scanjit
