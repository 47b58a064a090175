// The disk cache under faults and concurrency: corrupt, truncated and
// foreign entries, unwritable folders, a full disk, pruning order, eight
// processes filling one folder, and precompiled kernels served without NVRTC.
#include "TestSpecs.h"

#include "cache/KernelStore.h"
#include "runtime/KernelRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fstream>
#include <unistd.h>

using namespace scanjit;
using scanjit::testing::mustParse;
namespace fs = llvm::sys::fs;

namespace {

struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { EXPECT_FALSE(fs::createUniqueDirectory("scanjit-cache-test", path)); }
  ~TempDir() { fs::remove_directories(path); }
  std::string sub(llvm::StringRef name) const { return (path + "/" + name).str(); }
};

struct Compiled {
  GeneratedKernel generated;
  CacheKey key;
  CacheEntry entry;
};

Compiled compileFor(llvm::StringRef spec) {
  Compiled c;
  c.generated = *generateKernel(mustParse(spec));
  c.key = makeCacheKey(currentKeyFields(c.generated, Target{90}));
  auto kernel = compileKernel(c.generated, Target{90});
  EXPECT_TRUE(bool(kernel));
  c.entry.keyText = c.key.text;
  c.entry.plan = c.generated.plan.toString();
  c.entry.kernel = *kernel;
  return c;
}

const Compiled &sample() {
  static const Compiled c = compileFor("sum f32[64,1000] dim=1 mask");
  return c;
}

CacheConfig configAt(const std::string &root, CacheMode mode = CacheMode::On) {
  CacheConfig c;
  c.root = root;
  c.mode = mode;
  return c;
}

std::string readFile(const std::string &path) {
  auto b = llvm::MemoryBuffer::getFile(path, false, false);
  return b ? (*b)->getBuffer().str() : "";
}

void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::ofstream(path, std::ios::binary) << bytes.str();
}

size_t tempFilesIn(const std::string &folder) {
  size_t n = 0;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    n += llvm::StringRef(it->path()).endswith(".tmp");
  return n;
}

TEST(CacheEntryFormat, RoundTripsEveryField) {
  const Compiled &c = sample();
  auto decoded = decodeEntry(encodeEntry(c.entry), c.key.text);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->keyText, c.entry.keyText);
  EXPECT_EQ(decoded->plan, c.entry.plan);
  EXPECT_EQ(decoded->kernel.entry, c.entry.kernel.entry);
  EXPECT_EQ(decoded->kernel.cubin, c.entry.kernel.cubin);
  EXPECT_EQ(decoded->kernel.log, c.entry.kernel.log);
  EXPECT_EQ(decoded->kernel.target, Target{90});
  EXPECT_EQ(decoded->kernel.resources.toString(), c.entry.kernel.resources.toString());
  EXPECT_EQ(decoded->kernel.resources.reported, c.entry.kernel.resources.reported);
}

TEST(CacheEntryFormat, RejectsEveryTruncationAndEveryFlippedByteChecked) {
  const std::string bytes = encodeEntry(sample().entry);
  for (size_t n = 0; n < bytes.size(); n += std::max<size_t>(1, bytes.size() / 301))
    EXPECT_FALSE(bool(decodeEntry(llvm::StringRef(bytes).take_front(n)))) << "prefix " << n;
  for (size_t at = 0; at < bytes.size(); at += std::max<size_t>(1, bytes.size() / 211)) {
    std::string bad = bytes;
    bad[at] ^= 0x20;
    auto d = decodeEntry(bad);
    EXPECT_FALSE(bool(d)) << "flipped byte " << at;
    if (!d)
      llvm::consumeError(d.takeError());
  }
  auto foreign = decodeEntry(bytes, "some other key");
  ASSERT_FALSE(bool(foreign));
  EXPECT_NE(llvm::toString(foreign.takeError()).find("foreign"), std::string::npos);
}

