#include "GpuHarness.h"

#include "compiler/KernelCompiler.h"

#include "scanjit/Inspect.h"
#include "scanjit/Scan.h"

#include "testing/DeviceMemory.h"
#include "testing/HostElements.h"
#include "testing/RandomData.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace scanjit::gpu_testing {
namespace {

using namespace scanjit::detail;

// Lines to check: all when few, else the first, the last and random others.
std::vector<int64_t> pickLines(int64_t total, int64_t most, std::mt19937_64 &rng) {
  std::vector<int64_t> lines;
  if (total <= most) {
    for (int64_t i = 0; i < total; ++i)
      lines.push_back(i);
    return lines;
  }
  lines = {0, total - 1};
  while (int64_t(lines.size()) < most)
    lines.push_back(int64_t(rng() % uint64_t(total)));
  return lines;
}

struct HostTensor {
  std::vector<uint8_t> bytes; // offset elements + extent
  int64_t offset = 0;
  int elemSize = 1;
  const void *element0() const { return bytes.data() + offset * elemSize; }
  void *element0() { return bytes.data() + offset * elemSize; }
};

HostTensor hostFor(const Dims &shape, const Dims &strides, DType t, int64_t offset) {
  HostTensor h;
  h.offset = offset;
  h.elemSize = dtypeSize(t);
  h.bytes.resize(size_t(offset + extentElements(shape, strides)) * h.elemSize);
  return h;
}

} // namespace

const std::string &gpuSkipReason() {
  static const std::string reason = gpuUnavailableReason();
  return reason;
}

std::string CaseOutcome::describe() const {
  return "seed " + std::to_string(seed) + ", checked " + std::to_string(report.checked) +
         ", mismatches " + std::to_string(report.mismatches) +
         (report.firstMismatch.empty() ? "" : ", first: " + report.firstMismatch) +
         (reproducible ? "" : ", NOT bitwise reproducible between two runs") +
         (strayByte < 0 ? "" : ", wrote output byte " + std::to_string(strayByte) + " outside the tensor");
}

CaseOutcome runCase(const std::string &specText, const CaseOptions &o) {
  ScanSpec spec = *parseSpec(specText); // callers pass valid specs; prepare reports errors
  Kernel kernel = prepare(specText);
  CaseOutcome outcome;
  outcome.seed = o.seed ? o.seed : std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32);
  std::mt19937_64 rng(outcome.seed);

  HostTensor in = hostFor(spec.shape, spec.inStrides, spec.in, o.inOffset);
  HostTensor out = hostFor(spec.shape, spec.outStrides, spec.out, o.outOffset);
  HostTensor mask;
  fillRandomParallel(in.bytes.data(), spec.in, spec.op, int64_t(in.bytes.size()) / in.elemSize,
                     {outcome.seed, o.specialFraction, 0, o.logSumExpSpread, o.negativeInfinityRuns});
  if (spec.mask) {
    mask = hostFor(spec.shape, spec.maskStrides, DType::Bool, o.maskOffset);
    fillRandomMaskParallel(mask.bytes.data(), int64_t(mask.bytes.size()), outcome.seed);
  }

  DeviceBuffer dIn(in.bytes.size()), dOut(out.bytes.size()), dMask(mask.bytes.size());
  dIn.upload(in.bytes.data(), in.bytes.size());
  dMask.upload(mask.bytes.data(), mask.bytes.size());
  const int64_t numel = spec.numel();
  const std::vector<bool> outElements = outputElementMap(spec, out.bytes.size(), out.offset);
  auto run = [&](uint8_t poison) {
    dOut.fill(poison);
    kernel.launch(numel ? dOut.at(out.offset * out.elemSize) : nullptr,
                  numel ? dIn.at(in.offset * in.elemSize) : nullptr,
                  spec.mask && numel ? dMask.at(mask.offset) : nullptr, nullptr);
    checkCu(driver()->cuCtxSynchronize(), "kernel execution");
    dOut.download(out.bytes.data(), out.bytes.size());
    if (outcome.strayByte < 0)
      outcome.strayByte = firstStrayOutputByte(spec, out.bytes, out.offset, poison, outElements);
  };
  run(0xff); // NaN for floats, -1 for integers
  std::vector<int64_t> lines = pickLines(numLines(spec), o.maxLines, rng);
  outcome.report = verifyLines(spec, in.element0(), spec.mask ? static_cast<const uint8_t *>(mask.element0()) : nullptr,
                               out.element0(), lines);
  if (o.twice && numel > 0) {
    std::vector<uint8_t> first = out.bytes;
    run(0x5a);
    // Every output element of the checked lines must match the first run's
    // bitwise (gaps between strided elements hold the two poisons and are
    // skipped). A second run equal to the verified first is verified too,
    // so the reference (the costly part: a 1G-element line took minutes) is
    // computed again only to report a second run that differs.
    const int64_t sOut = spec.rank() == 0 ? 0 : spec.outStrides[spec.dim];
    for (int64_t line : lines) {
      int64_t base = out.offset + lineOffsets(spec, line).out;
      for (int64_t i = 0; i < spec.scanLength() && outcome.reproducible; ++i) {
        size_t at = size_t(base + i * sOut) * out.elemSize;
        if (std::memcmp(&first[at], &out.bytes[at], out.elemSize) != 0)
          outcome.reproducible = false;
      }
    }
    if (!outcome.reproducible && outcome.report.ok())
      outcome.report = verifyLines(spec, in.element0(),
                                   spec.mask ? static_cast<const uint8_t *>(mask.element0()) : nullptr,
                                   out.element0(), lines);
  }
  return outcome;
}

void expectCasePasses(const std::string &spec, const CaseOptions &options) {
  SCOPED_TRACE(spec);
  // SCANJIT_GPU_TEST_TRACE=1 names each case before it runs, so a hang or a
  // crash points at its spec.
  static const bool trace = std::getenv("SCANJIT_GPU_TEST_TRACE") != nullptr;
  if (trace)
    std::fprintf(stderr, "[ case     ] %s\n", spec.c_str());
  try {
    CaseOutcome outcome = runCase(spec, options);
    EXPECT_TRUE(outcome.report.ok() && outcome.reproducible && outcome.strayByte < 0)
        << spec << ": " << outcome.describe();
    EXPECT_GT(outcome.report.checked + (parseSpec(spec)->numel() == 0), 0) << spec << ": nothing checked";
  } catch (const Error &e) {
    ADD_FAILURE() << spec << ": " << e.what();
  }
}

std::string cliPath() {
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(path, "tools", "scanjit");
  return path.str().str();
}

void expectCasesPass(const std::vector<std::string> &specs, const std::vector<CaseOptions> &placements) {
  precompile(specs);
  for (const std::string &s : specs) {
    expectCasePasses(s);
    for (const CaseOptions &placed : placements)
      expectCasePasses(s, placed);
  }
}

::testing::AssertionResult planOf(const std::string &text, KernelPlan &plan, const Target &target) {
  auto spec = parseSpec(text);
  if (!spec)
    return ::testing::AssertionFailure() << llvm::toString(spec.takeError());
  auto generated = generateKernel(*spec, target);
  if (!generated)
    return ::testing::AssertionFailure() << llvm::toString(generated.takeError());
  plan = generated->plan;
  return ::testing::AssertionSuccess();
}

} // namespace scanjit::gpu_testing
