// Host-side work split into slices run on all cores: filling large random
// inputs and checking many lines against the float64 reference, which on
// one core took seconds a case (BENCHMARKS.md, fifty-second pass).
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace scanjit::detail {

/// How many slices `work` elements are worth: one below about a million
/// (a thread costs more than it saves there), else one a core.
inline int64_t slicesFor(int64_t work) {
  return work < (int64_t(1) << 20) ? 1 : int64_t(std::max(1u, std::thread::hardware_concurrency()));
}

/// Runs run(k, first, n) for slice k of `slices` contiguous slices of
/// [0, count), each on its own thread (the calling thread when one).
template <class Run> void inSlices(int64_t count, int64_t slices, Run run) {
  slices = std::max<int64_t>(1, std::min(slices, count));
  if (slices == 1) {
    run(int64_t(0), int64_t(0), count);
    return;
  }
  std::vector<std::thread> threads;
  for (int64_t k = 0; k < slices; ++k)
    threads.emplace_back([=] {
      const int64_t lo = count * k / slices, hi = count * (k + 1) / slices;
      run(k, lo, hi - lo);
    });
  for (std::thread &t : threads)
    t.join();
}

} // namespace scanjit::detail