TEST(DiskCache, StoresThenHits) {
  TempDir dir;
  DiskCache disk(configAt(dir.path.str().str()));
  const Compiled &c = sample();
  EXPECT_FALSE(disk.lookup(c.key));
  disk.store(c.key, c.entry);
  auto hit = disk.lookup(c.key);
  ASSERT_TRUE(bool(hit));
  EXPECT_EQ(hit->kernel.cubin, c.entry.kernel.cubin);
  DiskCacheStats s = disk.stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.stores, 1u);
  EXPECT_EQ(tempFilesIn(disk.folder()), 0u);
  EXPECT_TRUE(disk.verify().empty());
}

TEST(DiskCache, CorruptTruncatedAndForeignEntriesAreCountedMissesThenReplaced) {
  TempDir dir;
  DiskCache disk(configAt(dir.path.str().str()));
  const Compiled &c = sample();
  disk.store(c.key, c.entry);
  const std::string path = disk.entryPath(c.key.digest);
  const std::string good = readFile(path);

  std::string corrupt = good;
  corrupt[good.size() / 2] ^= 1;
  writeFile(path, corrupt);
  EXPECT_FALSE(disk.lookup(c.key));
  EXPECT_EQ(disk.stats().bad, 1u);
  ASSERT_EQ(disk.verify().size(), 1u);
  EXPECT_NE(disk.verify()[0].find("checksum"), std::string::npos);

  writeFile(path, llvm::StringRef(good).take_front(good.size() - 7));
  EXPECT_FALSE(disk.lookup(c.key));
  EXPECT_EQ(disk.stats().bad, 2u);

  // A whole, valid entry of another key under this key's name.
  Compiled other = compileFor("max i32[8,100] dim=1");
  writeFile(path, encodeEntry(other.entry));
  EXPECT_FALSE(disk.lookup(c.key)) << "a foreign entry must never be served";
  EXPECT_EQ(disk.stats().bad, 3u);
  EXPECT_NE(disk.verify()[0].find("does not hash to its file name"), std::string::npos);

  disk.store(c.key, c.entry); // the next store replaces it
  auto hit = disk.lookup(c.key);
  ASSERT_TRUE(bool(hit));
  EXPECT_EQ(hit->kernel.cubin, c.entry.kernel.cubin);
  EXPECT_TRUE(disk.verify().empty());
}

TEST(DiskCache, AnUnwritableFolderDegradesToMemoryOnly) {
  TempDir dir;
  writeFile(dir.sub("a-file"), "not a folder");
  DiskCache disk(configAt(dir.sub("a-file") + "/cache")); // cannot be created
  disk.store(sample().key, sample().entry);
  EXPECT_FALSE(disk.writable());
  EXPECT_EQ(disk.stats().storeFailures, 1u);
  EXPECT_FALSE(disk.lookup(sample().key));
  disk.store(sample().key, sample().entry); // no further attempts
  EXPECT_EQ(disk.stats().storeFailures, 1u);

  if (geteuid() == 0)
    return; // root writes through permission bits; the case above covers it
  TempDir locked;
  DiskCache ro(configAt(locked.path.str().str()));
  ASSERT_FALSE(fs::create_directories(ro.folder()));
  fs::setPermissions(ro.folder(), fs::perms::owner_read | fs::perms::owner_exe);
  ro.store(sample().key, sample().entry);
  EXPECT_FALSE(ro.writable());
  fs::setPermissions(ro.folder(), fs::perms::all_all);
}

TEST(DiskCache, AFullDiskLeavesNoPartialEntry) {
  TempDir dir;
  auto diskFull = [](llvm::StringRef path, llvm::StringRef bytes) -> llvm::Error {
    // Write half, then fail the way a full disk does.
    std::ofstream(path.str(), std::ios::binary) << bytes.take_front(bytes.size() / 2).str();
    return llvm::createStringError(std::make_error_code(std::errc::no_space_on_device),
                                   "No space left on device");
  };
  DiskCache disk(configAt(dir.path.str().str()), diskFull);
  disk.store(sample().key, sample().entry);
  EXPECT_FALSE(disk.writable());
  EXPECT_EQ(disk.stats().storeFailures, 1u);
  EXPECT_EQ(tempFilesIn(disk.folder()), 0u) << "the half-written temporary file must be removed";
  EXPECT_TRUE(disk.list().empty());
  EXPECT_FALSE(disk.lookup(sample().key));
}

