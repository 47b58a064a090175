// Host-side cache benchmark (no GPU needed): cold NVRTC compile per spec,
// disk-cache hit (read + checksum + key check + decode), and memory hit
// (the registry's lookup by spec text). With a GPU present it also times
// loading the cubin into a context (cuModuleLoadData) and the launch path of
// each entry point (LaunchPathBench.cpp).
//
// It also compiles one spec a family cold with five flag sets each and
// reports each family's median and max (the family table).
//
//   scanjit_host_bench [--specs N] [--hits N]
#include "LaunchPathBench.h"

#include "cache/KernelStore.h"
#include "compiler/KernelCompiler.h"
#include "runtime/Context.h"
#include "runtime/DriverApi.h"
#include "runtime/KernelRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace scanjit;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Distinct specs over the families, ops and dtypes (distinct keys: cold).
std::vector<std::string> specs(int n) {
  const char *ops[] = {"sum", "prod", "max", "min", "logsumexp"};
  const char *types[] = {"f32", "f16", "bf16", "f64"};
  const char *shapes[] = {"[32768,32768] dim=1", "[1048576,32] dim=1", "[32768,32768] dim=0",
                          "[100,200] dim=1 strides=[1,100]"};
  const char *flags[] = {"", " reverse", " mask", " exclusive", " mask reverse exclusive"};
  std::vector<std::string> out;
  for (int i = 0; int(out.size()) < n; ++i)
    out.push_back(std::string(ops[i % 5]) + " " + types[(i / 5) % 4] + shapes[(i / 20) % 4] + flags[i % 5]);
  return out;
}

// One spec a family (the six and the other kernels), each compiled
// cold with five flag sets (distinct keys): the family's median and max.
struct FamilySpec {
  const char *family;
  const char *spec;
};
const FamilySpec kFamilySpecs[] = {
    {"row", "sum f32[32768,8192] dim=1"}, // (the seed's 32768-float rows are look-back tiles)
    {"look-back", "sum f32[16777216] dim=0"},
    {"look-back, held shares", "sum f32[4194304] dim=0"},
    {"column", "sum f32[4096,4096] dim=0"},
    {"column, max f16", "max f16[4096,4096] dim=0"},
    {"column, tiles of whole rows", "sum f32[4194304,20] dim=0"},
    {"row, log-sum-exp f64", "logsumexp f64[4096,4096] dim=1"},
    {"row, log-sum-exp f32", "logsumexp f32[32768,32768] dim=1"},
    {"segmented (rows of 333: padded warp rows)", "sum f32[77777,333] dim=1"},
    {"segmented, chunks of rows", "sum f32[65536,100] dim=1"},
    {"packed lanes", "sum f32[8388608,2] dim=0"},
    {"packed lanes in parts, one block an SM", "sum f32[1048576,16] dim=0"},
    {"strided", "sum f32[100,200] dim=1 strides=[1,100]"},
    {"max with indices", "max f32[4096,4096] dim=1 indices"},
};
const char *kFlagSets[] = {"", " reverse", " mask", " exclusive", " mask reverse exclusive"};

} // namespace

