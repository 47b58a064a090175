#include "testing/Verify.h"
#include "testing/HostElements.h"
#include "testing/OnAllCores.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace scanjit::detail {
namespace {

double unitRoundoff(DType t) {
  switch (t) {
  case DType::F16: return std::ldexp(1.0, -11);
  case DType::BF16: return std::ldexp(1.0, -8);
  case DType::F32: return std::ldexp(1.0, -24);
  case DType::F64: return std::ldexp(1.0, -53);
  default: return 0;
  }
}

double smallestSubnormal(DType t) {
  switch (t) {
  case DType::F16: return std::ldexp(1.0, -24);
  case DType::BF16: return std::ldexp(1.0, -133);
  case DType::F32: return std::ldexp(1.0, -149);
  case DType::F64: return std::ldexp(1.0, -1074);
  default: return 0;
  }
}

double smallestNormal(DType acc) { return acc == DType::F64 ? 0x1p-1022 : 0x1p-126; }

// The smallest magnitude that rounds to infinity in a floating type: its
// largest finite value plus half an ulp of it.
double overflowThreshold(DType t) {
  switch (t) {
  case DType::F16: return (2.0 - std::ldexp(1.0, -11)) * std::ldexp(1.0, 15);
  case DType::BF16: return (2.0 - std::ldexp(1.0, -8)) * std::ldexp(1.0, 127);
  case DType::F32: return (2.0 - std::ldexp(1.0, -24)) * std::ldexp(1.0, 127);
  default: return INFINITY; // (a finite double reference never rounds to infinity as a double)
  }
}

// A finite reference within `tol` of the output type's overflow threshold
// may round to that infinity: a product of f16 near 1 over 3000 steps came
// to 7.84e4, which f16 holds only as +inf.
bool overflowsTo(double got, double want, double tol, DType out) {
  return std::isinf(got) && std::isfinite(want) && std::signbit(got) == std::signbit(want) &&
         std::fabs(want) + tol >= overflowThreshold(out);
}

bool sameFloat(double got, double want) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got))
    return got == want;
  return false; // finite: compare with a tolerance
}

} // namespace

double tolerance(const ScanSpec &spec, const ReferenceValue &ref) {
  const double outRounding =
      unitRoundoff(spec.out) * std::fabs(ref.value) + smallestSubnormal(spec.out);
  if (isIntegral(spec.in))
    return isFloating(spec.out) ? outRounding : 0;
  const DType acc = accumulatorType(spec);
  const double u = unitRoundoff(acc);
  const double depth = 64.0 + double(spec.scanLength()) / 128.0;
  switch (spec.op) {
  case ScanOp::Max:
  case ScanOp::Min:
    return isFloating(spec.out) && unitRoundoff(spec.out) > unitRoundoff(spec.in) ? outRounding : 0;
  case ScanOp::Sum:
    return depth * u * ref.scale + outRounding;
  case ScanOp::Prod:
    return double(ref.steps + 1) * u * ref.scale + depth * smallestNormal(acc) + outRounding;
  case ScanOp::LogSumExp:
    return depth * u * ref.scale + outRounding;
  }
  return 0;
}