TEST(DiskCache, ReadOnlyModeReadsButNeverWrites) {
  TempDir dir;
  DiskCache writer(configAt(dir.path.str().str()));
  writer.store(sample().key, sample().entry);
  DiskCache reader(configAt(dir.path.str().str(), CacheMode::ReadOnly));
  EXPECT_TRUE(bool(reader.lookup(sample().key)));
  Compiled other = compileFor("sum f64[4,4] dim=0");
  reader.store(other.key, other.entry);
  EXPECT_FALSE(bool(reader.lookup(other.key)));
  EXPECT_EQ(reader.list().size(), 1u);
  DiskCache off(configAt(dir.path.str().str(), CacheMode::Off));
  EXPECT_FALSE(bool(off.lookup(sample().key)));
}

TEST(DiskCache, PrunesLeastRecentlyUsedFirst) {
  TempDir dir;
  DiskCache disk(configAt(dir.path.str().str()));
  std::vector<Compiled> entries;
  // (Four shape classes: row counts alone would share one kernel.)
  for (const char *s : {"sum f32[9,100] dim=1", "sum f32[9,101] dim=1", "sum f32[9,102] dim=1",
                        "sum f32[9,103] dim=1"})
    entries.push_back(compileFor(s));
  // Store in order, with uses a second apart: entry 0 oldest.
  auto base = std::chrono::system_clock::now() - std::chrono::hours(1);
  for (size_t i = 0; i < entries.size(); ++i) {
    disk.store(entries[i].key, entries[i].entry);
    int fd;
    ASSERT_FALSE(fs::openFileForWrite(disk.entryPath(entries[i].key.digest), fd, fs::CD_OpenExisting,
                                      fs::OF_Append));
    fs::setLastAccessAndModificationTime(
        fd, std::chrono::time_point_cast<std::chrono::nanoseconds>(base + std::chrono::seconds(i)));
    ::close(fd);
  }
  // Using entry 0 makes it the most recent.
  ASSERT_TRUE(bool(disk.lookup(entries[0].key)));
  uint64_t total = 0;
  for (const auto &e : disk.list())
    total += e.bytes;
  const uint64_t one = disk.list().front().bytes;
  EXPECT_EQ(disk.prune(total - one), 1u); // drops exactly the least recently used
  EXPECT_FALSE(bool(disk.lookup(entries[1].key)));
  for (size_t i : {0u, 2u, 3u})
    EXPECT_TRUE(bool(disk.lookup(entries[i].key))) << i;
}

