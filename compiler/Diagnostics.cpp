#include "compiler/Diagnostics.h"

namespace scanjit {

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
