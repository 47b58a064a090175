// SingleFlightCache: key -> shared immutable value, computed at most once at
// a time per key. Concurrent requests for one key wait for the one
// computation; different keys compute in parallel (the lock is never held
// while computing). A failed computation is not cached: its waiters get its
// error and the next request tries again.
#pragma once

#include "compiler/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace scanjit {

struct MemoryCacheStats {
  uint64_t hits = 0;     // found ready
  uint64_t waits = 0;    // found in flight and waited for it
  uint64_t computes = 0; // computed (misses)
  uint64_t failures = 0;
};

template <class V> class SingleFlightCache {
public:
  using Value = std::shared_ptr<const V>;
  using Maker = llvm::function_ref<llvm::Expected<Value>()>;

  llvm::Expected<Value> get(llvm::StringRef key, Maker make) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = slots_.find(key);
    if (it != slots_.end()) {
      std::shared_ptr<Slot> slot = it->second;
      if (slot->done) {
        ++stats_.hits;
        return slot->value;
      }
      ++stats_.waits;
      ready_.wait(lock, [&] { return slot->done; });
      if (slot->value)
        return slot->value;
      return detail::makeError(slot->code, slot->message);
    }
    auto slot = std::make_shared<Slot>();
    slots_[key] = slot;
    ++stats_.computes;
    lock.unlock();

    llvm::Expected<Value> made = make();

    lock.lock();
    slot->done = true;
    if (made) {
      slot->value = *made;
    } else {
      ++stats_.failures;
      slot->code = detail::takeErrorCode(made.takeError(), &slot->message);
      slots_.erase(key);
    }
    ready_.notify_all();
    if (slot->value)
      return slot->value;
    return detail::makeError(slot->code, slot->message);
  }

  MemoryCacheStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

private:
  struct Slot {
    bool done = false;
    Value value;
    ErrorCode code = ErrorCode::Ok;
    std::string message;
  };
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  llvm::StringMap<std::shared_ptr<Slot>> slots_;
  MemoryCacheStats stats_;
};

} // namespace scanjit
