// The CPU reference: every op, flag and dtype, accumulating in float64 (for
// floating inputs) or wrapping int64 (integers and bool). It walks the spec's
// own shape and strides, independent of the planner's normalization.
#pragma once

#include "compiler/ScanSpec.h"

#include <vector>

namespace scanjit::detail {

/// One output element of the reference.
struct ReferenceValue {
  double value = 0;    // the result as a double (floating outputs)
  int64_t exact = 0;   // the result converted to the output type (integer outputs)
  double scale = 0;    // magnitude the rounding error of a float scan is bounded by (see Verify.h)
  int64_t steps = 0;   // elements combined into this result
  int64_t index = -1;  // max/min with indices: the element (its place along dim) the result came from
};

/// Element offsets (in, out, mask) of the first element of line `line`; lines
/// enumerate the non-scanned dims in row-major order.
struct LineOffsets {
  int64_t in = 0, out = 0, mask = 0;
};
int64_t numLines(const ScanSpec &spec);
LineOffsets lineOffsets(const ScanSpec &spec, int64_t line);

/// The reference scan of one line. `in` and `mask` point at element 0 of
/// host copies laid out as the spec says. Returns scanLength() values in
/// position order.
std::vector<ReferenceValue> referenceLine(const ScanSpec &spec, const void *in, const uint8_t *mask,
                                          int64_t line);

} // namespace scanjit::detail
