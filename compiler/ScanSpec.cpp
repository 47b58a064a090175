#include "compiler/ScanSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace scanjit {

llvm::StringRef opName(ScanOp op) {
  switch (op) {
  case ScanOp::Sum: return "sum";
  case ScanOp::Prod: return "prod";
  case ScanOp::Max: return "max";
  case ScanOp::Min: return "min";
  case ScanOp::LogSumExp: return "logsumexp";
  }
  return "?";
}

llvm::Optional<ScanOp> parseOp(llvm::StringRef name) {
  for (ScanOp op : kAllOps)
    if (opName(op) == name)
      return op;
  return llvm::None;
}

DType defaultOutputType(ScanOp op, DType in) {
  if ((op == ScanOp::Sum || op == ScanOp::Prod) && isIntegral(in))
    return DType::I64;
  return in;
}

Dims contiguousStrides(llvm::ArrayRef<int64_t> shape) {
  Dims strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * std::max<int64_t>(shape[i + 1], 1);
  return strides;
}

DType accumulatorType(ScanOp op, DType in, DType out) {
  const bool order = op == ScanOp::Max || op == ScanOp::Min;
  if (order && isIntegral(in) && in != DType::I64)
    return DType::I32;
  const bool wraps = op == ScanOp::Sum || op == ScanOp::Prod;
  if (wraps && isIntegral(in) && dtypeSize(in) <= 4 && isIntegral(out) && out != DType::Bool && dtypeSize(out) <= 4)
    return DType::I32;
  return accumulatorType(in);
}

int64_t ScanSpec::numel() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

std::string listText(llvm::ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleave(values, os, ",");
  os << ']';
  return os.str();
}

std::string ScanSpec::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  Dims dense = contiguousStrides(shape);
  os << opName(op) << ' ' << dtypeName(in);
  os << listText(shape);
  os << " dim=" << dim;
  if (llvm::makeArrayRef(inStrides) != llvm::makeArrayRef(dense)) {
    os << " strides=";
    os << listText(inStrides);
  }
  if (out != defaultOutputType(op, in))
    os << " out=" << dtypeName(out);
  if (llvm::makeArrayRef(outStrides) != llvm::makeArrayRef(dense)) {
    os << " out_strides=";
    os << listText(outStrides);
  }
  if (mask) {
    os << " mask";
    if (llvm::makeArrayRef(maskStrides) != llvm::makeArrayRef(dense)) {
      os << " mask_strides=";
      os << listText(maskStrides);
    }
  }
  if (reverse)
    os << " reverse";
  if (exclusive)
    os << " exclusive";
  if (indices)
    os << " indices";
  return os.str();
}

bool operator==(const ScanSpec &a, const ScanSpec &b) {
  return a.op == b.op && a.in == b.in && a.out == b.out && a.shape == b.shape &&
         a.dim == b.dim && a.inStrides == b.inStrides && a.outStrides == b.outStrides &&
         a.maskStrides == b.maskStrides && a.mask == b.mask && a.reverse == b.reverse &&
         a.exclusive == b.exclusive && a.indices == b.indices;
}

} // namespace scanjit
