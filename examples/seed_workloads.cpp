// The seed workloads through the public API: a 32768x32768 float32 tensor,
// dim=1: cumsum, reverse cumsum, masked cumsum (random bool mask) and an
// exclusive cumsum. Each is checked on sampled rows against a float64 host
// reference and timed next to a device copy of the same bytes.
// Without a GPU it still JIT-compiles and inspects each kernel.
//
// The inputs are drawn on the GPU by a generator JIT-compiled like the scans
// (scanjit's testing library, testing/DeviceRandom.h): element i is a hash
// of (seed, i), so the host regenerates just the rows it checks. Pass a seed
// (`seed_workloads 1234`) to reproduce a run.
#include "scanjit/Inspect.h"
#include "scanjit/Scan.h"

#include "testing/DeviceRandom.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

constexpr int64_t kRows = 32768, kCols = 32768;

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));                    \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

template <class Fn> float medianMs(Fn fn) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i)
    fn();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    cudaEventRecord(a);
    fn();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Checks `rows` of the result against a float64 scan of the input, each
// row regenerated on the host from the seed it was drawn with.
bool checkRows(uint64_t seed, const float *dOut, bool reverse, bool masked, bool exclusive,
               const std::vector<int64_t> &rows, double *worst) {
  using namespace scanjit::detail;
  std::vector<float> got(kCols), x(kCols);
  std::vector<uint8_t> mask(kCols);
  for (int64_t r : rows) {
    CUDA_OK(cudaMemcpy(got.data(), dOut + r * kCols, kCols * 4, cudaMemcpyDeviceToHost));
    RandomOptions o;
    o.seed = seed;
    o.firstIndex = r * kCols;
    fillRandom(x.data(), scanjit::DType::F32, scanjit::ScanOp::Sum, kCols, o);
    fillRandomMask(mask.data(), kCols, seed, r * kCols);
    double run = 0, absRun = 0;
    for (int64_t k = 0; k < kCols; ++k) {
      int64_t i = reverse ? kCols - 1 - k : k;
      double v = masked && !mask[i] ? 0.0 : x[i];
      double want = exclusive ? run : run + v;
      double bound = (64 + kCols / 128.0) * std::ldexp(1.0, -24) * (absRun + (exclusive ? 0 : std::fabs(v))) +
                     std::ldexp(1.0, -24) * std::fabs(want);
      double err = std::fabs(got[i] - want);
      *worst = std::max(*worst, err);
      if (!(err <= bound)) {
        std::printf("  row %lld col %lld: got %.9g expected %.9g\n", (long long)r, (long long)i, got[i], want);
        return false;
      }
      run += v;
      absRun += std::fabs(v);
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  struct Seed {
    const char *name;
    bool reverse, masked, exclusive;
  } seeds[] = {{"cumsum", false, false, false},
               {"reverse cumsum", true, false, false},
               {"masked cumsum", false, true, false},
               {"exclusive cumsum", false, false, true}};

  if (!scanjit::gpuAvailable()) {
    std::printf("No GPU here (%s): compiling and inspecting the seed kernels only.\n",
                scanjit::gpuUnavailableReason().c_str());
    try {
      for (const Seed &s : seeds) {
        std::string spec = std::string("sum f32[32768,32768] dim=1") + (s.masked ? " mask" : "") +
                           (s.reverse ? " reverse" : "") + (s.exclusive ? " exclusive" : "");
        scanjit::KernelReport r = scanjit::inspectKernel(spec);
        std::printf("%-17s %s\n  %s %s: %d registers, %d B spilled, %d B shared, compiled in %.0f ms\n  plan: %s\n",
                    s.name, r.spec.c_str(), r.arch.c_str(), r.entry.c_str(), r.registers,
                    r.spillStores + r.spillLoads, r.sharedBytes, r.compileMillis, r.plan.c_str());
      }
    } catch (const scanjit::Error &e) {
      std::fprintf(stderr, "seed_workloads: %s\n", e.what());
      return 1;
    }
    return 0;
  }

  const int64_t n = kRows * kCols;
  const uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::random_device{}();
  std::mt19937_64 rng(seed);
  float *dIn, *dOut;
  bool *dMask;
  void *copyDst;
  CUDA_OK(cudaMalloc(&dIn, n * 4));
  CUDA_OK(cudaMalloc(&dOut, n * 4));
  CUDA_OK(cudaMalloc(&dMask, n));
  try {
    scanjit::detail::RandomOptions o;
    o.seed = seed;
    scanjit::detail::fillRandomOnDevice(CUdeviceptr(dIn), scanjit::DType::F32, scanjit::ScanOp::Sum, n, o);
    scanjit::detail::fillRandomMaskOnDevice(CUdeviceptr(dMask), n, seed);
  } catch (const scanjit::Error &e) {
    std::fprintf(stderr, "seed_workloads: random inputs: %s\n", e.what());
    return 1;
  }
  std::printf("Inputs: %lld random floats in [-1, 1) and a random mask, drawn on the GPU (seed %llu)\n",
              (long long)n, (unsigned long long)seed);
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s\n", prop.name);

  using scanjit::DType;
  using scanjit::TensorRef;
  const TensorRef in = TensorRef::contiguous(dIn, DType::F32, {kRows, kCols});
  const TensorRef out = TensorRef::contiguous(dOut, DType::F32, {kRows, kCols});
  const TensorRef m = TensorRef::contiguous(dMask, DType::Bool, {kRows, kCols});
  std::vector<int64_t> rows = {0, kRows - 1};
  for (int i = 0; i < 14; ++i)
    rows.push_back(int64_t(rng() % kRows));

  bool allOk = true;
  for (const Seed &s : seeds) {
    scanjit::ScanOptions o;
    o.reverse = s.reverse;
    o.exclusive = s.exclusive;
    o.mask = s.masked ? &m : nullptr;
    try {
      CUDA_OK(cudaMemset(dOut, 0xff, n * 4)); // poison
      scanjit::cumsum(out, in, 1, o);
      CUDA_OK(cudaDeviceSynchronize());
      double worst = 0;
      bool ok = checkRows(seed, dOut, s.reverse, s.masked, s.exclusive, rows, &worst);
      allOk &= ok;
      float ms = medianMs([&] { scanjit::cumsum(out, in, 1, o); });
      // The copy moves the same bytes: read input (+ mask), write output.
      size_t each = (n * 4 * 2 + (s.masked ? n : 0)) / 2;
      void *copySrc;
      CUDA_OK(cudaMalloc(&copySrc, each));
      CUDA_OK(cudaMalloc(&copyDst, each));
      CUDA_OK(cudaMemset(copySrc, 0x3c, each));
      float copyMs = medianMs([&] { cudaMemcpyAsync(copyDst, copySrc, each, cudaMemcpyDeviceToDevice); });
      CUDA_OK(cudaGetLastError());
      CUDA_OK(cudaFree(copySrc));
      CUDA_OK(cudaFree(copyDst));
      std::printf("%-17s %s: %s (16 rows, max error %.2e)  %.3f ms  copy %.3f ms  ratio %.2f\n", s.name,
                  scanjit::specFor(scanjit::ScanOp::Sum, out, in, 1, o).c_str(), ok ? "ok" : "WRONG",
                  worst, ms, copyMs, ms / copyMs);
    } catch (const scanjit::Error &e) {
      std::fprintf(stderr, "%s: %s\n", s.name, e.what());
      allOk = false;
    }
  }
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dMask);
  return allOk ? 0 : 1;
}