TEST(DiskCache, EightProcessesPrecompilingOneManifestAtOnce) {
  TempDir dir;
  const std::string manifest = dir.sub("specs.txt");
  writeFile(manifest, "# same manifest for everyone\nsum f32[100,1000] dim=1\nsum f32[100,1000] dim=0 reverse\n"
                      "max i32[64,64] dim=1 mask exclusive\nlogsumexp f16[7,300] dim=1\n"
                      "sum f32[30,40] dim=1 strides=[1,30]\nprod bf16[1000,37] dim=1 reverse\n");
  const std::string cacheDir = dir.sub("cache");
  std::vector<llvm::sys::ProcessInfo> procs;
  std::vector<std::string> outputs;
  for (int i = 0; i < 8; ++i) {
    outputs.push_back(dir.sub("out" + std::to_string(i)));
    llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::StringRef(outputs.back()),
                                                   llvm::StringRef(outputs.back())};
    std::string error;
    procs.push_back(llvm::sys::ExecuteNoWait(SCANJIT_CLI_PATH,
                                             {SCANJIT_CLI_PATH, "precompile", "--manifest", manifest,
                                              "--cache-dir", cacheDir, "--arch", "sm_90", "-j", "2"},
                                             llvm::None, redirects, 0, &error));
    ASSERT_NE(procs.back().Pid, 0) << error;
  }
  int compiledTotal = 0;
  for (size_t i = 0; i < procs.size(); ++i) {
    llvm::sys::ProcessInfo done = llvm::sys::Wait(procs[i], 0, /*WaitUntilTerminates=*/true);
    std::string out = readFile(outputs[i]);
    EXPECT_EQ(done.ReturnCode, 0) << out;
    int compiled = 0, cached = 0, failed = 0;
    size_t at = out.find("compiled=");
    ASSERT_NE(at, std::string::npos) << out;
    ASSERT_EQ(sscanf(out.c_str() + at, "compiled=%d cached=%d failed=%d", &compiled, &cached, &failed), 3);
    EXPECT_EQ(compiled + cached, 6) << out;
    EXPECT_EQ(failed, 0) << out;
    compiledTotal += compiled;
  }
  EXPECT_GE(compiledTotal, 6); // someone compiled each; races may compile one twice
  DiskCache disk(configAt(cacheDir));
  EXPECT_EQ(disk.list().size(), 6u);
  EXPECT_TRUE(disk.verify().empty());
  EXPECT_EQ(tempFilesIn(disk.folder()), 0u) << "nothing half-written may remain";
}

TEST(DiskCache, DumpDirSavesTheSourceOfEachCompile) {
  TempDir dir;
  setenv("SCANJIT_DUMP_DIR", dir.sub("dump").c_str(), 1);
  DiskCache disk(configAt(dir.sub("cache")));
  Compiled c = compileFor("min i16[5,700] dim=1 reverse");
  auto stored = loadOrCompile(disk, c.generated, Target{90}, c.key);
  unsetenv("SCANJIT_DUMP_DIR");
  ASSERT_TRUE(bool(stored));
  EXPECT_FALSE(stored->fromDisk);
  const std::string dumped = readFile(dir.sub("dump") + "/" + c.generated.plan.entry + "-" +
                                      c.key.digest.substr(0, 12) + ".cu");
  EXPECT_EQ(dumped, c.generated.source);
  auto again = loadOrCompile(disk, c.generated, Target{90}, c.key);
  ASSERT_TRUE(bool(again));
  EXPECT_TRUE(again->fromDisk) << "the compile was published to the disk cache";
}

TEST(DiskCache, PrecompiledKernelsAreServedWithoutCompiling) {
  // The registry reads SCANJIT_CACHE_DIR once per process: this is the only
  // test in this binary that goes through it.
  TempDir dir;
  const std::string cacheDir = dir.sub("cache");
  const char *specs[] = {"sum f32[123,4567] dim=1 mask", "max f16[50,51] dim=0 reverse",
                         "sum i32[99,33] dim=1 exclusive"};
  std::vector<std::string> args = {SCANJIT_CLI_PATH, "precompile", "--cache-dir", cacheDir, "--arch", "sm_90"};
  args.insert(args.end(), std::begin(specs), std::end(specs));
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  ASSERT_EQ(llvm::sys::ExecuteAndWait(SCANJIT_CLI_PATH, argRefs), 0);

  setenv("SCANJIT_CACHE_DIR", cacheDir.c_str(), 1);
  detail::RegistryStats before = detail::registryStats();
  for (const char *s : specs) {
    auto entry = detail::findOrCompile(llvm::StringRef(s), Target{90});
    ASSERT_TRUE(bool(entry)) << llvm::toString(entry.takeError());
    EXPECT_FALSE((*entry)->kernel->compiled.cubin.empty());
  }
  detail::RegistryStats after = detail::registryStats();
  EXPECT_EQ(after.compiles - before.compiles, 0u) << "every spec was precompiled";
  EXPECT_EQ(after.diskHits - before.diskHits, 3u);
  ASSERT_TRUE(bool(detail::findOrCompile(llvm::StringRef(specs[0]), Target{90})));
  EXPECT_EQ(detail::registryStats().memoryHits - after.memoryHits, 1u);
}

} // namespace
