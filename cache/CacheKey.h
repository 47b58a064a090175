// CacheKey: the identity of a compiled kernel. Every input that can change
// the binary is a length-prefixed field of the key text; the digest (SHA-256)
// names the entry. The full text is stored with the entry and compared on
// load, so a digest collision or a foreign file can never serve a wrong kernel.
#pragma once

#include "compiler/KernelCompiler.h"

#include <string>

namespace scanjit {

inline constexpr int kCacheFormatVersion = 1;

struct CacheKeyFields {
  int formatVersion = kCacheFormatVersion;
  std::string scanjitVersion;
  std::string templatesDigest;
  std::string spec;  // the shape class's spec text (shapeClassText)
  std::string plan;  // the plan's class text (KernelPlan::classText)
  std::string nvrtcVersion;
  std::string arch;  // "sm_90"
  std::string options;
  std::string compileRules; // how compileKernel picks among a plan's compiles (compileRulesText)
};

struct CacheKey {
  std::string text;   // length-prefixed fields, one per line
  std::string digest; // lowercase hex SHA-256 of text
};

/// The fields for this process's compiler, templates and options.
CacheKeyFields currentKeyFields(const GeneratedKernel &generated, const Target &target);

/// The same for any kernel named by `spec` and `plan` texts.
CacheKeyFields currentKeyFields(llvm::StringRef spec, llvm::StringRef plan, const Target &target);

CacheKey makeCacheKey(const CacheKeyFields &fields);

/// The value of field `name` ("spec", "arch", ...) in a key text, or None.
llvm::Optional<std::string> keyField(llvm::StringRef keyText, llvm::StringRef name);

/// Lowercase hex SHA-256 of a key text (what names its file).
std::string makeCacheKeyDigest(llvm::StringRef keyText);

} // namespace scanjit
