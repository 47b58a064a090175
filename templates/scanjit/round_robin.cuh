// Tickets dealt round n things (every thing's step s, then step s + 1):
// ticket t is thing t mod n in round t / n. Where n is compiled in, the
// compiler divides by multiply-shift. Where it is known only at launch (a
// batch the plan takes at launch), each thread computes the same kind of
// multiplier once (Granlund & Montgomery, "Division by invariant integers
// using multiplication", 1994) instead of dividing per ticket (lines at a
// stride, f32[8,1048576] strides=[2097152,2]: 0.070 -> 0.063 ms on H100).
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

template <bool kRuntimeCount> struct RoundRobin {
  long long n;
  unsigned multiplier = 0;
  int shift1 = 0, shift2 = 0;

  __device__ __forceinline__ explicit RoundRobin(long long count) : n(count) {
    if constexpr (kRuntimeCount) {
      // Tickets and counts fit 31 bits (the planner keeps tiles within
      // kMaxGrid), so 32-bit arithmetic is exact and l <= 31.
      const unsigned d = unsigned(count);
      const int l = d > 1 ? 32 - __clz(int(d - 1)) : 0; // ceil(log2 d)
      multiplier = unsigned((u64(1) << 32) * ((u64(1) << l) - d) / d + 1);
      shift1 = l > 0 ? 1 : 0;
      shift2 = l > 0 ? l - 1 : 0;
    }
  }

  // The thing and the round of ticket t.
  __device__ __forceinline__ void deal(long long t, long long &index, long long &round) const {
    if constexpr (kRuntimeCount) {
      const unsigned u = unsigned(t), hi = __umulhi(multiplier, u);
      const unsigned q = (hi + ((u - hi) >> shift1)) >> shift2;
      round = q;
      index = (long long)(u - q * unsigned(n));
    } else {
      index = t % n;
      round = t / n;
    }
  }
};

} // namespace scanjit
