// Crossing from internal llvm::Error to the public scanjit::Error.
#pragma once

#include "scanjit/Error.h"

#include "compiler/Diagnostics.h"

namespace scanjit::detail {

[[noreturn]] inline void throwError(llvm::Error error) {
  std::string message;
  ErrorCode code = takeErrorCode(std::move(error), &message);
  throw scanjit::Error(code, message);
}

inline void check(llvm::Error error) {
  if (error)
    throwError(std::move(error));
}

template <class T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    throwError(value.takeError());
  return std::move(*value);
}

} // namespace scanjit::detail
