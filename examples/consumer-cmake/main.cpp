// A host that uses the installed scanjit: inspects a seed spec (no GPU
// needed), then, where a GPU is present, scans a tensor and checks a value.
#include <scanjit/Inspect.h>
#include <scanjit/Scan.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  const scanjit::KernelReport report = scanjit::inspectKernel("sum f32[32768,32768] dim=1");
  std::printf("plan: %s\nregisters: %d, spill stores: %d\n", report.plan.c_str(), report.registers,
              report.spillStores);
  if (!scanjit::gpuAvailable()) {
    std::printf("no GPU (%s): inspected only\n", scanjit::gpuUnavailableReason().c_str());
    return 0;
  }
  const int rows = 4, cols = 1000;
  std::vector<float> host(rows * cols, 1.0f);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, host.size() * sizeof(float));
  cudaMalloc(&out, host.size() * sizeof(float));
  cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  try {
    scanjit::cumsum(scanjit::TensorRef::contiguous(out, scanjit::DType::F32, {rows, cols}),
                    scanjit::TensorRef::contiguous(in, scanjit::DType::F32, {rows, cols}), 1);
  } catch (const scanjit::Error &e) {
    std::printf("scanjit error (%s): %s\n", scanjit::errorCodeName(e.code()), e.what());
    return 1;
  }
  cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  const bool ok = host[cols - 1] == float(cols) && host[rows * cols - 1] == float(cols);
  std::printf("cumsum of ones along rows of %d: last value %g (%s)\n", cols, host[cols - 1], ok ? "ok" : "WRONG");
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
