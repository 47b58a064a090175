// CUB baselines for the scan benchmark, each next to a device copy of the
// same bytes timed in the same run (cudaEvents, 3 warm-ups, median of 20):
//  - a plain block-per-row scan (cub::BlockLoad/BlockScan/BlockStore with a
//    running prefix), the yardstick the issue quotes for 32768^2 (1.07x);
//  - cub::DeviceScan::InclusiveSum on 1x1G (single-pass decoupled look-back).
// Built with the toolkit's nvcc when CMake finds it; not part of `check`.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                           \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "cub_baseline: %s: %s\n", #call, cudaGetErrorString(e_));          \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

namespace {

constexpr int kThreads = 256, kItems = 8;

struct RunningPrefix {
  float total = 0;
  __device__ float operator()(float block_aggregate) {
    float old = total;
    total += block_aggregate;
    return old;
  }
};

__global__ void __launch_bounds__(kThreads) block_per_row(const float *in, float *out, long long cols) {
  typedef cub::BlockLoad<float, kThreads, kItems, cub::BLOCK_LOAD_VECTORIZE> Load;
  typedef cub::BlockStore<float, kThreads, kItems, cub::BLOCK_STORE_VECTORIZE> Store;
  typedef cub::BlockScan<float, kThreads, cub::BLOCK_SCAN_RAKING_MEMOIZE> Scan;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } temp;
  const float *row_in = in + blockIdx.x * cols;
  float *row_out = out + blockIdx.x * cols;
  RunningPrefix prefix;
  for (long long t = 0; t < cols; t += kThreads * kItems) {
    float v[kItems];
    Load(temp.load).Load(row_in + t, v);
    __syncthreads();
    Scan(temp.scan).InclusiveSum(v, v, prefix);
    __syncthreads();
    Store(temp.store).Store(row_out + t, v);
    __syncthreads();
  }
}

template <class F> float median_ms(F &&launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    launch();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

__global__ void fill(float *p, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    p[i] = float((i * 2654435761ull) % 1000) * 1e-3f - 0.5f; // not zeros (METHOD.md)
}

void report(const char *name, long long n, float ms, float copy_ms) {
  const double gb = 2.0 * n * sizeof(float) / 1e9;
  std::printf("| cub | `%s` | %.3f | %.0f | %.3f | %.2f |\n", name, ms, gb / (ms * 1e-3), copy_ms,
              ms / copy_ms);
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "cub_baseline: no GPU\n");
    return 1;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n\n| baseline | case | ms | GB/s | copy ms | ratio |\n|---|---|---|---|---|---|\n",
              prop.name);
  const long long n = 1LL << 30;
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  fill<<<4096, 256>>>(in, n);
  CHECK(cudaDeviceSynchronize());
  auto copy = [&] { CHECK(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice)); };

  const long long rows = 32768, cols = 32768;
  float row_ms = median_ms([&] { block_per_row<<<unsigned(rows), kThreads>>>(in, out, cols); });
  report("block-per-row sum f32[32768,32768] dim=1", n, row_ms, median_ms(copy));

  size_t temp_bytes = 0;
  CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, in, out, n));
  void *temp = nullptr;
  CHECK(cudaMalloc(&temp, temp_bytes));
  float scan_ms = median_ms([&] { CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n)); });
  report("DeviceScan::InclusiveSum f32[1073741824]", n, scan_ms, median_ms(copy));
  CHECK(cudaFree(temp));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
