// Values published by one block for others to wait on (the look-back's
// tile aggregates and prefixes, the column pieces' totals), each tagged with
// its launch in the same word. A workspace whose values carry another tag
// (zero when freshly zeroed, an earlier launch's otherwise) reads as "not yet
// published": the look-back's workspace is zeroed before each launch and
// tags with 1; column pieces count their launches and need no memset.
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

// Relaxed, device-scope accesses: they bypass L1, so a spinning reader sees
// the writer's store, and they order nothing else (nothing else is shared).
template <class Acc>
__device__ __forceinline__ FlaggedValue<Acc> load_flagged(const FlaggedValue<Acc> *p) {
  FlaggedValue<Acc> f;
  if constexpr (FlaggedValue<Acc>::kWords == 1) {
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(f.word[0]) : "l"(p) : "memory");
  } else {
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(f.word[0]), "=l"(f.word[1])
                 : "l"(p)
                 : "memory");
  }
  return f;
}
template <class Acc>
__device__ __forceinline__ void store_flagged(FlaggedValue<Acc> *p, FlaggedValue<Acc> f) {
  if constexpr (FlaggedValue<Acc>::kWords == 1) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(f.word[0]) : "memory");
  } else {
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(f.word[0]),
                 "l"(f.word[1])
                 : "memory");
  }
}

} // namespace scanjit
