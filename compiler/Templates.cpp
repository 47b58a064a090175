#include "compiler/Templates.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <string>

namespace scanjit::detail {

const std::string &templatesDigest() {
  static const std::string digest = [] {
    llvm::SHA256 hash;
    for (const EmbeddedFile &f : embeddedTemplates())
      for (llvm::StringRef field : {f.name, f.contents}) {
        hash.update(std::to_string(field.size()) + ":");
        hash.update(field);
      }
    return llvm::toHex(hash.final(), /*LowerCase=*/true);
  }();
  return digest;
}

} // namespace scanjit::detail
