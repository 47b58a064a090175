// scanjit precompile [--arch sm_XX]... [--cache-dir DIR] [-j N] (<spec>... | --manifest FILE)
// Fills a disk cache offline; needs no GPU. Ends with one summary line
// "compiled=N cached=M failed=K" and exits non-zero if any failed.
#include "tools/Commands.h"

#include "compiler/Diagnostics.h"
#include "scanjit/Error.h"
#include "scanjit/Precompile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace scanjit::tools {
namespace {

namespace cl = llvm::cl;

cl::SubCommand Precompile("precompile", "Compile specs into the disk cache (no GPU needed)");
cl::list<std::string> Specs(cl::Positional, cl::desc("<spec>..."), cl::sub(Precompile));
cl::opt<std::string> Manifest("manifest", cl::desc("File with one spec a line ('#' comments)"),
                              cl::sub(Precompile));
cl::list<std::string> Archs("arch", cl::desc("Target architecture(s), e.g. sm_90 (repeatable)"),
                            cl::sub(Precompile));
cl::opt<std::string> CacheDir("cache-dir", cl::desc("Cache folder (default: $SCANJIT_CACHE_DIR, ...)"),
                              cl::sub(Precompile));
cl::opt<unsigned> Jobs("j", cl::desc("Parallel compiles (default: all cores)"), cl::init(0),
                       cl::sub(Precompile));

struct Work {
  std::string spec;  // text as given
  std::string where; // "manifest:12" or "argument 2", for messages
};

llvm::Expected<std::vector<Work>> collectWork() {
  std::vector<Work> work;
  for (size_t i = 0; i < Specs.size(); ++i)
    work.push_back({Specs[i], "argument " + std::to_string(i + 1)});
  if (!Manifest.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(Manifest, /*IsText=*/true);
    if (!buffer)
      return detail::makeErrorF(ErrorCode::InvalidArgument, "cannot read manifest {0}: {1}", Manifest,
                                buffer.getError().message());
    llvm::SmallVector<llvm::StringRef, 64> lines;
    (*buffer)->getBuffer().split(lines, '\n');
    for (size_t i = 0; i < lines.size(); ++i) {
      llvm::StringRef line = lines[i].split('#').first.trim();
      if (!line.empty())
        work.push_back({line.str(), Manifest + ":" + std::to_string(i + 1)});
    }
  }
  if (work.empty())
    return detail::makeError(ErrorCode::InvalidArgument,
                             "precompile needs specs as arguments or --manifest FILE");
  return work;
}

int runPrecompile() {
  auto work = collectWork();
  if (!work)
    return reportError(work.takeError());
  std::vector<std::string> specs, labels;
  for (const Work &w : *work) {
    specs.push_back(w.spec);
    labels.push_back(w.where);
  }
  PrecompileResult result;
  try {
    result = precompile(specs, std::vector<std::string>(Archs.begin(), Archs.end()), CacheDir, Jobs, labels);
  } catch (const Error &e) {
    return reportError(detail::makeError(e.code(), e.what()));
  }
  for (const std::string &f : result.failures)
    llvm::errs() << "scanjit: failed: " << f << "\n";
  llvm::outs() << "compiled=" << result.compiled << " cached=" << result.cached
               << " failed=" << result.failures.size() << "\n";
  return result.failures.empty() ? 0 : 1;
}

} // namespace

Command precompileCommand() { return {Precompile, runPrecompile}; }

} // namespace scanjit::tools
