// The double exp and log of the log-sum-exp kernels (lse_math.cuh: their
// own series, without exp()'s and log()'s special cases) against long
// double, in ulps of the double result, over their whole domains: exps of
// [-708, 0], logs of positive normal numbers. The suite's tolerances (tens
// of ulps of a line's scale) would not see a function a few ulps off.
#include "GpuHarness.h"

#include "compiler/Nvrtc.h"
#include "runtime/Context.h"
#include "runtime/Errors.h"
#include "testing/DeviceMemory.h"

#include <cmath>
#include <random>
#include <vector>

using namespace scanjit;
using namespace scanjit::detail;

namespace {

const char *kSource = R"(
#include "scanjit/lse_math.cuh"
extern "C" __global__ void lse_math_f64(const double *below, const double *positive, double *exps, double *logs,
                                        long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    exps[i] = scanjit::exp_nonpositive(below[i]);
    logs[i] = scanjit::plus_log_positive(0.0, positive[i]);
  }
}
)";

// |got - want| in ulps of want rounded to double.
double ulpsOff(double got, long double want) {
  const double w = double(want);
  const double ulp = std::nextafter(std::fabs(w), INFINITY) - std::fabs(w);
  return double(std::fabs((long double)got - want) / (long double)ulp);
}

TEST(LseMath, DoubleExpAndLogWithinTwoUlps) {
  SCANJIT_REQUIRE_GPU();
  const uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  auto unit = [&] { return double(rng() >> 11) * 0x1p-53; };
  const int64_t n = 1 << 20;
  std::vector<double> below(n), positive(n);
  // Exps: the whole range, near 0 (down to 2^-60), near multiples of
  // ln2 / 2 (where n changes), integers (-708 included). Logs: every
  // exponent, near 1, near sqrt(2) (where e changes), powers of two.
  for (int64_t i = 0; i < n; ++i) {
    const int kind = int(i % 4);
    const double u = unit();
    below[i] = kind == 0   ? -708.0 * u
               : kind == 1 ? -std::ldexp(u, -int(rng() % 60))
               : kind == 2 ? -std::fabs(0.34657359027997264 * double(rng() % 2000) + (u - 0.5) * 1e-12)
                           : -double(rng() % 709);
    const double v = unit();
    positive[i] = kind == 0   ? std::ldexp(1.0 + v, int(rng() % 1055) - 1022)
                  : kind == 1 ? 1.0 + (v - 0.5) * std::ldexp(1.0, -int(rng() % 52))
                  : kind == 2 ? std::ldexp(1.4142135623730951 * (1.0 + (v - 0.5) * 1e-14), int(rng() % 64) - 32)
                              : std::ldexp(1.0, int(rng() % 1055) - 1022);
  }
  below[0] = 0.0;
  below[4] = -708.0;
  positive[0] = 1.0;
  positive[4] = 0x1p-1022;

  const ContextInfo ctx = unwrap(currentContext());
  const Target target = unwrap(parseTarget("sm_" + std::to_string(ctx.sm)));
  CompiledKernel compiled = unwrap(compileWithNvrtc(kSource, "lse_math_f64", target, "lse math"));
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  checkCu(driver()->cuModuleLoadData(&module, compiled.cubin.data()), "cuModuleLoadData (lse math)");
  checkCu(driver()->cuModuleGetFunction(&fn, module, "lse_math_f64"), "cuModuleGetFunction (lse math)");
  const size_t bytes = size_t(n) * 8;
  DeviceBuffer dbelow(bytes), dpositive(bytes), dexps(bytes), dlogs(bytes);
  dbelow.upload(below.data(), bytes);
  dpositive.upload(positive.data(), bytes);
  dexps.fill(0xff);
  dlogs.fill(0xff);
  CUdeviceptr pb = dbelow.get(), pp = dpositive.get(), pe = dexps.get(), pl = dlogs.get();
  long long count = n;
  void *params[] = {&pb, &pp, &pe, &pl, &count};
  checkCu(driver()->cuLaunchKernel(fn, unsigned(n / 256), 1, 1, 256, 1, 1, 0, nullptr, params, nullptr),
          "cuLaunchKernel (lse math)");
  checkCu(driver()->cuCtxSynchronize(), "cuCtxSynchronize (lse math)");
  std::vector<double> exps(n), logs(n);
  dexps.download(exps.data(), bytes);
  dlogs.download(logs.data(), bytes);
  checkCu(driver()->cuModuleUnload(module), "cuModuleUnload (lse math)");

  double worstExp = 0, worstLog = 0;
  int64_t worstExpAt = 0, worstLogAt = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double e = ulpsOff(exps[i], std::exp((long double)below[i]));
    const double l = ulpsOff(logs[i], std::log((long double)positive[i]));
    if (!(e <= worstExp)) {
      worstExp = e;
      worstExpAt = i;
    }
    if (!(l <= worstLog)) {
      worstLog = l;
      worstLogAt = i;
    }
  }
  std::printf("  exp_nonpositive: worst %.3f ulp (x = %.17g); plus_log_positive: worst %.3f ulp (x = %.17g)\n",
              worstExp, below[worstExpAt], worstLog, positive[worstLogAt]);
  EXPECT_LE(worstExp, 2.0) << "exp(" << below[worstExpAt] << ") = " << exps[worstExpAt] << ", seed " << seed;
  EXPECT_LE(worstLog, 2.0) << "log(" << positive[worstLogAt] << ") = " << logs[worstLogAt] << ", seed " << seed;
}

} // namespace
