#include "cache/DiskCache.h"
#include "compiler/Diagnostics.h"
#include "compiler/Log.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

namespace scanjit {
namespace {

namespace fs = llvm::sys::fs;
using detail::logMessage;

constexpr llvm::StringLiteral kEntrySuffix = ".sjk";
constexpr llvm::StringLiteral kTempSuffix = ".tmp";

llvm::Error writeWholeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot open " + path + ": " + ec.message());
  os << bytes;
  os.close();
  if (os.has_error()) {
    std::error_code err = os.error();
    os.clear_error();
    return llvm::createStringError(err, "cannot write " + path + ": " + err.message());
  }
  return llvm::Error::success();
}

bool isEntryName(llvm::StringRef name) { return name.endswith(kEntrySuffix); }

} // namespace

llvm::Expected<CacheConfig> cacheConfigFromEnvironment() {
  CacheConfig c;
  if (const char *mode = std::getenv("SCANJIT_CACHE"); mode && *mode) {
    llvm::StringRef m(mode);
    if (m == "on") c.mode = CacheMode::On;
    else if (m == "off") c.mode = CacheMode::Off;
    else if (m == "readonly") c.mode = CacheMode::ReadOnly;
    else
      return detail::makeErrorF(ErrorCode::InvalidArgument,
                                "SCANJIT_CACHE='{0}': expected on, off or readonly", m);
  }
  if (const char *dir = std::getenv("SCANJIT_CACHE_DIR"); dir && *dir) {
    c.root = dir;
  } else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    c.root = (llvm::Twine(xdg) + "/scanjit").str();
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    c.root = (llvm::Twine(home) + "/.cache/scanjit").str();
  } else {
    c.mode = CacheMode::Off; // nowhere to put it
  }
  if (const char *max = std::getenv("SCANJIT_CACHE_MAX_BYTES"); max && *max) {
    if (llvm::StringRef(max).getAsInteger(10, c.maxBytes))
      return detail::makeErrorF(ErrorCode::InvalidArgument,
                                "SCANJIT_CACHE_MAX_BYTES='{0}': expected a byte count", max);
  }
  return c;
}

DiskCache::DiskCache(CacheConfig config, FileWriter writer)
    : config_(std::move(config)), writer_(writer ? std::move(writer) : FileWriter(writeWholeFile)) {
  llvm::SmallString<256> folder(config_.root);
  llvm::sys::path::append(folder, "v" + std::to_string(kCacheFormatVersion));
  folder_ = folder.str().str();
}

std::string DiskCache::entryPath(llvm::StringRef digest) const {
  llvm::SmallString<256> p(folder_);
  llvm::sys::path::append(p, digest + kEntrySuffix);
  return p.str().str();
}

void DiskCache::failStore(const llvm::Twine &why) {
  {
    std::lock_guard<std::mutex> lock(statsMutex_);
    ++stats_.storeFailures;
  }
  if (!degraded_.exchange(true))
    detail::warnOnce("cache-degraded:" + folder_,
                     "kernel cache " + folder_ + " is not writable (" + why +
                         "); continuing with the in-memory cache only");
}

llvm::Optional<CacheEntry> DiskCache::lookup(const CacheKey &key) {
  if (config_.mode == CacheMode::Off)
    return llvm::None;
  const std::string path = entryPath(key.digest);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    std::lock_guard<std::mutex> lock(statsMutex_);
    ++stats_.misses;
    logMessage(2, "cache miss " + key.digest);
    return llvm::None;
  }
  auto entry = decodeEntry((*buffer)->getBuffer(), key.text); // checksum: no lock held
  if (!entry) {
    std::string why = llvm::toString(entry.takeError());
    {
      std::lock_guard<std::mutex> lock(statsMutex_);
      ++stats_.misses;
      ++stats_.bad;
    }
    detail::warnOnce("bad-entry:" + path, "ignoring cache entry " + path + ": " + why +
                                              " (it will be replaced)");
    return llvm::None;
  }
  {
    std::lock_guard<std::mutex> lock(statsMutex_);
    ++stats_.hits;
  }
  logMessage(2, "cache hit " + key.digest);
  // Record the use for least-recently-used pruning (atime is not reliable).
  int fd;
  if (!fs::openFileForWrite(path, fd, fs::CD_OpenExisting, fs::OF_Append)) {
    fs::setLastAccessAndModificationTime(
        fd, std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now()));
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  return std::move(*entry);
}

