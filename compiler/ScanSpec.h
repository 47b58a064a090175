// ScanSpec: the exact problem a kernel is generated for. Its canonical text
// form (see docs/specs.md) doubles as the human-readable part of the cache key.
//
//   <op> <dtype>[<d0>,...] dim=<d> [strides=[..]] [out=<dtype>] [out_strides=[..]]
//        [mask] [mask_strides=[..]] [reverse] [exclusive]
#pragma once

#include "compiler/DType.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace scanjit {

inline constexpr ScanOp kAllOps[] = {ScanOp::Sum, ScanOp::Prod, ScanOp::Max, ScanOp::Min,
                                     ScanOp::LogSumExp};

llvm::StringRef opName(ScanOp op); // "sum", "prod", "max", "min", "logsumexp"
llvm::Optional<ScanOp> parseOp(llvm::StringRef name);

/// torch's default output type: sum/prod of integers or bool give i64,
/// max/min keep the input type, floats keep their type.
DType defaultOutputType(ScanOp op, DType in);

/// The type a scan of `op` over `in` accumulates in: accumulatorType(in),
/// except that max and min of integers narrower than 8 bytes (and bool)
/// keep i32: every value fits, the identity is the input's range either
/// way, and half the registers let a thread hold 16 of them (max u8 rows:
/// 2.9x -> 1.4x copy, BENCHMARKS.md); and that sums and products of
/// integers of at most 4 bytes into integers of at most 4 bytes (not bool)
/// take i32: both wrap, so the low 32 bits, all the output keeps, are the
/// same as i64's, and a tile of 4-byte accumulators holds twice the items
/// (H200, x copy: u8[8388608,4] dim=0 out=u8 5.90 -> 1.60, i32[16777216]
/// out=i32 1.47 -> 1.23; i64 inputs keep i64: 1.23 -> 1.50; BENCHMARKS.md).
DType accumulatorType(ScanOp op, DType in, DType out);

using Dims = llvm::SmallVector<int64_t, kMaxRank>;

struct ScanSpec {
  ScanOp op = ScanOp::Sum;
  DType in = DType::F32;
  DType out = DType::F32;
  Dims shape;
  int dim = 0;          // normalized to [0, rank) (0 for rank 0)
  Dims inStrides;       // element strides; always rank entries once validated
  Dims outStrides;
  Dims maskStrides;     // empty unless `mask`
  bool mask = false;
  bool reverse = false;
  bool exclusive = false;
  bool indices = false; // max/min: also each result's int64 index along dim (torch.cummax's)

  int rank() const { return static_cast<int>(shape.size()); }
  int64_t numel() const;
  /// Length of the scanned dimension (1 for rank 0).
  int64_t scanLength() const { return shape.empty() ? 1 : shape[dim]; }

  /// Canonical one-line text; parseSpec(toString()) gives back this spec.
  std::string toString() const;

  friend bool operator==(const ScanSpec &a, const ScanSpec &b);
  friend bool operator!=(const ScanSpec &a, const ScanSpec &b) { return !(a == b); }
};

/// accumulatorType of the spec's op, input and output.
inline DType accumulatorType(const ScanSpec &spec) { return accumulatorType(spec.op, spec.in, spec.out); }

/// A dims list as the spec syntax writes it: "[4,1,8]".
std::string listText(llvm::ArrayRef<int64_t> values);

/// Row-major strides of `shape` in elements.
Dims contiguousStrides(llvm::ArrayRef<int64_t> shape);

/// Parses and validates spec text. A malformed spec gives one line naming the
/// wrong token and why.
llvm::Expected<ScanSpec> parseSpec(llvm::StringRef text);

/// Checks a spec built in code (the parser calls it too): fills default
/// strides (when empty), normalizes a negative dim, and rejects anything a
/// kernel cannot honour, naming the offending field.
llvm::Error validateSpec(ScanSpec &spec);

} // namespace scanjit
