// Random test inputs on the host: values exactly representable in their
// dtype, drawn per op so results stay in range (sums of [-1,1], products of
// values near 1, logsumexp of [-4,4]); optional NaN/Inf sprinkles.
#pragma once

#include "compiler/ScanSpec.h"

#include <cstdint>

namespace scanjit::detail {

struct RandomOptions {
  uint64_t seed = 1;
  double specialFraction = 0; // share of NaN / +Inf / -Inf (floating only)
  int64_t firstIndex = 0;      // element i gets the value of index firstIndex + i (for splitting work)
  double logSumExpSpread = 4;  // logsumexp inputs lie in [-spread, spread] (a power of two)
  int64_t negativeInfinityRuns = 0; // > 0: about a quarter of the runs of this many elements are -Inf (floating only)
};

/// The kind of values inputs of `op` in `dtype` are drawn as: 0 in [-1, 1)
/// (integers: any bits), 1 near 1 for products (integers: -3..3), 2 in
/// [-spread, spread) for log-sum-exp. The GPU's generator draws the same.
int randomValueKind(DType dtype, ScanOp op);

/// Fills `count` elements of `dtype` at `data` for inputs of `op`.
void fillRandom(void *data, DType dtype, ScanOp op, int64_t count, const RandomOptions &options);

/// Fills `count` mask bytes with 0/1 (about half set); byte i gets the
/// value of index firstIndex + i.
void fillRandomMask(uint8_t *mask, int64_t count, uint64_t seed, int64_t firstIndex = 0);

/// fillRandom / fillRandomMask split over all cores (same values).
void fillRandomParallel(void *data, DType dtype, ScanOp op, int64_t count, const RandomOptions &options);
void fillRandomMaskParallel(uint8_t *mask, int64_t count, uint64_t seed);

} // namespace scanjit::detail
