// Error codes shared by every layer of scanjit. A plain enum with no
// dependencies so internal code and the public API speak the same codes.
#pragma once

namespace scanjit {

enum class ErrorCode : int {
  Ok = 0,
  InvalidSpec = 1,      // the spec text or value is malformed or inconsistent
  Unsupported = 2,      // a valid request scanjit does not handle (yet)
  InvalidArgument = 3,  // a bad tensor, pointer or option passed to the API
  CompileFailed = 4,    // NVRTC rejected the generated source (a bug)
  NoDriver = 5,         // libcuda.so.1 could not be loaded
  NoDevice = 6,         // the driver loaded but found no usable GPU
  DriverError = 7,      // a CUDA driver call failed
  CacheError = 8,       // the kernel cache could not be read or written
  Internal = 9,         // a bug in scanjit: please report it
};

/// A short stable name for a code, e.g. "invalid-spec".
const char *errorCodeName(ErrorCode code);

} // namespace scanjit
