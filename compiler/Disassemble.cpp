#include "compiler/Disassemble.h"
#include "compiler/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace scanjit {

llvm::Expected<std::string> disassembleCubin(llvm::StringRef cubin) {
  llvm::SmallString<128> cubinPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("scanjit", "cubin", cubinPath))
    return detail::makeErrorF(ErrorCode::Internal, "cannot create a temporary file: {0}", ec.message());
  llvm::FileRemover removeCubin(cubinPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(cubinPath, ec);
    if (ec)
      return detail::makeErrorF(ErrorCode::Internal, "cannot write {0}: {1}", cubinPath, ec.message());
    os << cubin;
  }
  // $SCANJIT_NVDISASM, else PATH, else the one found at build time.
  llvm::ErrorOr<std::string> nvdisasm = std::make_error_code(std::errc::no_such_file_or_directory);
  if (const char *env = std::getenv("SCANJIT_NVDISASM"); env && *env)
    nvdisasm = std::string(env);
  else if (!(nvdisasm = llvm::sys::findProgramByName("nvdisasm")))
    if (llvm::sys::fs::can_execute(SCANJIT_NVDISASM))
      nvdisasm = std::string(SCANJIT_NVDISASM);
  if (!nvdisasm)
    return detail::makeError(ErrorCode::Unsupported,
                             "--emit sass needs nvdisasm (CUDA toolkit or the nvidia-cuda-nvdisasm wheel): "
                             "put it on PATH or set SCANJIT_NVDISASM");
  llvm::SmallString<128> sassPath;
  llvm::sys::fs::createTemporaryFile("scanjit", "sass", sassPath);
  llvm::FileRemover removeSass(sassPath);
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::StringRef(sassPath),
                                                 llvm::StringRef(sassPath)};
  std::string errorText;
  int rc = llvm::sys::ExecuteAndWait(*nvdisasm, {*nvdisasm, "-c", cubinPath}, llvm::None, redirects,
                                     0, 0, &errorText);
  auto text = llvm::MemoryBuffer::getFile(sassPath);
  if (rc != 0 || !text)
    return detail::makeErrorF(ErrorCode::Internal, "nvdisasm failed ({0}): {1}", rc,
                              text ? (*text)->getBuffer().str() : errorText);
  return (*text)->getBuffer().str();
}

} // namespace scanjit
