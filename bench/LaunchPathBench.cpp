// The launch path per call on a tiny problem (f32[16,1024] dim=1, a few µs
// of GPU time), next to cuLaunchKernel's own cost on the same function:
// host time of a burst of calls queued without waiting (what the caller's
// thread pays), and the wall time per call of a long loop (the GPU's pace
// where it is slower). Part of scanjit_host_bench, on a GPU machine only.
#include "LaunchPathBench.h"

#include "scanjit/Scan.h"
#include "scanjit/scanjit.h"

#include "runtime/Context.h"
#include "runtime/DriverApi.h"
#include "runtime/KernelRegistry.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <functional>

namespace scanjit::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Microseconds per call: the best of 7 bursts of `calls`, each begun on an
// idle GPU; with `wait`, the burst's own completion is included.
double microsPerCall(const std::function<void()> &call, int calls, bool wait) {
  const detail::DriverApi &api = *detail::driver();
  for (int i = 0; i < 100; ++i)
    call();
  api.cuCtxSynchronize();
  double best = 1e30;
  for (int round = 0; round < 7; ++round) {
    api.cuCtxSynchronize();
    auto t = Clock::now();
    for (int i = 0; i < calls; ++i)
      call();
    if (wait)
      api.cuCtxSynchronize();
    best = std::min(best, std::chrono::duration<double, std::micro>(Clock::now() - t).count() / calls);
    api.cuCtxSynchronize();
  }
  return best;
}

} // namespace

void printLaunchPathTable() {
  const detail::DriverApi &api = *detail::driver();
  const int64_t rows = 16, cols = 1024;
  const std::string spec = "sum f32[16,1024] dim=1";
  CUdeviceptr in = 0, out = 0;
  api.cuMemAlloc(&in, rows * cols * 4);
  api.cuMemAlloc(&out, rows * cols * 4);
  api.cuMemsetD8Async(in, 0, rows * cols * 4, nullptr);
  void *outPtr = reinterpret_cast<void *>(out);
  const void *inPtr = reinterpret_cast<const void *>(in);
  const TensorRef outRef = TensorRef::contiguous(outPtr, DType::F32, {rows, cols});
  const TensorRef inRef = TensorRef::contiguous(const_cast<void *>(inPtr), DType::F32, {rows, cols});

  Kernel kernel = prepare(spec);
  detail::ContextInfo ctx = *detail::currentContext();
  auto entry = *detail::findOrCompile(llvm::StringRef(spec), Target{ctx.sm});
  CUfunction fn = *entry->function(ctx.context);
  CUdeviceptr none = 0;
  long long batch = entry->plan.launchBatch();
  void *params[] = {&in, &none, &out, &none, &batch};
  const KernelPlan &plan = entry->plan;

  struct Row {
    const char *name;
    std::function<void()> call;
  };
  const Row table[] = {
      {"cuLaunchKernel (the same function, bare)",
       [&] {
         api.cuLaunchKernel(fn, unsigned(plan.grid), 1, 1, unsigned(plan.threads), 1, 1, unsigned(plan.sharedBytes),
                            nullptr, params, nullptr);
       }},
      {"Kernel::launchUnchecked(pointers)", [&] { kernel.launchUnchecked(outPtr, inPtr, nullptr, nullptr); }},
      {"Kernel::launch(pointers)", [&] { kernel.launch(outPtr, inPtr, nullptr, nullptr); }},
      {"prepare(spec) + Kernel::launch(TensorRefs)", [&] { prepare(spec).launch(outRef, inRef); }},
      {"scanjit::cumsum(TensorRefs) (scan())", [&] { cumsum(outRef, inRef, 1); }},
      {"scanjit_scan(spec text, pointers) (C)", [&] { scanjit_scan(spec.c_str(), outPtr, inPtr, nullptr, nullptr); }},
  };
  llvm::outs() << "\n| launch path, " << spec << " | host us/call (burst of 500) | wall us/call (2000, synced) | target |\n"
               << "|---|---|---|---|\n";
  for (const Row &row : table)
    llvm::outs() << llvm::formatv("| {0} | {1:f2} | {2:f2} | <= 5 us |\n", row.name,
                                  microsPerCall(row.call, 500, false), microsPerCall(row.call, 2000, true));
  api.cuCtxSynchronize();
  api.cuMemFree(in);
  api.cuMemFree(out);
}

} // namespace scanjit::bench
