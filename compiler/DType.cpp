#include "compiler/DType.h"

namespace scanjit {

llvm::StringRef dtypeName(DType t) {
  switch (t) {
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  case DType::U8: return "u8";
  case DType::I8: return "i8";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::Bool: return "bool";
  }
  return "?";
}

llvm::Optional<DType> parseDType(llvm::StringRef name) {
  for (DType t : kAllDTypes)
    if (dtypeName(t) == name)
      return t;
  return llvm::None;
}

int dtypeSize(DType t) {
  switch (t) {
  case DType::F16: case DType::BF16: case DType::I16: return 2;
  case DType::F32: case DType::I32: return 4;
  case DType::F64: case DType::I64: return 8;
  case DType::U8: case DType::I8: case DType::Bool: return 1;
  }
  return 0;
}

bool isFloating(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64;
}

DType accumulatorType(DType t) {
  if (t == DType::F64)
    return DType::F64;
  if (isFloating(t))
    return DType::F32;
  return DType::I64;
}

} // namespace scanjit
