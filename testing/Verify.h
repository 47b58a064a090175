// Comparing a kernel's output with the CPU reference, with error bounds
// derived from how the kernels associate their operations (not tuned):
//
// - Integer outputs: exact. The kernel accumulates in wrapping int64 like the
//   reference, then converts to the output type the same way.
// - max/min: exact, up to the rounding of the output type when it is
//   narrower than the input.
// - Floating sum: every result is a sum of its inputs along a tree of at most
//   D = 64 + L/128 roundings deep (per-thread serial items, 5 warp + 5 block
//   shuffle levels, one carry per tile, tiles of >= 128 elements). The
//   classic bound |err| <= D * u * sum|x| applies, with u the unit roundoff
//   of the accumulator (2^-24 for f32/f16/bf16, 2^-53 for f64).
// - Floating prod: n factors take n-1 roundings: |err| <= (n+1) * u * |ref|,
//   plus D * the accumulator's smallest normal for results near underflow.
// - logsumexp: each combine rounds by about u * (|hi| + 1): |err| <= D * u *
//   (1 + max|x| + |ref|).
// - Every floating result also gets half an ulp of the output type
//   (2^-11 f16, 2^-8 bf16, 2^-24 f32, 2^-53 f64) times |ref|, plus the output
//   type's smallest subnormal. NaN must meet NaN; infinities must be equal.
#pragma once

#include "testing/Reference.h"

#include <string>
#include <vector>

namespace scanjit::detail {

struct VerifyReport {
  int64_t checked = 0;
  int64_t mismatches = 0;
  double maxError = 0;      // largest |out - ref| seen (finite pairs)
  double maxErrorRatio = 0; // largest |out - ref| / tolerance (<= 1 passes)
  std::string firstMismatch; // "line 3 position 17: got ... expected ... (tolerance ...)"
  bool ok() const { return mismatches == 0; }
};

/// Checks `lines` of a host copy of the output (element 0 at `out`) against
/// the reference computed from host copies of the input and mask.
VerifyReport verifyLines(const ScanSpec &spec, const void *in, const uint8_t *mask, const void *out,
                         llvm::ArrayRef<int64_t> lines);

/// The tolerance for one reference value (see above).
double tolerance(const ScanSpec &spec, const ReferenceValue &ref);

/// The first byte of an output buffer, filled with `poison` before the
/// kernel ran and holding the tensor from element `offset` on, that lies
/// outside the tensor (the elements before it, gaps between strided
/// elements) and no longer holds `poison`; -1 if none. A kernel writes its
/// elements and nothing else, however right they are. Gaps are walked up to
/// kGapWalkElements elements (serially); a contiguous tensor has none.
constexpr int64_t kGapWalkElements = int64_t(1) << 26;
int64_t firstStrayOutputByte(const ScanSpec &spec, llvm::ArrayRef<uint8_t> buffer, int64_t offset, uint8_t poison);

/// Which elements of an output buffer of `bufferBytes` bytes, counted from
/// the tensor's first (element `offset`), belong to the tensor: built once,
/// so that firstStrayOutputByte checks the buffer after each of several runs
/// without walking the tensor again. Empty where there are no gaps to walk.
std::vector<bool> outputElementMap(const ScanSpec &spec, size_t bufferBytes, int64_t offset);
int64_t firstStrayOutputByte(const ScanSpec &spec, llvm::ArrayRef<uint8_t> buffer, int64_t offset, uint8_t poison,
                             const std::vector<bool> &elements);

} // namespace scanjit::detail
