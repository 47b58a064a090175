// SASS of a compiled kernel, through nvdisasm ($SCANJIT_NVDISASM, else
// PATH, else the one found at build time). Fails with Unsupported naming
// what to install when there is none.
#pragma once

#include "llvm/Support/Error.h"

#include <string>

namespace scanjit {

llvm::Expected<std::string> disassembleCubin(llvm::StringRef cubin);

} // namespace scanjit