int main(int argc, char **argv) {
  int specCount = 40, hits = 200000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--specs")) specCount = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--hits")) hits = std::atoi(argv[i + 1]);
  }
  llvm::SmallString<128> dir;
  llvm::sys::fs::createUniqueDirectory("scanjit-bench", dir);
  CacheConfig config;
  config.root = dir.str().str();
  DiskCache disk(config);
  const Target target{detail::detectGpuSm() ? detail::detectGpuSm() : 90};

  // Cold compiles, one distinct spec each, published to the disk cache.
  std::vector<double> compileMs;
  std::vector<std::pair<GeneratedKernel, CacheKey>> made;
  for (const std::string &s : specs(specCount)) {
    auto spec = parseSpec(s);
    auto generated = generateKernel(*spec, target);
    CacheKey key = makeCacheKey(currentKeyFields(*generated, target));
    auto t = Clock::now();
    auto stored = loadOrCompile(disk, *generated, target, key);
    compileMs.push_back(msSince(t));
    if (!stored || stored->fromDisk) {
      llvm::errs() << "unexpected: " << s << "\n";
      return 1;
    }
    made.push_back({*generated, key});
  }

  // Cold compiles by family.
  std::vector<std::pair<const char *, std::vector<double>>> byFamily;
  for (const FamilySpec &f : kFamilySpecs) {
    std::vector<double> ms;
    for (const char *flags : kFlagSets) {
      auto spec = parseSpec(std::string(f.spec) + flags);
      auto generated = spec ? generateKernel(*spec, target) : llvm::Expected<GeneratedKernel>(spec.takeError());
      if (!generated) {
        llvm::errs() << "unexpected: " << f.spec << flags << ": " << llvm::toString(generated.takeError()) << "\n";
        return 1;
      }
      auto t = Clock::now();
      auto compiled = compileKernel(*generated, target);
      ms.push_back(msSince(t));
      if (!compiled) {
        llvm::errs() << "unexpected: " << f.spec << flags << ": " << llvm::toString(compiled.takeError()) << "\n";
        return 1;
      }
    }
    byFamily.push_back({f.family, ms});
  }

  // Disk hits: read, checksum, compare the key text, decode.
  std::vector<double> diskMs, loadMs;
  const bool gpu = bool(detail::driver());
  for (int round = 0; round < 5; ++round)
    for (auto &[generated, key] : made) {
      auto t = Clock::now();
      llvm::Optional<CacheEntry> hit = disk.lookup(key);
      diskMs.push_back(msSince(t));
      if (!hit)
        return 1;
      if (gpu && round == 0) {
        CUcontext ctx = *detail::currentContextHandle();
        (void)ctx;
        CUmodule module;
        auto t2 = Clock::now();
        if (detail::driver()->cuModuleLoadData(&module, hit->kernel.cubin.data()) == CUDA_SUCCESS) {
          loadMs.push_back(msSince(t2));
          detail::driver()->cuModuleUnload(module);
        }
      }
    }

  // Memory hits through the registry's text index.
  setenv("SCANJIT_CACHE_DIR", dir.c_str(), 1);
  const std::string text = specs(1)[0];
  if (!detail::findOrCompile(llvm::StringRef(text), target))
    return 1;
  auto t = Clock::now();
  for (int i = 0; i < hits; ++i)
    if (!detail::findOrCompile(llvm::StringRef(text), target))
      return 1;
  const double memoryNs = msSince(t) * 1e6 / hits;
  llvm::sys::fs::remove_directories(dir);

  llvm::outs() << llvm::formatv("| measure | value | target |\n|---|---|---|\n"
                                "| cold compile, median of {0} specs ({1}) | {2:f1} ms (min {3:f1}, max {4:f1}) | <= 150 ms |\n"
                                "| disk hit: read + checksum + key check + decode, median of {5} | {6:f3} ms | <= 2 ms |\n",
                                compileMs.size(), target.name(), median(compileMs),
                                *std::min_element(compileMs.begin(), compileMs.end()),
                                *std::max_element(compileMs.begin(), compileMs.end()), diskMs.size(),
                                median(diskMs));
  if (!loadMs.empty())
    llvm::outs() << llvm::formatv("| module load (cuModuleLoadData), median of {0} | {1:f3} ms | (not in the target) |\n",
                                  loadMs.size(), median(loadMs));
  llvm::outs() << llvm::formatv("| memory hit: registry lookup by spec text, mean of {0} | {1:f0} ns | <= 1 us |\n",
                                hits, memoryNs);
  llvm::outs() << llvm::formatv("\n| cold compile by family ({0}; five flag sets each) | median ms | max ms | target |\n"
                                "|---|---|---|---|\n",
                                target.name());
  for (size_t i = 0; i < byFamily.size(); ++i) {
    const std::vector<double> &ms = byFamily[i].second;
    llvm::outs() << llvm::formatv("| {0}: `{1}` | {2:f1} | {3:f1} | <= 150 ms |\n", byFamily[i].first,
                                  kFamilySpecs[i].spec, median(ms), *std::max_element(ms.begin(), ms.end()));
  }
  if (gpu && detail::detectGpuSm())
    bench::printLaunchPathTable();
  return 0;
}
