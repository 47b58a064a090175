// The seed workloads (32768x32768 float32, dim=1): cumsum, reverse cumsum and
// masked cumsum. This program JIT-compiles each and shows what was generated;
// with a GPU present it also runs them (see the runtime API).
#include "scanjit/Error.h"
#include "scanjit/Inspect.h"

#include <cstdio>

int main() {
  const char *seeds[] = {
      "sum f32[32768,32768] dim=1",
      "sum f32[32768,32768] dim=1 reverse",
      "sum f32[32768,32768] dim=1 mask",
      "sum f32[32768,32768] dim=1 exclusive",
  };
  try {
    for (const char *spec : seeds) {
      scanjit::KernelReport r = scanjit::inspectKernel(spec);
      std::printf("%-40s %s  %s: %d registers, %d B spilled, %d B shared, compiled in %.0f ms\n",
                  r.spec.c_str(), r.arch.c_str(), r.entry.c_str(), r.registers,
                  r.spillStores + r.spillLoads, r.sharedBytes, r.compileMillis);
      std::printf("  plan: %s\n", r.plan.c_str());
    }
  } catch (const scanjit::Error &e) {
    std::fprintf(stderr, "seed_workloads: %s\n", e.what());
    return 1;
  }
  if (!scanjit::gpuAvailable()) {
    std::printf("No GPU here (%s): the kernels were compiled and inspected, not run.\n",
                scanjit::gpuUnavailableReason().c_str());
    return 0;
  }
  std::printf("GPU present: running the seed workloads needs the runtime (not built yet).\n");
  return 0;
}
