// Helpers shared by the unit tests.
#pragma once

#include "compiler/Diagnostics.h"
#include "compiler/ScanSpec.h"

#include <gtest/gtest.h>

namespace scanjit::testing {

/// Parses a spec that must be valid; fails the test otherwise.
inline ScanSpec mustParse(llvm::StringRef text) {
  auto spec = parseSpec(text);
  if (!spec) {
    ADD_FAILURE() << "parseSpec(\"" << text.str() << "\"): " << llvm::toString(spec.takeError());
    return ScanSpec();
  }
  return *spec;
}

/// The error message and code of a spec that must be rejected.
inline std::pair<ErrorCode, std::string> parseFailure(llvm::StringRef text) {
  auto spec = parseSpec(text);
  if (spec) {
    ADD_FAILURE() << "parseSpec(\"" << text.str() << "\") unexpectedly succeeded: " << spec->toString();
    return {ErrorCode::Ok, ""};
  }
  std::string message;
  ErrorCode code = detail::takeErrorCode(spec.takeError(), &message);
  return {code, message};
}

} // namespace scanjit::testing
