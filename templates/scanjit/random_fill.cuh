// Random inputs generated on the GPU, value for value those of the host's
// fillRandom / fillRandomMask (testing/RandomData.cpp): element i of a
// tensor is a hash of (seed, i), so the host can regenerate any line it
// checks without holding the tensor. Used by `scanjit run` and the demo
// (testing/DeviceRandom.cpp); not by scan kernels.
#pragma once

#include "scanjit/types.cuh"

namespace scanjit {

// splitmix64, as on the host.
__device__ __forceinline__ u64 random_mix(u64 x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

__device__ __forceinline__ u64 random_hash(u64 mixed_seed, long long i) {
  return random_mix(mixed_seed ^ u64(i) * 0xd1342543de82ef95ULL);
}

// A value in [lo, hi) on a grid of 2^-bits * (hi - lo): exact in the dtype,
// so every rounding on the way is exact and matches the host's.
__device__ __forceinline__ double random_grid(u64 h, double lo, double hi, int bits) {
  const double u = double(h >> (64 - bits)) * __longlong_as_double((long long)(1023 - bits) << 52);
  return lo + (hi - lo) * u;
}

template <class T> struct RandomBits;
template <> struct RandomBits<f16> { static constexpr int value = 10; };
template <> struct RandomBits<bf16> { static constexpr int value = 7; };
template <> struct RandomBits<float> { static constexpr int value = 23; };
template <> struct RandomBits<double> { static constexpr int value = 52; };

// kKind: 0 sums (and max/min) in [-1, 1), 1 products near 1, 2 log-sum-exp
// in [-spread, spread).
template <class T, int kKind>
__device__ __forceinline__ T random_float(u64 h, double spread) {
  constexpr int B = RandomBits<T>::value;
  const double v = kKind == 1 ? random_grid(h, 0.75, 1.25, B - 1)
                 : kKind == 2 ? random_grid(h, -spread, spread, B - 2)
                              : random_grid(h, -1.0, 1.0, B);
  if constexpr (sizeof(T) == 2)
    return Convert<T>::store(v);
  else
    return T(v);
}

template <class T, int kKind> __device__ __forceinline__ T random_int(u64 h);
template <> __device__ __forceinline__ boolean random_int<boolean, 0>(u64 h) { return boolean{(unsigned char)(h & 1)}; }
template <> __device__ __forceinline__ unsigned char random_int<unsigned char, 0>(u64 h) { return (unsigned char)(h & 0xff); }
template <> __device__ __forceinline__ signed char random_int<signed char, 0>(u64 h) { return (signed char)h; }
template <> __device__ __forceinline__ short random_int<short, 0>(u64 h) { return (short)h; }
template <> __device__ __forceinline__ int random_int<int, 0>(u64 h) { return (int)h; }
template <> __device__ __forceinline__ int random_int<int, 1>(u64 h) { return int(h % 7) - 3; }
template <> __device__ __forceinline__ long long random_int<long long, 0>(u64 h) { return (long long)h; }
template <> __device__ __forceinline__ long long random_int<long long, 1>(u64 h) { return (long long)(h % 7) - 3; }

template <class T, int kKind, bool kFloat>
__device__ __forceinline__ void random_fill(T *data, long long count, u64 seed, long long first, double spread) {
  const u64 s = random_mix(seed);
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x) {
    const u64 h = random_hash(s, first + i);
    if constexpr (kFloat)
      data[i] = random_float<T, kKind>(h, spread);
    else
      data[i] = random_int<T, kKind>(h);
  }
}

__device__ __forceinline__ void random_fill_mask(unsigned char *mask, long long count, u64 seed, long long first) {
  const u64 s = random_mix(seed ^ 0x6d61736bULL);
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x)
    mask[i] = (unsigned char)(random_hash(s, first + i) >> 63);
}

} // namespace scanjit
