// What a generated kernel's __launch_bounds__ asks of its arch.
#pragma once

namespace scanjit {

// The plan's blocks per SM, asked of this arch. Plans are tuned on sm_90;
// more than 1024 threads an SM (the lean look-back's three 512-thread
// blocks: 40 registers) are asked only from sm_80 to sm_90, where such
// kernels compile without spills. sm_75 holds 1024 threads an SM, and
// sm_100 and sm_120 spilled at 40 registers.
template <int kBlocks, int kThreads> struct ArchMinBlocks {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 800 || __CUDA_ARCH__ > 900)
  static constexpr int value = kBlocks * kThreads <= 1024 ? kBlocks : (kThreads < 1024 ? 1024 / kThreads : 1);
#else
  static constexpr int value = kBlocks;
#endif
};

} // namespace scanjit
