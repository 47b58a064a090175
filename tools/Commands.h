// The scanjit CLI's subcommands. Each lives in its own file with its options
// (llvm::cl, bound to its SubCommand) and a run function main() dispatches to.
#pragma once

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace scanjit::tools {

struct Command {
  llvm::cl::SubCommand &sub;
  int (*run)();
};

Command inspectCommand();
Command runCommand();
Command precompileCommand();
Command cacheCommand();

/// Prints "scanjit: error: <message>" to stderr and returns exit code 1.
int reportError(llvm::Error error);

} // namespace scanjit::tools
