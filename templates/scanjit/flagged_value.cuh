// Values published by one block for others to wait on (the look-back's
// tile aggregates and prefixes, the column pieces' totals), each tagged with
// its launch in the same word. A workspace whose values carry another tag
// (zero when freshly zeroed, an earlier launch's otherwise) reads as "not yet
// published": the workspace is zeroed once, and both families count their
// launches by the tickets their blocks take, so no launch needs a memset.
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

// A value of 4 to 32 bytes (a whole number of 4-byte words: a scalar, or a
// group of narrow columns' values) published as one word of (launch tag, 32
// value bits) per 4 bytes: aligned 8-byte accesses are single-copy atomic,
// so a reader that sees this launch's tag in every word also sees the whole
// value. Even word counts are 16-byte aligned and move in pairs.
template <class Acc> struct alignas(int(sizeof(Acc)) % 8 == 0 ? 16 : 8) FlaggedValue {
  static_assert(sizeof(Acc) % 4 == 0 && sizeof(Acc) <= 32, "published values are 1 to 8 words of 4 bytes");
  static constexpr int kWords = int(sizeof(Acc)) / 4;
  static constexpr bool kPairs = kWords % 2 == 0;
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

// How a look-back publishes a value: whole where it fits a FlaggedValue,
// else (a group of over 32 bytes of packed lanes: packed_lanes.cuh) in
// kParts parts of at most 32 bytes, each read by reading warps of its own,
// so a reader holds a part's words rather than the whole group's. A split
// value's specialization also gives part(v, q) and put(v, q, p), which only
// split values use.
template <class Acc> struct PublishedParts {
  static constexpr int kParts = 1;
  typedef Acc Part;
};
// The monoid of a part, given the whole value's.
template <class M> struct PartMonoid {
  typedef M type;
};

// A value's place in a workspace: its parts side by side (a FlaggedValue
// where it is whole).
template <class Acc> struct PublishedSlot {
  typedef PublishedParts<Acc> Parts;
  FlaggedValue<typename Parts::Part> part[Parts::kParts];
};
template <class Acc>
using SlotOf = typename Select<PublishedParts<Acc>::kParts == 1, FlaggedValue<Acc>, PublishedSlot<Acc>>::type;
// Part `q` of the value at `slot`.
template <class Acc, class Slot>
__device__ __forceinline__ const FlaggedValue<typename PublishedParts<Acc>::Part> *part_of(const Slot *slot, int q) {
  return reinterpret_cast<const FlaggedValue<typename PublishedParts<Acc>::Part> *>(slot) + q;
}

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
// Two words at a 16-byte boundary, as one access: each word single-copy
// atomic (a value of even words moves a pair at a time; two one-word values
// side by side move together: load_flagged_pair).
__device__ __forceinline__ void load_word_pair(const u64 *p, u64 &a, u64 &b) {
  asm volatile("ld.relaxed.gpu.global" SCANJIT_FLAG_HINT ".v2.u64 {%0, %1}, [%2]" SCANJIT_FLAG_POLICY(3) ";"
               : "=l"(a), "=l"(b)
               : "l"(p), "l"(keep_in_l2_policy())
               : "memory");
}
__device__ __forceinline__ void store_word_pair(u64 *p, u64 a, u64 b) {
  asm volatile("st.relaxed.gpu.global" SCANJIT_FLAG_HINT ".v2.u64 [%0], {%1, %2}" SCANJIT_FLAG_POLICY(3) ";" ::"l"(p),
               "l"(a), "l"(b), "l"(keep_in_l2_policy())
               : "memory");
}
template <class Acc>
__device__ __forceinline__ FlaggedValue<Acc> load_flagged(const FlaggedValue<Acc> *p) {
  typedef FlaggedValue<Acc> F;
  F f;
  if constexpr (F::kPairs) {
#pragma unroll
    for (int i = 0; i < F::kWords; i += 2)
      load_word_pair(p->word + i, f.word[i], f.word[i + 1]);
  } else {
#pragma unroll
    for (int i = 0; i < F::kWords; ++i)
      asm volatile("ld.relaxed.gpu.global" SCANJIT_FLAG_HINT ".u64 %0, [%1]" SCANJIT_FLAG_POLICY(2) ";"
                   : "=l"(f.word[i])
                   : "l"(p->word + i), "l"(keep_in_l2_policy())
                   : "memory");
  }
  return f;
}
template <class Acc>
__device__ __forceinline__ void store_flagged(FlaggedValue<Acc> *p, FlaggedValue<Acc> f) {
  typedef FlaggedValue<Acc> F;
  if constexpr (F::kPairs) {
#pragma unroll
    for (int i = 0; i < F::kWords; i += 2)
      store_word_pair(p->word + i, f.word[i], f.word[i + 1]);
  } else {
#pragma unroll
    for (int i = 0; i < F::kWords; ++i)
      asm volatile("st.relaxed.gpu.global" SCANJIT_FLAG_HINT ".u64 [%0], %1" SCANJIT_FLAG_POLICY(2) ";" ::"l"(p->word + i),
                   "l"(f.word[i]), "l"(keep_in_l2_policy())
                   : "memory");
  }
}
// Two one-word values side by side at a 16-byte boundary (`p`), as one
// 16-byte access: each 8-byte half is still single-copy atomic, so each
// value is read or published whole, and a warp whose threads hold two
// neighbouring values each touches half the sectors it would one by one.
template <class Acc>
__device__ __forceinline__ void load_flagged_pair(const FlaggedValue<Acc> *p, FlaggedValue<Acc> &a,
                                                  FlaggedValue<Acc> &b) {
  static_assert(FlaggedValue<Acc>::kWords == 1, "pairs of one-word values");
  load_word_pair(p->word, a.word[0], b.word[0]);
}
template <class Acc>
__device__ __forceinline__ void store_flagged_pair(FlaggedValue<Acc> *p, FlaggedValue<Acc> a, FlaggedValue<Acc> b) {
  static_assert(FlaggedValue<Acc>::kWords == 1, "pairs of one-word values");
  store_word_pair(p->word, a.word[0], b.word[0]);
}
#undef SCANJIT_FLAG_HINT
#undef SCANJIT_FLAG_POLICY

// Publishes `v` with launch tag `tag` at `slot`, part by part.
template <class Acc> __device__ __forceinline__ void store_published(SlotOf<Acc> *slot, const Acc &v, unsigned tag) {
  typedef PublishedParts<Acc> Parts;
  if constexpr (Parts::kParts == 1) {
    store_flagged(slot, FlaggedValue<Acc>::of(v, tag));
  } else {
#pragma unroll
    for (int q = 0; q < Parts::kParts; ++q)
      store_flagged(&slot->part[q], FlaggedValue<typename Parts::Part>::of(Parts::part(v, q), tag));
  }
}

} // namespace scanjit
