#include "testing/RandomData.h"
#include "testing/HostElements.h"
#include "testing/OnAllCores.h"

#include <cmath>
#include <vector>

namespace scanjit::detail {
namespace {

// splitmix64: fast, stateless per element, good enough for test data.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Significant bits a value may carry and stay exact in `t`.
int mantissaBits(DType t) {
  switch (t) {
  case DType::F16: return 10;
  case DType::BF16: return 7;
  case DType::F32: return 23;
  default: return 52;
  }
}

// A value in [lo, hi) on a grid of 2^-bits * (hi - lo), exact in the dtype
// when hi - lo is a power of two no larger than 2 * max(|lo|, |hi|).
double gridValue(uint64_t h, double lo, double hi, int bits) {
  double u = double(h >> (64 - bits)) * std::ldexp(1.0, -bits);
  return lo + (hi - lo) * u;
}

} // namespace

int randomValueKind(DType dtype, ScanOp op) {
  if (isFloating(dtype))
    return op == ScanOp::Prod ? 1 : op == ScanOp::LogSumExp ? 2 : 0;
  return op == ScanOp::Prod && (dtype == DType::I32 || dtype == DType::I64) ? 1 : 0;
}

void fillRandom(void *data, DType dtype, ScanOp op, int64_t count, const RandomOptions &o) {
  const uint64_t seed = mix(o.seed);
  const int kind = randomValueKind(dtype, op);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t h = mix(seed ^ uint64_t(o.firstIndex + i) * 0xd1342543de82ef95ULL);
    if (isFloating(dtype)) {
      double v;
      const int64_t run = o.negativeInfinityRuns > 0 ? (o.firstIndex + i) / o.negativeInfinityRuns : 0;
      if (o.negativeInfinityRuns > 0 && (mix(seed ^ uint64_t(run) * 0x9e3779b97f4a7c15ULL) & 3) == 0) {
        v = -INFINITY; // (log-sum-exp's identity: whole threads' items of it)
      } else if (o.specialFraction > 0 && double(h & 0xffff) < o.specialFraction * 65536.0) {
        const double specials[] = {NAN, INFINITY, -INFINITY};
        v = specials[(h >> 16) % 3];
      } else if (kind == 1) {
        v = gridValue(h, 0.75, 1.25, mantissaBits(dtype) - 1); // stays near 1
      } else if (kind == 2) {
        v = gridValue(h, -o.logSumExpSpread, o.logSumExpSpread, mantissaBits(dtype) - 2);
      } else {
        v = gridValue(h, -1, 1, mantissaBits(dtype));
      }
      storeDouble(data, dtype, i, v);
      continue;
    }
    int64_t v;
    switch (dtype) {
    case DType::Bool: v = h & 1; break;
    case DType::U8: v = h & 0xff; break;
    case DType::I8: v = int8_t(h); break;
    case DType::I16: v = int16_t(h); break;
    case DType::I32: v = kind == 1 ? int64_t(h % 7) - 3 : int32_t(h); break;
    default: v = kind == 1 ? int64_t(h % 7) - 3 : int64_t(h); break; // sums wrap
    }
    storeInt(data, dtype, i, v);
  }
}

void fillRandomMask(uint8_t *mask, int64_t count, uint64_t seed, int64_t firstIndex) {
  const uint64_t s = mix(seed ^ 0x6d61736bULL);
  for (int64_t i = 0; i < count; ++i)
    mask[i] = mix(s ^ uint64_t(firstIndex + i) * 0xd1342543de82ef95ULL) >> 63;
}

void fillRandomParallel(void *data, DType dtype, ScanOp op, int64_t count, const RandomOptions &o) {
  const int size = dtypeSize(dtype);
  inSlices(count, slicesFor(count), [&](int64_t, int64_t first, int64_t n) {
    RandomOptions slice = o;
    slice.firstIndex = o.firstIndex + first;
    fillRandom(static_cast<char *>(data) + first * size, dtype, op, n, slice);
  });
}

void fillRandomMaskParallel(uint8_t *mask, int64_t count, uint64_t seed) {
  inSlices(count, slicesFor(count),
           [&](int64_t, int64_t first, int64_t n) { fillRandomMask(mask + first, n, seed, first); });
}

} // namespace scanjit::detail
