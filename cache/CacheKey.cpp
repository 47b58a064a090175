#include "cache/CacheKey.h"
#include "compiler/Emitter.h"
#include "compiler/Nvrtc.h"
#include "compiler/ShapeClass.h"
#include "compiler/Templates.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace scanjit {
namespace {

// Each field is "<name> <byte length> <value>\n"; the length lets a value
// hold any bytes, spaces and newlines included.
void addField(std::string &text, llvm::StringRef name, llvm::StringRef value) {
  text += name.str() + " " + std::to_string(value.size()) + " " + value.str() + "\n";
}

} // namespace

CacheKeyFields currentKeyFields(const GeneratedKernel &generated, const Target &target) {
  // The shape class, not the spec: every spec of a class shares the kernel.
  return currentKeyFields(shapeClassText(generated.spec, generated.plan), generated.plan.classText(), target);
}

CacheKeyFields currentKeyFields(llvm::StringRef spec, llvm::StringRef plan, const Target &target) {
  CacheKeyFields f;
  f.scanjitVersion = scanjitVersion().str();
  f.templatesDigest = detail::templatesDigest();
  f.spec = spec.str();
  f.plan = plan.str();
  f.nvrtcVersion = nvrtcVersion();
  f.arch = target.name();
  for (const std::string &o : nvrtcOptions(target))
    f.options += (f.options.empty() ? "" : " ") + o;
  f.compileRules = compileRulesText();
  return f;
}

CacheKey makeCacheKey(const CacheKeyFields &f) {
  CacheKey key;
  addField(key.text, "format", std::to_string(f.formatVersion));
  addField(key.text, "scanjit", f.scanjitVersion);
  addField(key.text, "templates", f.templatesDigest);
  addField(key.text, "spec", f.spec);
  addField(key.text, "plan", f.plan);
  addField(key.text, "nvrtc", f.nvrtcVersion);
  addField(key.text, "arch", f.arch);
  addField(key.text, "options", f.options);
  addField(key.text, "compile", f.compileRules);
  key.digest = makeCacheKeyDigest(key.text);
  return key;
}

llvm::Optional<std::string> keyField(llvm::StringRef keyText, llvm::StringRef name) {
  while (!keyText.empty()) {
    auto [fieldName, rest] = keyText.split(' ');
    auto [lengthText, afterLength] = rest.split(' ');
    size_t length = 0;
    if (lengthText.getAsInteger(10, length) || length > afterLength.size())
      return llvm::None;
    if (fieldName == name)
      return afterLength.take_front(length).str();
    keyText = afterLength.drop_front(length);
    if (!keyText.consume_front("\n"))
      return llvm::None;
  }
  return llvm::None;
}

std::string makeCacheKeyDigest(llvm::StringRef keyText) {
  llvm::SHA256 hash;
  hash.update(keyText);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

} // namespace scanjit
