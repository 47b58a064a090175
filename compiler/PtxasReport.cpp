// Reads registers, spills, stack and shared memory off ptxas's -v report:
//   ptxas info    : Function properties for <entry>
//   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 30 registers, used 1 barriers, 64 bytes smem, ...
#include "compiler/CompiledKernel.h"
#include "compiler/Diagnostics.h"

#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

namespace scanjit {
namespace {

int numberBefore(llvm::StringRef line, llvm::StringRef suffix) {
  llvm::Regex re("([0-9]+) " + suffix.str());
  llvm::SmallVector<llvm::StringRef, 2> m;
  int v = 0;
  if (re.match(line, &m))
    m[1].getAsInteger(10, v);
  return v;
}

} // namespace

std::string KernelResources::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "registers=" << registers << "\nspill_stores=" << spillStores
     << "\nspill_loads=" << spillLoads << "\nstack_bytes=" << stackBytes
     << "\nshared_bytes=" << sharedBytes << "\nbarriers=" << barriers << "\n";
  return os.str();
}

llvm::Expected<KernelResources> parsePtxasReport(llvm::StringRef log, llvm::StringRef entry) {
  KernelResources r;
  bool inEntry = false, found = false;
  llvm::SmallVector<llvm::StringRef, 32> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.contains("Function properties for ")) {
      inEntry = line.trim().endswith(entry);
      continue;
    }
    if (line.contains("Compiling entry function")) {
      inEntry = line.contains("'" + entry.str() + "'");
      continue;
    }
    if (!inEntry)
      continue;
    if (line.contains("bytes stack frame")) {
      r.stackBytes = numberBefore(line, "bytes stack frame");
      r.spillStores = numberBefore(line, "bytes spill stores");
      r.spillLoads = numberBefore(line, "bytes spill loads");
    } else if (line.contains("Used ") && line.contains(" registers")) {
      r.registers = numberBefore(line, "registers");
      r.barriers = numberBefore(line, "barriers");
      r.sharedBytes = numberBefore(line, "bytes smem");
      found = true;
    }
  }
  if (!found)
    return detail::makeErrorF(ErrorCode::Internal,
                              "the ptxas report has no register count for '{0}'", entry);
  return r;
}

} // namespace scanjit
