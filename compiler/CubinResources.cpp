// Reads a kernel's resources off its cubin (an ELF64 file), for when NVRTC's
// log carries no ptxas report (seen on GPU machines): the cubin is always
// there, and the driver reads the same records when it loads it.
//   .nv.info: per-function attributes; EIATTR_REGCOUNT (0x2f) and
//             EIATTR_FRAME_SIZE (0x11) hold (symbol index, value) pairs.
//   .nv.shared.<entry>: the function's static shared memory. Where the cubin
//             has a .nv.shared.reserved.* section (sm_90 and later), the
//             first 1 KB of it is the block's reserved window, which ptxas's
//             "bytes smem" leaves out; so does this.
// Spill bytes are not recorded: a function with no stack frame has none.
#include "compiler/CompiledKernel.h"
#include "compiler/Diagnostics.h"

#include "llvm/Support/Endian.h"

namespace scanjit {
namespace {

using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

constexpr uint8_t kAttrFormatSizedValue = 0x04; // EIFMT_SVAL: u16 size, then the value
constexpr uint8_t kAttrRegisterCount = 0x2f;     // EIATTR_REGCOUNT
constexpr uint8_t kAttrFrameSize = 0x11;         // EIATTR_FRAME_SIZE
constexpr uint64_t kReservedSharedBytes = 1024;

struct Section {
  llvm::StringRef name, bytes;
  uint32_t link = 0;
  uint64_t size = 0; // (NOBITS sections have a size but no bytes)
};

llvm::Error malformed(llvm::StringRef what) {
  return detail::makeErrorF(ErrorCode::Internal, "the cubin is malformed: {0}", what);
}

llvm::Expected<std::vector<Section>> readSections(llvm::StringRef elf) {
  if (elf.size() < 64 || !elf.startswith("\x7f"
                                         "ELF") ||
      elf[4] != 2 || elf[5] != 1)
    return malformed("not a little-endian ELF64 file");
  const uint8_t *base = elf.bytes_begin();
  const uint64_t shoff = read64le(base + 0x28);
  const uint16_t shentsize = read16le(base + 0x3a), shnum = read16le(base + 0x3c),
                 shstrndx = read16le(base + 0x3e);
  if (shentsize < 64 || shoff + uint64_t(shnum) * shentsize > elf.size() || shstrndx >= shnum)
    return malformed("section headers out of range");
  std::vector<Section> sections(shnum);
  std::vector<uint32_t> nameOffsets(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    const uint8_t *h = base + shoff + uint64_t(i) * shentsize;
    const uint32_t type = read32le(h + 4);
    const uint64_t offset = read64le(h + 0x18), size = read64le(h + 0x20);
    nameOffsets[i] = read32le(h);
    sections[i].link = read32le(h + 0x28);
    sections[i].size = size;
    if (type != 8 /* SHT_NOBITS */) {
      if (offset + size > elf.size())
        return malformed("a section runs past the end of the file");
      sections[i].bytes = elf.substr(offset, size);
    }
  }
  llvm::StringRef names = sections[shstrndx].bytes;
  for (uint16_t i = 0; i < shnum; ++i) {
    if (nameOffsets[i] >= names.size())
      return malformed("a section name out of range");
    sections[i].name = names.drop_front(nameOffsets[i]).split('\0').first;
  }
  return sections;
}

// The .symtab index of `entry`, which .nv.info's records name.
llvm::Optional<uint32_t> symbolIndex(const std::vector<Section> &sections, llvm::StringRef entry) {
  for (const Section &s : sections) {
    if (s.name != ".symtab" || s.link >= sections.size())
      continue;
    llvm::StringRef strings = sections[s.link].bytes;
    for (uint64_t at = 0, index = 0; at + 24 <= s.bytes.size(); at += 24, ++index) {
      const uint32_t nameOffset = read32le(s.bytes.bytes_begin() + at);
      if (nameOffset < strings.size() && strings.drop_front(nameOffset).split('\0').first == entry)
        return uint32_t(index);
    }
  }
  return llvm::None;
}

} // namespace

llvm::Expected<KernelResources> readCubinResources(llvm::StringRef cubin, llvm::StringRef entry) {
  auto sections = readSections(cubin);
  if (!sections)
    return sections.takeError();
  auto symbol = symbolIndex(*sections, entry);
  if (!symbol)
    return detail::makeErrorF(ErrorCode::Internal, "the cubin has no symbol '{0}'", entry);
  KernelResources r;
  bool foundRegisters = false, hasReservedShared = false;
  uint64_t sharedSection = 0;
  for (const Section &s : *sections) {
    if (s.name == ".nv.info") {
      const uint8_t *p = s.bytes.bytes_begin(), *end = s.bytes.bytes_end();
      while (p + 4 <= end) {
        const uint8_t format = p[0], attribute = p[1];
        const uint16_t size = format == kAttrFormatSizedValue ? read16le(p + 2) : 0;
        const uint8_t *value = p + 4;
        if (value + size > end)
          return malformed(".nv.info runs past its section");
        if (size == 8 && read32le(value) == *symbol) {
          if (attribute == kAttrRegisterCount) {
            r.registers = int(read32le(value + 4));
            foundRegisters = true;
          } else if (attribute == kAttrFrameSize) {
            r.stackBytes = int(read32le(value + 4));
          }
        }
        p = value + size;
      }
    } else if (s.name == (".nv.shared." + entry).str()) {
      sharedSection = s.size;
    } else if (s.name.startswith(".nv.shared.reserved.")) {
      hasReservedShared = true;
    }
  }
  if (!foundRegisters)
    return detail::makeErrorF(ErrorCode::Internal, "the cubin's .nv.info has no register count for '{0}'",
                              entry);
  r.sharedBytes = int(hasReservedShared && sharedSection >= kReservedSharedBytes
                          ? sharedSection - kReservedSharedBytes
                          : sharedSection);
  r.spillStores = r.spillLoads = r.stackBytes == 0 ? 0 : KernelResources::kUnknown;
  r.barriers = KernelResources::kUnknown;
  r.fromCubin = true;
  return r;
}

void completeResources(CompiledKernel &kernel) {
  if (kernel.resources.known())
    return;
  auto r = readCubinResources(kernel.cubin, kernel.entry);
  if (r)
    kernel.resources = *r;
  else
    llvm::consumeError(r.takeError());
}

} // namespace scanjit