void DiskCache::store(const CacheKey &key, const CacheEntry &entry) {
  if (!writable())
    return;
  if (std::error_code ec = fs::create_directories(folder_)) {
    failStore("cannot create it: " + ec.message());
    return;
  }
  llvm::SmallString<256> temp;
  int fd;
  if (std::error_code ec = fs::createUniqueFile(folder_ + "/" + key.digest + "-%%%%%%%%" + kTempSuffix.str(),
                                                fd, temp)) {
    failStore("cannot create a file in it: " + ec.message());
    return;
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  llvm::Error written = writer_(temp, encodeEntry(entry));
  std::error_code renamed;
  if (!written)
    renamed = fs::rename(temp, entryPath(key.digest));
  if (written || renamed) {
    std::string why = written ? llvm::toString(std::move(written)) : renamed.message();
    fs::remove(temp);
    failStore(why);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(statsMutex_);
    ++stats_.stores;
  }
  logMessage(2, "cache store " + key.digest);
  if (config_.maxBytes)
    prune(config_.maxBytes);
}

std::vector<DiskEntryInfo> DiskCache::list() const {
  std::vector<DiskEntryInfo> entries;
  std::error_code ec;
  for (fs::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!isEntryName(name))
      continue;
    fs::file_status status;
    if (fs::status(it->path(), status))
      continue;
    DiskEntryInfo info;
    info.path = it->path();
    info.digest = name.drop_back(kEntrySuffix.size()).str();
    info.bytes = status.getSize();
    info.lastAccess = status.getLastModificationTime();
    entries.push_back(std::move(info));
  }
  std::sort(entries.begin(), entries.end(), [](const DiskEntryInfo &a, const DiskEntryInfo &b) {
    return a.lastAccess != b.lastAccess ? a.lastAccess < b.lastAccess : a.digest < b.digest;
  });
  return entries;
}

std::vector<std::string> DiskCache::verify() const {
  std::vector<std::string> bad;
  for (const DiskEntryInfo &e : list()) {
    auto buffer = llvm::MemoryBuffer::getFile(e.path, false, false);
    if (!buffer) {
      bad.push_back(e.path + ": unreadable: " + buffer.getError().message());
      continue;
    }
    auto entry = decodeEntry((*buffer)->getBuffer());
    if (!entry) {
      bad.push_back(e.path + ": " + llvm::toString(entry.takeError()));
      continue;
    }
    if (makeCacheKeyDigest(entry->keyText) != e.digest)
      bad.push_back(e.path + ": its key text does not hash to its file name");
  }
  return bad;
}

size_t DiskCache::clear() {
  size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if ((isEntryName(name) || name.endswith(kTempSuffix)) && !fs::remove(it->path()))
      ++removed;
  }
  return removed;
}

size_t DiskCache::prune(uint64_t maxBytes) {
  std::vector<DiskEntryInfo> entries = list(); // oldest use first
  uint64_t total = 0;
  for (const DiskEntryInfo &e : entries)
    total += e.bytes;
  size_t removed = 0;
  for (const DiskEntryInfo &e : entries) {
    if (total <= maxBytes)
      break;
    if (!fs::remove(e.path)) {
      total -= e.bytes;
      ++removed;
      logMessage(2, "cache prune " + e.digest);
    }
  }
  std::lock_guard<std::mutex> lock(statsMutex_);
  stats_.pruned += removed;
  return removed;
}

DiskCacheStats DiskCache::stats() const {
  std::lock_guard<std::mutex> lock(statsMutex_);
  return stats_;
}

llvm::Expected<CacheConfig> cacheConfigFor(llvm::StringRef folder) {
  auto config = cacheConfigFromEnvironment();
  if (!config)
    return config.takeError();
  if (!folder.empty()) {
    config->root = folder.str();
    if (config->mode == CacheMode::Off)
      config->mode = CacheMode::On; // an explicit folder means: use it
  }
  return config;
}

} // namespace scanjit
