// scanjit precompile [--arch sm_XX]... [--cache-dir DIR] [-j N] (<spec>... | --manifest FILE)
// Fills a disk cache offline; needs no GPU. Ends with one summary line
// "compiled=N cached=M failed=K" and exits non-zero if any failed.
#include "tools/CacheOptions.h"
#include "tools/Commands.h"

#include "cache/KernelStore.h"
#include "compiler/Diagnostics.h"
#include "runtime/DriverApi.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>
#include <thread>

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
  std::vector<Target> targets;
  if (Archs.empty()) {
    auto t = resolveTarget("", detail::detectGpuSm());
    if (!t)
      return reportError(t.takeError());
    targets.push_back(*t);
  }
  for (const std::string &a : Archs) {
    auto t = parseTarget(a);
    if (!t)
      return reportError(t.takeError());
    targets.push_back(*t);
  }
  auto config = cacheConfigFor(CacheDir);
  if (!config)
    return reportError(config.takeError());
  if (config->mode != CacheMode::On)
    return reportError(detail::makeError(
        ErrorCode::InvalidArgument, "precompile needs a writable cache (SCANJIT_CACHE is off or readonly)"));
  DiskCache disk(*config);

  std::atomic<size_t> next{0}, compiled{0}, cached{0};
  std::mutex lock;
  std::vector<std::string> failures;
  const size_t total = work->size() * targets.size();
  auto worker = [&] {
    for (size_t i = next++; i < total; i = next++) {
      const Work &w = (*work)[i / targets.size()];
      const Target &target = targets[i % targets.size()];
      auto fail = [&](const std::string &why) {
        std::lock_guard<std::mutex> g(lock);
        failures.push_back(w.where + ": '" + w.spec + "' (" + target.name() + "): " + why);
      };
      auto spec = parseSpec(w.spec);
      if (!spec) {
        fail(llvm::toString(spec.takeError()));
        continue;
      }
      auto generated = generateKernel(*spec, target);
      if (!generated) {
        fail(llvm::toString(generated.takeError()));
        continue;
      }
      if (generated->plan.family == KernelFamily::Empty) {
        ++cached; // no elements: nothing to compile, nothing missing
        continue;
      }
      CacheKey key = makeCacheKey(currentKeyFields(*generated, target));
      auto stored = loadOrCompile(disk, *generated, target, key);
      if (!stored)
        fail(llvm::toString(stored.takeError()));
      else if (stored->fromDisk)
        ++cached;
      else if (!disk.writable())
        fail("compiled but not stored: the cache folder " + disk.folder() + " is not writable");
      else
        ++compiled;
    }
  };
  unsigned jobs = Jobs ? Jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::min<size_t>(jobs, total); ++j)
    threads.emplace_back(worker);
  for (auto &t : threads)
    t.join();
  std::sort(failures.begin(), failures.end());
  for (const std::string &f : failures)
    llvm::errs() << "scanjit: failed: " << f << "\n";
  llvm::outs() << "compiled=" << compiled << " cached=" << cached << " failed=" << failures.size() << "\n";
  return failures.empty() ? 0 : 1;
}

} // namespace

Command precompileCommand() { return {Precompile, runPrecompile}; }

} // namespace scanjit::tools
