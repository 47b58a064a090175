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
  auto figure = [&](const char *key, int value) {
    os << key << "=";
    if (value == kUnknown)
      os << "unknown";
    else
      os << value;
    os << "\n";
  };
  figure("registers", registers);
  figure("spill_stores", spillStores);
  figure("spill_loads", spillLoads);
  figure("stack_bytes", stackBytes);
  figure("shared_bytes", sharedBytes);
  figure("barriers", barriers);
  if (askedBlocks > 0) {
    figure("asked_blocks", askedBlocks);
    figure("first_registers", firstRegisters);
  }
  return os.str();
}

// Attribution follows ptxas's order: "Compiling entry function 'X'" opens
// X's section and its "Used N registers" line closes it; "Function
// properties for Y" heads the stack/spill line of Y, which may be a callee
// printed inside X's section, so only lines headed by X itself count.
llvm::Expected<KernelResources> parsePtxasReport(llvm::StringRef log, llvm::StringRef entry) {
  KernelResources r;
  bool inEntrySection = false, propertiesOfEntry = false, found = false;
  llvm::SmallVector<llvm::StringRef, 32> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.contains("Compiling entry function")) {
      inEntrySection = line.contains("'" + entry.str() + "'");
      propertiesOfEntry = false;
    } else if (line.contains("Function properties for ")) {
      propertiesOfEntry = line.trim().endswith(" " + entry.str());
    } else if (line.contains("bytes stack frame")) {
      if (propertiesOfEntry) {
        r.stackBytes = numberBefore(line, "bytes stack frame");
        r.spillStores = numberBefore(line, "bytes spill stores");
        r.spillLoads = numberBefore(line, "bytes spill loads");
      }
      propertiesOfEntry = false;
    } else if (inEntrySection && line.contains("Used ") && line.contains(" registers")) {
      r.registers = numberBefore(line, "registers");
      r.barriers = numberBefore(line, "barriers");
      r.sharedBytes = numberBefore(line, "bytes smem");
      found = true;
      r.reported = true;
      inEntrySection = false;
    }
  }
  if (!found)
    return detail::makeErrorF(ErrorCode::Internal,
                              "the ptxas report has no register count for '{0}'; the NVRTC log "
                              "was:\n{1}",
                              entry, log.take_front(4000));
  return r;
}

} // namespace scanjit
