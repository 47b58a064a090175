#include "cache/CacheEntry.h"
#include "compiler/Diagnostics.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/SHA256.h"

namespace scanjit {
namespace {

using detail::makeError;
using detail::makeErrorF;

constexpr size_t kChecksumBytes = 32;
constexpr uint32_t kFieldCount = 7;

void putU32(std::string &out, uint32_t v) {
  char b[4];
  llvm::support::endian::write32le(b, v);
  out.append(b, 4);
}

void putField(std::string &out, llvm::StringRef bytes) {
  char b[8];
  llvm::support::endian::write64le(b, bytes.size());
  out.append(b, 8);
  out.append(bytes.data(), bytes.size());
}

std::string resourcesText(const KernelResources &r) {
  return "reported=" + std::to_string(r.reported ? 1 : 0) + "\nfrom_cubin=" + std::to_string(r.fromCubin ? 1 : 0) +
         "\n" + r.toString();
}

KernelResources parseResources(llvm::StringRef text) {
  KernelResources r;
  llvm::SmallVector<llvm::StringRef, 8> lines;
  text.split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto [key, value] = line.split('=');
    int v = KernelResources::kUnknown; // ("unknown", or a field this version does not know)
    value.getAsInteger(10, v);
    if (key == "reported") r.reported = v == 1;
    else if (key == "from_cubin") r.fromCubin = v == 1;
    else if (key == "registers") r.registers = v;
    else if (key == "spill_stores") r.spillStores = v;
    else if (key == "spill_loads") r.spillLoads = v;
    else if (key == "stack_bytes") r.stackBytes = v;
    else if (key == "shared_bytes") r.sharedBytes = v;
    else if (key == "barriers") r.barriers = v;
    else if (key == "asked_blocks") r.askedBlocks = v;
    else if (key == "first_registers") r.firstRegisters = v;
  }
  return r;
}

} // namespace

std::string encodeEntry(const CacheEntry &e) {
  std::string out(kEntryMagic.data(), kEntryMagic.size());
  putU32(out, kEntryFileFormat);
  putU32(out, kFieldCount);
  const std::string arch = e.kernel.target.name();
  const std::string resources = resourcesText(e.kernel.resources);
  for (llvm::StringRef field : {llvm::StringRef(e.keyText), llvm::StringRef(e.kernel.entry),
                                llvm::StringRef(arch), llvm::StringRef(e.plan), llvm::StringRef(resources),
                                llvm::StringRef(e.kernel.log), llvm::StringRef(e.kernel.cubin)})
    putField(out, field);
  llvm::SHA256 hash;
  hash.update(out);
  out += hash.final().str();
  return out;
}

llvm::Expected<CacheEntry> decodeEntry(llvm::StringRef bytes, llvm::StringRef expectedKeyText) {
  const size_t header = kEntryMagic.size() + 8;
  if (bytes.size() < header + kChecksumBytes)
    return makeErrorF(ErrorCode::CacheError, "truncated ({0} bytes)", bytes.size());
  if (!bytes.startswith(kEntryMagic))
    return makeError(ErrorCode::CacheError, "not a scanjit cache entry (bad magic)");
  const char *p = bytes.data() + kEntryMagic.size();
  uint32_t version = llvm::support::endian::read32le(p);
  uint32_t fields = llvm::support::endian::read32le(p + 4);
  if (version != kEntryFileFormat || fields != kFieldCount)
    return makeErrorF(ErrorCode::CacheError, "format version {0} with {1} fields (expected {2}, {3})",
                      version, fields, kEntryFileFormat, kFieldCount);
  llvm::StringRef body = bytes.drop_back(kChecksumBytes);
  llvm::SHA256 hash;
  hash.update(body);
  if (hash.final() != bytes.take_back(kChecksumBytes))
    return makeError(ErrorCode::CacheError, "checksum mismatch (corrupt or truncated)");

  llvm::StringRef rest = body.drop_front(header);
  llvm::SmallVector<llvm::StringRef, kFieldCount> values;
  for (uint32_t i = 0; i < kFieldCount; ++i) {
    if (rest.size() < 8)
      return makeErrorF(ErrorCode::CacheError, "field {0} is cut off", i);
    uint64_t length = llvm::support::endian::read64le(rest.data());
    rest = rest.drop_front(8);
    if (length > rest.size())
      return makeErrorF(ErrorCode::CacheError, "field {0} claims {1} bytes, {2} remain", i, length,
                        rest.size());
    values.push_back(rest.take_front(length));
    rest = rest.drop_front(length);
  }
  if (!rest.empty())
    return makeErrorF(ErrorCode::CacheError, "{0} stray bytes after the fields", rest.size());
  if (!expectedKeyText.empty() && values[0] != expectedKeyText)
    return makeError(ErrorCode::CacheError, "foreign entry: its key text differs from the key asked for");

  CacheEntry e;
  e.keyText = values[0].str();
  e.kernel.entry = values[1].str();
  auto target = parseTarget(values[2]);
  if (!target)
    return makeErrorF(ErrorCode::CacheError, "bad arch '{0}': {1}", values[2],
                      llvm::toString(target.takeError()));
  e.kernel.target = *target;
  e.plan = values[3].str();
  e.kernel.resources = parseResources(values[4]);
  e.kernel.log = values[5].str();
  e.kernel.cubin = values[6].str();
  if (e.kernel.entry.empty() || e.kernel.cubin.empty())
    return makeError(ErrorCode::CacheError, "entry name or cubin is empty");
  completeResources(e.kernel); // (entries written when ptxas's report was missing)
  return e;
}

} // namespace scanjit
