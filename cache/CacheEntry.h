// The on-disk form of one cache entry, as a pure encode/decode pair:
//
//   "SCANJITK" | u32 format version | u32 field count |
//   fields, each u64 length + bytes: key text, entry name, arch, plan,
//   resources (key=value lines), NVRTC log, cubin |
//   SHA-256 of everything before it (32 bytes)
//
// Integers are little-endian. decodeEntry checks magic, version, every
// length against the file size, the checksum and the key text: anything off
// is an error saying what, never a partial entry.
#pragma once

#include "cache/CacheKey.h"

namespace scanjit {

inline constexpr llvm::StringLiteral kEntryMagic = "SCANJITK";
inline constexpr int kEntryFileFormat = 1;

struct CacheEntry {
  std::string keyText;
  std::string plan;
  CompiledKernel kernel; // ptx is not stored
};

std::string encodeEntry(const CacheEntry &entry);

/// Decodes `bytes`; when `expectedKeyText` is non-empty the stored key text
/// must equal it (a foreign entry is an error).
llvm::Expected<CacheEntry> decodeEntry(llvm::StringRef bytes, llvm::StringRef expectedKeyText = "");

} // namespace scanjit