namespace {

VerifyReport verifyLinesOnOneCore(const ScanSpec &spec, const void *in, const uint8_t *mask, const void *out,
                                  llvm::ArrayRef<int64_t> lines) {
  VerifyReport report;
  const int64_t sOut = spec.rank() == 0 ? 0 : spec.outStrides[spec.dim];
  const bool intOut = isIntegral(spec.out);
  for (int64_t line : lines) {
    std::vector<ReferenceValue> ref = referenceLine(spec, in, mask, line);
    const int64_t base = lineOffsets(spec, line).out;
    for (int64_t i = 0; i < int64_t(ref.size()); ++i) {
      ++report.checked;
      const int64_t at = base + i * sOut;
      bool good;
      double tol = 0;
      if (intOut) {
        good = loadAsInt(out, spec.out, at) == ref[i].exact;
      } else {
        double g = loadAsDouble(out, spec.out, at), w = ref[i].value;
        tol = tolerance(spec, ref[i]);
        if (std::isfinite(g) && std::isfinite(w)) {
          double err = std::fabs(g - w);
          good = err <= tol;
          report.maxError = std::max(report.maxError, err);
          if (tol > 0)
            report.maxErrorRatio = std::max(report.maxErrorRatio, err / tol);
          else if (err > 0)
            report.maxErrorRatio = INFINITY;
        } else {
          good = sameFloat(g, w) || overflowsTo(g, w, tol, spec.out);
        }
      }
      // Text only for the first mismatch: formatting every element made a
      // check of a 1G-element line take half an hour.
      if (!good && report.mismatches++ == 0) {
        std::string got, want;
        if (intOut) {
          got = std::to_string(loadAsInt(out, spec.out, at));
          want = std::to_string(ref[i].exact);
        } else {
          got = llvm::formatv("{0:e9}", loadAsDouble(out, spec.out, at)).str();
          want = llvm::formatv("{0:e9}", ref[i].value).str();
        }
        report.firstMismatch = llvm::formatv("line {0} position {1}: got {2}, expected {3} "
                                             "(tolerance {4:e3})",
                                             line, i, got, want, tol);
      }
    }
  }
  return report;
}

} // namespace

// Slices of the lines on all cores, their reports merged in line order (the
// first mismatch reported is the first line's). One core took 2.2 s for sum
// f16[5003,4097] dim=0 mask and 5.3 s for logsumexp f32[8,4194304] dim=1,
// a case the GPU tests check at several placements.
VerifyReport verifyLines(const ScanSpec &spec, const void *in, const uint8_t *mask, const void *out,
                         llvm::ArrayRef<int64_t> lines) {
  const int64_t count = int64_t(lines.size());
  std::vector<VerifyReport> parts(size_t(slicesFor(count * spec.scanLength())));
  inSlices(count, int64_t(parts.size()), [&](int64_t k, int64_t first, int64_t n) {
    parts[size_t(k)] = verifyLinesOnOneCore(spec, in, mask, out, lines.slice(size_t(first), size_t(n)));
  });
  VerifyReport report;
  for (const VerifyReport &part : parts) {
    if (report.firstMismatch.empty())
      report.firstMismatch = part.firstMismatch;
    report.checked += part.checked;
    report.mismatches += part.mismatches;
    report.maxError = std::max(report.maxError, part.maxError);
    report.maxErrorRatio = std::max(report.maxErrorRatio, part.maxErrorRatio);
  }
  return report;
}

std::vector<bool> outputElementMap(const ScanSpec &spec, size_t bufferBytes, int64_t offset) {
  const int64_t numel = spec.numel();
  const int64_t extent = int64_t(bufferBytes / dtypeSize(spec.out)) - offset;
  if (numel == 0 || extent <= numel || numel > kGapWalkElements)
    return {};
  std::vector<bool> element(size_t(extent), false);
  const int64_t step = spec.rank() == 0 ? 0 : spec.outStrides[spec.dim];
  for (int64_t line = 0, lines = numLines(spec); line < lines; ++line) {
    const int64_t base = lineOffsets(spec, line).out;
    for (int64_t i = 0; i < spec.scanLength(); ++i)
      element[size_t(base + i * step)] = true;
  }
  return element;
}

int64_t firstStrayOutputByte(const ScanSpec &spec, llvm::ArrayRef<uint8_t> buffer, int64_t offset, uint8_t poison,
                             const std::vector<bool> &elements) {
  const size_t elemSize = dtypeSize(spec.out), before = size_t(offset) * elemSize;
  for (size_t b = 0; b < before && b < buffer.size(); ++b)
    if (buffer[b] != poison)
      return int64_t(b);
  for (size_t e = 0; e < elements.size(); ++e) {
    const size_t at = before + e * elemSize;
    for (size_t b = 0; !elements[e] && b < elemSize; ++b)
      if (buffer[at + b] != poison)
        return int64_t(at + b);
  }
  return -1;
}

int64_t firstStrayOutputByte(const ScanSpec &spec, llvm::ArrayRef<uint8_t> buffer, int64_t offset, uint8_t poison) {
  return firstStrayOutputByte(spec, buffer, offset, poison, outputElementMap(spec, buffer.size(), offset));
}

} // namespace scanjit::detail
