// Named-placeholder substitution for the emitter: "{{name}}" is replaced by
// its value. Every placeholder must have a value and every value must be
// used, so a template and its emitter can never silently drift apart.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>

namespace scanjit::detail {

using Substitution = std::pair<llvm::StringRef, std::string>;

llvm::Expected<std::string> fillPlaceholders(llvm::StringRef text,
                                             llvm::ArrayRef<Substitution> values);

} // namespace scanjit::detail
