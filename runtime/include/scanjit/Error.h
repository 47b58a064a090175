// scanjit::Error: what every public function throws. It carries the error's
// class (ErrorCode) and a message that says what was given and what was
// expected.
#pragma once

#include "scanjit/ErrorCode.h"

#include <stdexcept>
#include <string>

namespace scanjit {

class Error : public std::runtime_error {
public:
  Error(ErrorCode code, const std::string &message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

private:
  ErrorCode code_;
};

} // namespace scanjit
