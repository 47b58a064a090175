// scanjit run "<spec>" [--iters N]: runs a spec on random data drawn on the
// GPU, checks it against the CPU reference (sampled lines for large shapes,
// regenerated on the host) and times it next to a device copy of the same
// bytes.
#include "tools/Commands.h"

#include "scanjit/Inspect.h"
#include "scanjit/Scan.h"

#include "testing/DeviceMemory.h"
#include "runtime/Errors.h"
#include "testing/HostElements.h"
#include "testing/DeviceRandom.h"
#include "testing/SampledLines.h"
#include "testing/Timing.h"
#include "testing/Verify.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <random>

namespace scanjit::tools {
namespace {

namespace cl = llvm::cl;
using namespace scanjit::detail;

cl::SubCommand Run("run", "Run a spec on random data on the GPU: check it and time it against a copy");
cl::opt<std::string> SpecText(cl::Positional, cl::Required, cl::desc("<spec>"), cl::sub(Run));
cl::opt<int> Iters("iters", cl::desc("Timed runs (median reported)"), cl::init(20), cl::sub(Run));
cl::opt<int> CheckLines("check-lines", cl::desc("Lines checked against the reference at most"),
                        cl::init(64), cl::sub(Run));
cl::opt<uint64_t> Seed("seed", cl::desc("Random seed (default: fresh)"), cl::init(0), cl::sub(Run));

int runCommand() {
  try {
    const std::string reason = gpuUnavailableReason();
    if (!reason.empty())
      return reportError(makeError(ErrorCode::NoDevice, "scanjit run needs a GPU: " + reason));
    ScanSpec spec = unwrap(parseSpec(SpecText));
    Kernel kernel = prepare(SpecText);
    const uint64_t seed = Seed ? uint64_t(Seed) : std::random_device{}();

    // Inputs drawn on the GPU (testing/DeviceRandom.h); the host regenerates
    // only the lines it checks (testing/SampledLines.h).
    const int64_t inElems = extentElements(spec.shape, spec.inStrides);
    const int64_t outElems = extentElements(spec.shape, spec.outStrides);
    const int64_t maskElems = spec.mask ? extentElements(spec.shape, spec.maskStrides) : 0;
    DeviceBuffer dIn{size_t(inElems) * dtypeSize(spec.in)}, dOut{size_t(outElems) * dtypeSize(spec.out)};
    DeviceBuffer dMask{size_t(maskElems)};
    fillRandomOnDevice(dIn.get(), spec.in, spec.op, inElems, {seed, 0});
    if (spec.mask)
      fillRandomMaskOnDevice(dMask.get(), maskElems, seed);
    dOut.fill(0xff);
    void *outPtr = dOut.at(0), *maskPtr = spec.mask ? dMask.at(0) : nullptr;
    const void *inPtr = dIn.at(0);
    auto launch = [&] { kernel.launch(outPtr, inPtr, maskPtr, nullptr); };
    launch();
    checkCu(driver()->cuCtxSynchronize(), "kernel execution");

    std::mt19937_64 rng(seed);
    std::vector<int64_t> lines;
    const int64_t total = numLines(spec);
    for (int64_t i = 0; i < total && int64_t(lines.size()) < CheckLines; ++i)
      lines.push_back(total <= CheckLines ? i : int64_t(rng() % uint64_t(total)));
    const SampledLines host(spec, lines, seed, dOut.get());
    VerifyReport report = verifyLines(spec, host.in.get(), host.mask.get(), host.out.get(), lines);

    TimingOptions timing;
    timing.iterations = Iters;
    const double ms = spec.numel() ? medianMillis(launch, nullptr, timing) : 0;
    const size_t moved = size_t(spec.numel()) * (dtypeSize(spec.in) + dtypeSize(spec.out) + (spec.mask ? 1 : 0));
    const double copy = moved ? copyMillis(moved / 2, nullptr, timing) : 0;
    llvm::outs() << llvm::formatv(
        "spec: {0}\nplan: {1}\ndevice: {2}\ncheck: {3} ({4} elements on {5} lines, max error "
        "{6:e2}, worst error/tolerance {7:f3}, seed {8})\n",
        spec.toString(), kernel.plan(), deviceName(), report.ok() ? "pass" : "FAIL", report.checked,
        lines.size(), report.maxError, report.maxErrorRatio, seed);
    if (!report.ok())
      llvm::outs() << "first mismatch: " << report.firstMismatch << "\n";
    llvm::outs() << llvm::formatv("time: {0:f4} ms, {1:f1} GB/s; copy of the same bytes: {2:f4} ms; "
                                  "ratio {3:f3}\n",
                                  ms, ms > 0 ? moved / ms / 1e6 : 0.0, copy, copy > 0 ? ms / copy : 0.0);
    return report.ok() ? 0 : 2;
  } catch (const Error &e) {
    return reportError(makeError(e.code(), e.what()));
  }
}

} // namespace

Command runCommand() { return {Run, runCommand}; }

} // namespace scanjit::tools
