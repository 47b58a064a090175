// The on-disk kernel cache: one file per entry, named by the key digest, in
// a versioned folder. Entries are published by writing a temporary file in
// the same folder and renaming it, so readers see a whole entry or none; no
// lock is held while compiling. A corrupt, truncated or foreign entry is a
// counted miss (and gets replaced by the next store). A folder that cannot be
// written, or a full disk, turns the cache memory-only with one warning.
#pragma once

#include "cache/CacheEntry.h"

#include "llvm/ADT/Optional.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>

namespace scanjit {

enum class CacheMode { On, Off, ReadOnly };

struct CacheConfig {
  CacheMode mode = CacheMode::On;
  std::string root;      // the folder entries live under (versioned subfolder inside)
  uint64_t maxBytes = 0; // 0: no cap
};

/// From SCANJIT_CACHE, SCANJIT_CACHE_DIR (else $XDG_CACHE_HOME/scanjit, else
/// ~/.cache/scanjit) and SCANJIT_CACHE_MAX_BYTES. A bad value is an error
/// naming the variable.
llvm::Expected<CacheConfig> cacheConfigFromEnvironment();

/// The environment's settings with an explicit folder taking precedence
/// (and turning an `off` cache on): what --cache-dir and cache_dir= mean.
llvm::Expected<CacheConfig> cacheConfigFor(llvm::StringRef folder);

struct DiskCacheStats {
  uint64_t hits = 0, misses = 0, bad = 0, stores = 0, storeFailures = 0, pruned = 0;
};

struct DiskEntryInfo {
  std::string path, digest;
  uint64_t bytes = 0;
  std::chrono::system_clock::time_point lastAccess;
};

class DiskCache {
public:
  /// Writes `bytes` to `path` (a fresh temporary file). Replaceable so tests
  /// can simulate a full disk.
  using FileWriter = std::function<llvm::Error(llvm::StringRef path, llvm::StringRef bytes)>;

  explicit DiskCache(CacheConfig config, FileWriter writer = nullptr);

  const CacheConfig &config() const { return config_; }
  /// The versioned folder holding the entries.
  const std::string &folder() const { return folder_; }
  bool writable() const { return config_.mode == CacheMode::On && !degraded_; }

  /// The entry for `key`, or None on a miss (absent, unreadable, corrupt,
  /// truncated or foreign: the latter are counted in stats().bad).
  llvm::Optional<CacheEntry> lookup(const CacheKey &key);

  /// Publishes an entry atomically. Failures degrade the cache to memory-only
  /// (one warning) and are not errors for the caller.
  void store(const CacheKey &key, const CacheEntry &entry);

  /// Entries present, oldest access first.
  std::vector<DiskEntryInfo> list() const;
  /// Checks every entry; returns "path: what is wrong" for each bad one.
  std::vector<std::string> verify() const;
  /// Removes every entry and stray temporary file; returns how many.
  size_t clear();
  /// Removes least-recently-used entries until at most `maxBytes` remain.
  size_t prune(uint64_t maxBytes);

  DiskCacheStats stats() const;
  std::string entryPath(llvm::StringRef digest) const;

private:
  /// Counts a failed store and turns the cache memory-only (one warning).
  void failStore(const llvm::Twine &why);
  CacheConfig config_;
  std::string folder_;
  FileWriter writer_;
  std::atomic<bool> degraded_{false};
  mutable std::mutex statsMutex_;
  DiskCacheStats stats_;
};

} // namespace scanjit
