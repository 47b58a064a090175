#include "testing/DeviceRandom.h"

#include "cache/KernelStore.h"
#include "compiler/Emitter.h"
#include "runtime/Context.h"
#include "runtime/Errors.h"
#include "testing/DeviceMemory.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace scanjit::detail {
namespace {

// The generator's function in the current context: compiled once per arch
// and instantiation (through the disk cache), loaded once per context.
CUfunction generator(const std::string &entry, const std::string &body, const std::string &what) {
  static std::mutex mutex;
  static std::map<std::pair<CUcontext, std::string>, CUfunction> loaded;
  const ContextInfo ctx = unwrap(currentContext());
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find({ctx.context, entry});
  if (it != loaded.end())
    return it->second;
  const Target target = unwrap(parseTarget("sm_" + std::to_string(ctx.sm)));
  const std::string source = "#include \"scanjit/random_fill.cuh\"\n" + body;
  const CacheKey key = makeCacheKey(currentKeyFields(what, "generator entry=" + entry, target));
  auto disk = processDiskCache();
  if (!disk)
    throwError(disk.takeError());
  StoredKernel stored = unwrap(loadOrCompileSource(*disk, SourceKernel{source, entry, what, "generator"}, target, key));
  const DriverApi &api = *driver();
  CUmodule module = nullptr;
  checkCu(api.cuModuleLoadData(&module, stored.kernel.cubin.data()), "cuModuleLoadData (random inputs)");
  CUfunction fn = nullptr;
  checkCu(api.cuModuleGetFunction(&fn, module, entry.c_str()), "cuModuleGetFunction (random inputs)");
  loaded[{ctx.context, entry}] = fn;
  return fn;
}

// Blocks of 256 threads looping over the elements: enough to fill any GPU.
void launch(CUfunction fn, int64_t count, void **params, CUstream stream) {
  const int64_t blocks = std::min<int64_t>((count + 255) / 256, 8192);
  if (blocks == 0)
    return;
  checkCu(driver()->cuLaunchKernel(fn, unsigned(blocks), 1, 1, 256, 1, 1, 0, stream, params, nullptr),
          "cuLaunchKernel (random inputs)");
}

} // namespace

void fillRandomOnDevice(CUdeviceptr data, DType dtype, ScanOp op, int64_t count, const RandomOptions &o,
                        CUstream stream) {
  if (o.specialFraction > 0 || o.negativeInfinityRuns > 0)
    throw Error(ErrorCode::InvalidArgument,
                "fillRandomOnDevice draws no NaN or infinity (specialFraction or negativeInfinityRuns > 0)");
  const int kind = randomValueKind(dtype, op);
  const std::string entry = llvm::formatv("scanjit_random_{0}_{1}", dtypeName(dtype), kind).str();
  const std::string body = llvm::formatv(
      "extern \"C\" __global__ void {0}(void *data, long long count, unsigned long long seed, long long first, "
      "double spread) {{\n  scanjit::random_fill<{1}, {2}, {3}>(static_cast<{1} *>(data), count, seed, first, spread);\n}\n",
      entry, deviceTypeName(dtype), kind, isFloating(dtype) ? "true" : "false");
  const std::string what = llvm::formatv("random {0} (kind {1})", dtypeName(dtype), kind).str();
  CUfunction fn = generator(entry, body, what);
  long long n = count, first = o.firstIndex;
  unsigned long long seed = o.seed;
  double spread = o.logSumExpSpread;
  void *params[] = {&data, &n, &seed, &first, &spread};
  launch(fn, count, params, stream);
}

void fillRandomMaskOnDevice(CUdeviceptr mask, int64_t count, uint64_t seed, int64_t firstIndex, CUstream stream) {
  const std::string entry = "scanjit_random_mask";
  const std::string body =
      "extern \"C\" __global__ void scanjit_random_mask(unsigned char *mask, long long count, unsigned long long seed, "
      "long long first) {\n  scanjit::random_fill_mask(mask, count, seed, first);\n}\n";
  CUfunction fn = generator(entry, body, "random mask");
  long long n = count, first = firstIndex;
  unsigned long long s = seed;
  void *params[] = {&mask, &n, &s, &first};
  launch(fn, count, params, stream);
}

} // namespace scanjit::detail
