#include "testing/Reference.h"
#include "testing/HostElements.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scanjit::detail {
namespace {

// Integer results go through the output type like the kernel's store does.
int64_t toOutputInt(int64_t v, DType out) {
  char buf[8];
  storeInt(buf, out, 0, v);
  return loadAsInt(buf, out, 0);
}

int64_t intIdentity(ScanOp op, DType in) {
  switch (op) {
  case ScanOp::Sum: return 0;
  case ScanOp::Prod: return 1;
  case ScanOp::Max:
    switch (in) {
    case DType::U8: case DType::Bool: return 0;
    case DType::I8: return INT8_MIN;
    case DType::I16: return INT16_MIN;
    case DType::I32: return INT32_MIN;
    default: return INT64_MIN;
    }
  case ScanOp::Min:
    switch (in) {
    case DType::U8: return UINT8_MAX;
    case DType::Bool: return 1;
    case DType::I8: return INT8_MAX;
    case DType::I16: return INT16_MAX;
    case DType::I32: return INT32_MAX;
    default: return INT64_MAX;
    }
  case ScanOp::LogSumExp: break;
  }
  return 0;
}

int64_t intCombine(ScanOp op, int64_t a, int64_t b) {
  switch (op) {
  case ScanOp::Sum: return int64_t(uint64_t(a) + uint64_t(b));
  case ScanOp::Prod: return int64_t(uint64_t(a) * uint64_t(b));
  case ScanOp::Max: return std::max(a, b);
  case ScanOp::Min: return std::min(a, b);
  case ScanOp::LogSumExp: break;
  }
  return 0;
}

double floatIdentity(ScanOp op) {
  switch (op) {
  case ScanOp::Sum: return 0;
  case ScanOp::Prod: return 1;
  case ScanOp::Max: case ScanOp::LogSumExp: return -INFINITY;
  case ScanOp::Min: return INFINITY;
  }
  return 0;
}

double logAddExp(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  double hi = std::max(a, b), lo = std::min(a, b);
  if (lo == -INFINITY || hi == INFINITY)
    return hi;
  return hi + std::log1p(std::exp(lo - hi));
}

double floatCombine(ScanOp op, double a, double b) {
  switch (op) {
  case ScanOp::Sum: return a + b;
  case ScanOp::Prod: return a * b;
  case ScanOp::Max: return std::isnan(a) ? a : std::isnan(b) ? b : std::max(a, b);
  case ScanOp::Min: return std::isnan(a) ? a : std::isnan(b) ? b : std::min(a, b);
  case ScanOp::LogSumExp: return logAddExp(a, b);
  }
  return 0;
}

} // namespace

int64_t numLines(const ScanSpec &spec) {
  int64_t n = 1;
  for (int d = 0; d < spec.rank(); ++d)
    if (d != spec.dim)
      n *= spec.shape[d];
  return n;
}

LineOffsets lineOffsets(const ScanSpec &spec, int64_t line) {
  LineOffsets o;
  for (int d = spec.rank() - 1; d >= 0; --d) {
    if (d == spec.dim)
      continue;
    int64_t i = line % spec.shape[d];
    line /= spec.shape[d];
    o.in += i * spec.inStrides[d];
    o.out += i * spec.outStrides[d];
    if (spec.mask)
      o.mask += i * spec.maskStrides[d];
  }
  return o;
}

std::vector<ReferenceValue> referenceLine(const ScanSpec &spec, const void *in, const uint8_t *mask,
                                          int64_t line) {
  const int64_t L = spec.scanLength();
  const bool rank0 = spec.rank() == 0;
  const int64_t sIn = rank0 ? 0 : spec.inStrides[spec.dim];
  const int64_t sMask = rank0 || !spec.mask ? 0 : spec.maskStrides[spec.dim];
  const LineOffsets o = lineOffsets(spec, line);
  const bool integral = isIntegral(spec.in);
  std::vector<ReferenceValue> result(L);

  int64_t intRun = intIdentity(spec.op, spec.in);
  double floatRun = floatIdentity(spec.op);
  double absSum = 0, maxAbs = 0;
  int64_t steps = 0;
  int64_t index = -1; // torch.cummax's rule, as IndexedMonoid's (templates/scanjit/indexed_scan.cuh)
  for (int64_t k = 0; k < L; ++k) {
    const int64_t i = spec.reverse ? L - 1 - k : k;
    ReferenceValue &r = result[i];
    auto record = [&] {
      r.steps = steps;
      r.index = spec.indices ? index : -1;
      if (integral) {
        r.exact = toOutputInt(intRun, spec.out);
        r.value = double(intRun);
      } else {
        r.value = floatRun;
      }
      r.scale = spec.op == ScanOp::Sum ? absSum
                : spec.op == ScanOp::Prod ? std::fabs(floatRun)
                                          : 1 + maxAbs + std::fabs(floatRun);
    };
    if (spec.exclusive)
      record();
    const bool keep = !spec.mask || mask[o.mask + i * sMask] != 0;
    if (keep) {
      ++steps;
      if (integral) {
        const int64_t x = loadAsInt(in, spec.in, o.in + i * sIn);
        if (index < 0 || (spec.op == ScanOp::Max ? x >= intRun : x <= intRun))
          index = i;
        intRun = intCombine(spec.op, intRun, x);
      } else {
        double x = loadAsDouble(in, spec.in, o.in + i * sIn);
        // A later element takes the index when it is NaN, or when the
        // running value is not NaN and the element ties or beats it.
        if (index < 0 || std::isnan(x) ||
            (!std::isnan(floatRun) && (spec.op == ScanOp::Max ? x >= floatRun : x <= floatRun)))
          index = i;
        floatRun = floatCombine(spec.op, floatRun, x);
        if (std::isfinite(x)) {
          absSum += std::fabs(x);
          maxAbs = std::max(maxAbs, std::fabs(x));
        }
      }
    }
    if (!spec.exclusive)
      record();
  }
  return result;
}

} // namespace scanjit::detail
