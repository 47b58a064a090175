// Each rung of the scan ladder on its own (warp scan, block scan, tile
// agent with a running prefix), as CUB tests its rungs: fresh random inputs,
// poisoned outputs, forward and reverse, inclusive and exclusive, segments,
// partial warps, blocks and tiles, checked against a host reference (exact
// for integer sums and max; log-sum-exp against long double).
#include "../ladder/LadderKernels.h"
#include "GpuHarness.h"

#include "compiler/Nvrtc.h"
#include "runtime/Context.h"
#include "runtime/Errors.h"
#include "testing/DeviceMemory.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace scanjit;
using namespace scanjit::detail;
using namespace scanjit::ladder;

namespace {

// Fresh inputs each run; the seed is in every failure message.
const uint64_t kSeed = std::random_device{}();

// The ladder's module in the current context, compiled once for its arch.
CUmodule ladderModule() {
  static CUmodule module = [] {
    const ContextInfo ctx = unwrap(currentContext());
    const Target target = unwrap(parseTarget("sm_" + std::to_string(ctx.sm)));
    CompiledKernel compiled = unwrap(compileWithNvrtc(ladderSource(), ladderKernels().front().entry, target,
                                                      "ladder rungs"));
    CUmodule m = nullptr;
    checkCu(driver()->cuModuleLoadData(&m, compiled.cubin.data()), "cuModuleLoadData (ladder rungs)");
    return m;
  }();
  return module;
}

// Host combine for each op; log-sum-exp in long double.
long double combine(LadderOp op, long double a, long double b) {
  switch (op) {
  case LadderOp::SumI64:
    return a + b; // (values stay far inside int64 and exact in long double)
  case LadderOp::MaxF32:
    return std::max(a, b);
  case LadderOp::LogSumExpF64: {
    if (std::isinf(a) && a < 0)
      return b;
    if (std::isinf(b) && b < 0)
      return a;
    const long double m = std::max(a, b);
    return m + std::log(std::exp(a - m) + std::exp(b - m));
  }
  }
  return 0;
}
long double identity(LadderOp op) {
  return op == LadderOp::SumI64 ? 0.0L : -std::numeric_limits<long double>::infinity();
}
size_t elementBytes(LadderOp op) { return op == LadderOp::MaxF32 ? 4 : 8; }

// Values in the op's element type, held as long double for the reference.
struct Values {
  LadderOp op;
  std::vector<long double> host;
  std::vector<unsigned char> bytes;
  Values(LadderOp o, int64_t n, uint64_t seed) : op(o), host(size_t(n)), bytes(size_t(n) * elementBytes(o)) {
    std::mt19937_64 rng(seed);
    for (int64_t i = 0; i < n; ++i) {
      if (op == LadderOp::SumI64) {
        const int64_t v = int64_t(rng() % 2001) - 1000;
        host[size_t(i)] = (long double)v;
        std::memcpy(&bytes[size_t(i) * 8], &v, 8);
      } else if (op == LadderOp::MaxF32) {
        const float v = float(int64_t(rng() % 20001) - 10000) / 8.0f; // repeats included
        host[size_t(i)] = v;
        std::memcpy(&bytes[size_t(i) * 4], &v, 4);
      } else {
        const double v = std::ldexp(double(rng() >> 11), -53) * 16.0 - 8.0;
        host[size_t(i)] = v;
        std::memcpy(&bytes[size_t(i) * 8], &v, 8);
      }
    }
  }
};

// The device's element `i` of `bytes`, as long double.
long double element(LadderOp op, const std::vector<unsigned char> &bytes, int64_t i) {
  if (op == LadderOp::SumI64) {
    int64_t v;
    std::memcpy(&v, &bytes[size_t(i) * 8], 8);
    return (long double)v;
  }
  if (op == LadderOp::MaxF32) {
    float v;
    std::memcpy(&v, &bytes[size_t(i) * 4], 4);
    return v;
  }
  double v;
  std::memcpy(&v, &bytes[size_t(i) * 8], 8);
  return v;
}

::testing::AssertionResult close(LadderOp op, long double got, long double want) {
  const bool exact = op != LadderOp::LogSumExpF64 || std::isinf(want);
  if (exact ? got == want : std::fabs(got - want) <= 1e-12L * std::max(1.0L, std::fabs(want)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << double(got) << ", want " << double(want);
}

// Scans [begin, end) of `x` (forward or reverse), inclusive or exclusive, into `out`.
void referenceScan(LadderOp op, const std::vector<long double> &x, int64_t begin, int64_t end, bool reverse,
                   bool exclusive, std::vector<long double> &out) {
  long double run = identity(op);
  for (int64_t k = 0; k < end - begin; ++k) {
    const int64_t i = reverse ? end - 1 - k : begin + k;
    const long double before = run;
    run = combine(op, run, x[size_t(i)]);
    out[size_t(i)] = exclusive ? before : run;
  }
}

struct Launch {
  CUfunction fn;
  unsigned grid, block;
};

Launch launchOf(const LadderKernel &k, unsigned grid) {
  CUfunction fn = nullptr;
  checkCu(driver()->cuModuleGetFunction(&fn, ladderModule(), k.entry.c_str()), "cuModuleGetFunction (ladder)");
  return {fn, grid, unsigned(k.threads)};
}

// Runs kernel `k` on `n` inputs (rows x n for the tile rung) with poisoned
// outputs; returns the two outputs' bytes.
void run(const LadderKernel &k, const Launch &l, const Values &in, int64_t n, size_t out2Elements,
         std::vector<unsigned char> &out, std::vector<unsigned char> &out2) {
  const size_t bytes = in.bytes.size(), eb = elementBytes(k.op);
  DeviceBuffer din(bytes), dout(bytes), dout2(std::max<size_t>(out2Elements, 1) * eb);
  din.upload(in.bytes.data(), bytes);
  dout.fill(0xff);
  dout2.fill(0xff);
  CUdeviceptr pin = din.get(), pout = dout.get(), pout2 = dout2.get();
  long long count = n;
  void *params[] = {&pin, &pout, &pout2, &count};
  checkCu(driver()->cuLaunchKernel(l.fn, l.grid, 1, 1, l.block, 1, 1, 0, nullptr, params, nullptr),
          "cuLaunchKernel (ladder)");
  checkCu(driver()->cuCtxSynchronize(), "cuCtxSynchronize (ladder)");
  out.resize(bytes);
  out2.resize(out2Elements * eb);
  dout.download(out.data(), bytes);
  if (out2Elements)
    dout2.download(out2.data(), out2.size());
}

std::string describe(const LadderKernel &k, int64_t n) {
  return k.entry + " (op " + std::to_string(int(k.op)) + (k.reverse ? ", reverse" : "") +
         (k.exclusive ? ", exclusive" : "") + ", threads " + std::to_string(k.threads) + ", items " +
         std::to_string(k.items) + ", width " + std::to_string(k.width) + ", segment " + std::to_string(k.segment) +
         ", n " + std::to_string(n) + ", seed " + std::to_string(kSeed) + " + n)";
}

TEST(Ladder, WarpScanOfEveryWidthAndDirection) {
  SCANJIT_REQUIRE_GPU();
  for (const LadderKernel &k : ladderKernels()) {
    if (k.rung != Rung::Warp)
      continue;
    for (int64_t n : {int64_t(1), int64_t(32), int64_t(64 * 5 + 13)}) {
      const Values in(k.op, n, kSeed + uint64_t(n));
      std::vector<unsigned char> incl, excl;
      run(k, launchOf(k, unsigned((n + 31) / 32)), in, n, size_t(n), incl, excl);
      std::vector<long double> wantIncl(static_cast<size_t>(n)), wantExcl(static_cast<size_t>(n));
      for (int64_t g = 0; g < n; g += k.width) { // runs of `width` lanes scan alone
        const int64_t end = std::min(n, g + k.width);
        referenceScan(k.op, in.host, g, end, k.reverse, false, wantIncl);
        referenceScan(k.op, in.host, g, end, k.reverse, true, wantExcl);
      }
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_TRUE(close(k.op, element(k.op, incl, i), wantIncl[size_t(i)])) << describe(k, n) << " inclusive " << i;
        ASSERT_TRUE(close(k.op, element(k.op, excl, i), wantExcl[size_t(i)])) << describe(k, n) << " exclusive " << i;
      }
    }
  }
}

TEST(Ladder, BlockScanTwiceInARowWithItsTotals) {
  SCANJIT_REQUIRE_GPU();
  for (const LadderKernel &k : ladderKernels()) {
    if (k.rung != Rung::Block)
      continue;
    for (int64_t n : {int64_t(k.threads), int64_t(k.threads) * 3 + k.threads / 2 + 1}) {
      const Values in(k.op, n, kSeed + uint64_t(n));
      const int64_t blocks = (n + k.threads - 1) / k.threads;
      std::vector<unsigned char> excl, excl3;
      run(k, launchOf(k, unsigned(blocks)), in, n, size_t(n + 2 * blocks), excl, excl3);
      std::vector<long double> x3(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        x3[size_t(i)] = combine(k.op, combine(k.op, in.host[size_t(i)], in.host[size_t(i)]), in.host[size_t(i)]);
      std::vector<long double> want(static_cast<size_t>(n)), want3(static_cast<size_t>(n));
      for (int64_t b = 0; b < blocks; ++b) {
        const int64_t begin = b * k.threads, end = std::min(n, begin + k.threads);
        referenceScan(k.op, in.host, begin, end, k.reverse, true, want);
        referenceScan(k.op, x3, begin, end, k.reverse, true, want3);
        long double total = identity(k.op), total3 = identity(k.op);
        for (int64_t i = begin; i < end; ++i) {
          total = combine(k.op, total, in.host[size_t(i)]);
          total3 = combine(k.op, total3, x3[size_t(i)]);
        }
        ASSERT_TRUE(close(k.op, element(k.op, excl3, n + 2 * b), total)) << describe(k, n) << " total " << b;
        ASSERT_TRUE(close(k.op, element(k.op, excl3, n + 2 * b + 1), total3)) << describe(k, n) << " total3 " << b;
      }
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_TRUE(close(k.op, element(k.op, excl, i), want[size_t(i)])) << describe(k, n) << " first scan " << i;
        ASSERT_TRUE(close(k.op, element(k.op, excl3, i), want3[size_t(i)])) << describe(k, n) << " second scan " << i;
      }
    }
  }
}

TEST(Ladder, TileAgentChainsTilesWithARunningPrefix) {
  SCANJIT_REQUIRE_GPU();
  const int64_t rows = 3;
  for (const LadderKernel &k : ladderKernels()) {
    if (k.rung != Rung::Tile)
      continue;
    const int64_t tile = int64_t(k.threads) * k.items;
    for (int64_t n : {int64_t(1), tile - 1, tile, 3 * tile + 17, int64_t(5003)}) {
      const Values in(k.op, rows * n, kSeed + uint64_t(n));
      std::vector<unsigned char> out, unused;
      run(k, launchOf(k, unsigned(rows)), in, n, 0, out, unused);
      std::vector<long double> want(size_t(rows * n));
      const int64_t segment = k.segment > 0 ? k.segment : n;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t s = 0; s < n; s += segment)
          referenceScan(k.op, in.host, r * n + s, r * n + std::min(n, s + segment), k.reverse, k.exclusive, want);
      for (int64_t i = 0; i < rows * n; ++i)
        ASSERT_TRUE(close(k.op, element(k.op, out, i), want[size_t(i)])) << describe(k, n) << " element " << i;
    }
  }
}

// The span copy that warp rows load by (copy_span_by_words): spans
// starting at every place in a 16-byte word (0-15 elements in), of 1 to the
// kernel's most elements, each ending at the allocation's last element (a
// read past it is the sanitizer's to see), copied through shared memory
// and back bit for bit; the output past each span stays poisoned.
TEST(Ladder, SpanCopiedByWordsFromEveryPlaceInAWord) {
  SCANJIT_REQUIRE_GPU();
  for (const LadderKernel &k : ladderKernels()) {
    if (k.rung != Rung::Span)
      continue;
    const size_t eb = size_t(k.spanBytes);
    for (int64_t n : {int64_t(1), int64_t(7), int64_t(17), int64_t(100), int64_t(k.spanMost)}) {
      const int64_t blocks = std::min<int64_t>(16, n); // (block b's span starts b elements in)
      std::mt19937_64 rng(kSeed + uint64_t(n));
      std::vector<unsigned char> in(size_t(n) * eb), out(size_t(blocks * n) * eb);
      for (unsigned char &byte : in)
        byte = (unsigned char)rng();
      DeviceBuffer din(in.size()), dout(out.size());
      din.upload(in.data(), in.size());
      dout.fill(0xa5);
      CUdeviceptr pin = din.get(), pout = dout.get(), unused = 0;
      long long count = n;
      void *params[] = {&pin, &pout, &unused, &count};
      const Launch l = launchOf(k, unsigned(blocks));
      checkCu(driver()->cuLaunchKernel(l.fn, l.grid, 1, 1, l.block, 1, 1, 0, nullptr, params, nullptr),
              "cuLaunchKernel (ladder span)");
      checkCu(driver()->cuCtxSynchronize(), "cuCtxSynchronize (ladder span)");
      dout.download(out.data(), out.size());
      for (int64_t b = 0; b < blocks; ++b)
        for (int64_t e = 0; e < n; ++e) {
          const unsigned char *got = &out[size_t(b * n + e) * eb];
          if (e < n - b)
            ASSERT_EQ(std::memcmp(got, &in[size_t(b + e) * eb], eb), 0) << describe(k, n) << " span " << b << " element " << e;
          else
            ASSERT_TRUE(got[0] == 0xa5 && got[eb - 1] == 0xa5) << describe(k, n) << " span " << b << " wrote past its end at " << e;
        }
    }
  }
}

} // namespace
