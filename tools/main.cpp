// scanjit: the command-line tool. `scanjit <command> --help` for details.
#include "tools/Commands.h"

#include "compiler/Diagnostics.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace scanjit::tools {

int reportError(llvm::Error error) {
  std::string message;
  detail::takeErrorCode(std::move(error), &message);
  llvm::errs() << "scanjit: error: " << message << "\n";
  return 1;
}

} // namespace scanjit::tools

int main(int argc, char **argv) {
  using namespace scanjit::tools;
  const Command commands[] = {inspectCommand(), runCommand(), precompileCommand(), cacheCommand()};
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "scanjit: JIT-compiled GPU scans (cumsum, cumprod, cummax, "
                                    "cummin, logcumsumexp)\n");
  for (const Command &c : commands)
    if (c.sub)
      return c.run();
  llvm::errs() << "scanjit: error: no command given (try: scanjit --help)\n";
  return 1;
}
