// Internal error type: an llvm::ErrorInfo that carries one of the public
// ErrorCodes with its message, so failures keep their class all the way up to
// the public API (never collapsed into a generic code).
#pragma once

#include "scanjit/ErrorCode.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

namespace scanjit::detail {

class ScanjitError : public llvm::ErrorInfo<ScanjitError> {
public:
  static char ID;
  ScanjitError(ErrorCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  ErrorCode code() const { return code_; }
  const std::string &text() const { return message_; }
  void log(llvm::raw_ostream &os) const override { os << message_; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  ErrorCode code_;
  std::string message_;
};

inline llvm::Error makeError(ErrorCode code, const llvm::Twine &message) {
  return llvm::make_error<ScanjitError>(code, message.str());
}

/// formatv-style convenience: makeErrorF(code, "size {0} is negative", n).
template <typename... Ts>
llvm::Error makeErrorF(ErrorCode code, const char *fmt, Ts &&...values) {
  return makeError(code, llvm::formatv(fmt, std::forward<Ts>(values)...).str());
}

/// Consumes an error and returns its code (Internal for foreign errors) and
/// message.
ErrorCode takeErrorCode(llvm::Error error, std::string *message);

} // namespace scanjit::detail
