#include "scanjit/ErrorCode.h"

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

} // namespace scanjit
