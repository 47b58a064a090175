// Values published by one block for others to wait on (the look-back's
// tile aggregates and prefixes, the column pieces' totals), each tagged with
// its launch in the same word. A workspace whose values carry another tag
// (zero when freshly zeroed, an earlier launch's otherwise) reads as "not yet
// published": the workspace is zeroed once, and both families count their
// launches by the tickets their blocks take, so no launch needs a memset.
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

// A value of 4 or 8 bytes published as 1 or 2 words of (launch tag, 32 value
// bits): aligned 8-byte accesses are single-copy atomic, so a reader that
// sees this launch's tag in every word also sees the whole value.
template <class Acc> struct FlaggedValue {
  static_assert(sizeof(Acc) == 4 || sizeof(Acc) == 8, "published values are 4 or 8 bytes");
  static constexpr int kWords = int(sizeof(Acc)) / 4;
  u64 word[kWords];

  __device__ __forceinline__ bool ready(unsigned tag) const {
    bool ok = true;
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      ok = ok && unsigned(word[i] >> 32) == tag;
    return ok;
  }
  __device__ __forceinline__ Acc value() const {
    unsigned bits[kWords];
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      bits[i] = unsigned(word[i]);
    Acc v;
    memcpy(&v, bits, sizeof(Acc));
    return v;
  }
  static __device__ __forceinline__ FlaggedValue none() {
    FlaggedValue f;
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      f.word[i] = 0;
    return f;
  }
  static __device__ __forceinline__ FlaggedValue of(Acc v, unsigned tag) {
    unsigned bits[kWords];
    memcpy(bits, &v, sizeof(Acc));
    FlaggedValue f;
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      f.word[i] = u64(tag) << 32 | bits[i];
    return f;
  }
};

// The tag of the launch after `earlier` launches: never 0 (a zeroed
// workspace), and never the previous launch's.
__device__ __forceinline__ unsigned launch_tag(unsigned long long earlier) {
  return unsigned(earlier % 0xffffffffULL) + 1;
}

// Relaxed, device-scope accesses: they bypass L1, so a spinning reader sees
// the writer's store, and they order nothing else (nothing else is shared).
// From sm_80 they ask L2 to keep the workspace (evict-last): it outlives the
// launch, and the next launch's first reads would otherwise miss to DRAM.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define SCANJIT_FLAG_HINT ".L2::cache_hint"
#define SCANJIT_FLAG_POLICY(n) ", %" #n
#else
#define SCANJIT_FLAG_HINT ""
#define SCANJIT_FLAG_POLICY(n) ""
#endif
__device__ __forceinline__ u64 keep_in_l2_policy() {
  u64 policy = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
#endif
  return policy;
}
template <class Acc>
__device__ __forceinline__ FlaggedValue<Acc> load_flagged(const FlaggedValue<Acc> *p) {
  FlaggedValue<Acc> f;
  if constexpr (FlaggedValue<Acc>::kWords == 1) {
    asm volatile("ld.relaxed.gpu.global" SCANJIT_FLAG_HINT ".u64 %0, [%1]" SCANJIT_FLAG_POLICY(2) ";"
                 : "=l"(f.word[0])
                 : "l"(p), "l"(keep_in_l2_policy())
                 : "memory");
  } else {
    asm volatile("ld.relaxed.gpu.global" SCANJIT_FLAG_HINT ".v2.u64 {%0, %1}, [%2]" SCANJIT_FLAG_POLICY(3) ";"
                 : "=l"(f.word[0]), "=l"(f.word[1])
                 : "l"(p), "l"(keep_in_l2_policy())
                 : "memory");
  }
  return f;
}
template <class Acc>
__device__ __forceinline__ void store_flagged(FlaggedValue<Acc> *p, FlaggedValue<Acc> f) {
  if constexpr (FlaggedValue<Acc>::kWords == 1) {
    asm volatile("st.relaxed.gpu.global" SCANJIT_FLAG_HINT ".u64 [%0], %1" SCANJIT_FLAG_POLICY(2) ";" ::"l"(p),
                 "l"(f.word[0]), "l"(keep_in_l2_policy())
                 : "memory");
  } else {
    asm volatile("st.relaxed.gpu.global" SCANJIT_FLAG_HINT ".v2.u64 [%0], {%1, %2}" SCANJIT_FLAG_POLICY(3) ";" ::"l"(p),
                 "l"(f.word[0]), "l"(f.word[1]), "l"(keep_in_l2_policy())
                 : "memory");
  }
}
#undef SCANJIT_FLAG_HINT
#undef SCANJIT_FLAG_POLICY

} // namespace scanjit
