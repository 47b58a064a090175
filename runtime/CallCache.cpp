#include "runtime/CallCache.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"

#include <cstring>
#include <mutex>
#include <unordered_map>

namespace scanjit::detail {
namespace {

constexpr size_t kMaxCalls = 4096;

// Keys compare and hash as their bytes (unused dims are zeroed), so a
// lookup on the launch path allocates nothing.
struct KeyBytes {
  size_t operator()(const CallKey &k) const {
    return llvm::hash_value(llvm::StringRef(reinterpret_cast<const char *>(k.bytes), sizeof k.bytes));
  }
  bool operator()(const CallKey &a, const CallKey &b) const {
    return std::memcmp(a.bytes, b.bytes, sizeof a.bytes) == 0;
  }
};

struct Calls {
  std::mutex lock;
  std::unordered_map<CallKey, KernelEntryPtr, KeyBytes, KeyBytes> byKey;
};
Calls &calls() {
  static Calls c;
  return c;
}

} // namespace

bool callKey(ScanOp op, const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &options, int sm,
             CallKey &key) {
  const TensorRef *mask = options.mask;
  if (in.rank < 0 || in.rank > kMaxRank || out.rank != in.rank || (mask && mask->rank != in.rank))
    return false;
  std::memset(key.bytes, 0, sizeof key.bytes); // unused dims compare equal
  const size_t dims = size_t(in.rank) * sizeof(int64_t), slot = kMaxRank * sizeof(int64_t);
  const int64_t *fields[6] = {in.sizes, in.strides, out.sizes, out.strides, mask ? mask->sizes : nullptr,
                              mask ? mask->strides : nullptr};
  for (int f = 0; f < 6; ++f)
    if (fields[f])
      std::memcpy(key.bytes + f * slot, fields[f], dims);
  const int32_t scalars[8] = {dim,
                              sm,
                              in.rank,
                              int32_t(op),
                              int32_t(in.dtype),
                              int32_t(out.dtype),
                              mask ? int32_t(mask->dtype) : -1,
                              (options.reverse ? 1 : 0) | (options.exclusive ? 2 : 0)};
  std::memcpy(key.bytes + CallKey::kDims, scalars, sizeof scalars);
  return true;
}

KernelEntryPtr findByCall(const CallKey &key) {
  Calls &c = calls();
  std::lock_guard<std::mutex> g(c.lock);
  auto it = c.byKey.find(key);
  return it == c.byKey.end() ? nullptr : it->second;
}

void rememberCall(const CallKey &key, KernelEntryPtr entry) {
  Calls &c = calls();
  std::lock_guard<std::mutex> g(c.lock);
  if (c.byKey.size() >= kMaxCalls)
    c.byKey.clear();
  c.byKey.emplace(key, std::move(entry));
}

} // namespace scanjit::detail
