#include "compiler/Diagnostics.h"

namespace scanjit {

const char *errorCodeName(ErrorCode code) {
  switch (code) {
  case ErrorCode::Ok: return "ok";
  case ErrorCode::InvalidSpec: return "invalid-spec";
  case ErrorCode::Unsupported: return "unsupported";
  case ErrorCode::InvalidArgument: return "invalid-argument";
  case ErrorCode::CompileFailed: return "compile-failed";
  case ErrorCode::NoDriver: return "no-driver";
  case ErrorCode::NoDevice: return "no-device";
  case ErrorCode::DriverError: return "driver-error";
  case ErrorCode::CacheError: return "cache-error";
  case ErrorCode::Internal: return "internal";
  }
  return "unknown";
}

namespace detail {

char ScanjitError::ID = 0;

ErrorCode takeErrorCode(llvm::Error error, std::string *message) {
  ErrorCode code = ErrorCode::Ok;
  std::string text;
  llvm::handleAllErrors(
      std::move(error),
      [&](const ScanjitError &e) {
        code = e.code();
        text = e.text();
      },
      [&](const llvm::ErrorInfoBase &e) {
        code = ErrorCode::Internal;
        text = "internal error: " + e.message();
      });
  if (message)
    *message = std::move(text);
  return code;
}

} // namespace detail
} // namespace scanjit
