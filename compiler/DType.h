// Element types scanjit reads and writes, with the facts the planner, the
// emitter and the CPU reference need about each.
#pragma once

#include "scanjit/Types.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace scanjit {

inline constexpr DType kAllDTypes[] = {DType::F16, DType::BF16, DType::F32, DType::F64, DType::U8,
                                       DType::I8,  DType::I16,  DType::I32, DType::I64, DType::Bool};

/// Spec-text name: "f16", "bf16", "f32", "f64", "u8", "i8", "i16", "i32", "i64", "bool".
llvm::StringRef dtypeName(DType t);
llvm::Optional<DType> parseDType(llvm::StringRef name);

/// Bytes per element (bool is one byte).
int dtypeSize(DType t);
bool isFloating(DType t);
inline bool isIntegral(DType t) { return !isFloating(t); } // bool counts as integral

/// The type a scan of `t` accumulates in: f32 for f16/bf16 (as torch), f64 for
/// f64, f32 for f32, i64 for integers and bool.
DType accumulatorType(DType t);

} // namespace scanjit
