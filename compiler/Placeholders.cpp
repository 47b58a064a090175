#include "compiler/Placeholders.h"
#include "compiler/Diagnostics.h"

#include "llvm/ADT/StringMap.h"

namespace scanjit::detail {

llvm::Expected<std::string> fillPlaceholders(llvm::StringRef text,
                                             llvm::ArrayRef<Substitution> values) {
  llvm::StringMap<std::pair<std::string, bool>> table; // value, used
  for (const Substitution &s : values)
    if (!table.try_emplace(s.first, s.second, false).second)
      return makeErrorF(ErrorCode::Internal, "placeholder '{0}' is given twice", s.first);
  std::string result;
  result.reserve(text.size() * 2);
  while (!text.empty()) {
    size_t open = text.find("{{");
    result += text.take_front(open).str();
    if (open == llvm::StringRef::npos)
      break;
    text = text.drop_front(open + 2);
    size_t close = text.find("}}");
    if (close == llvm::StringRef::npos)
      return makeError(ErrorCode::Internal, "unterminated '{{' in a source template");
    llvm::StringRef name = text.take_front(close);
    auto it = table.find(name);
    if (it == table.end())
      return makeErrorF(ErrorCode::Internal, "placeholder '{0}' has no value", name);
    result += it->second.first;
    it->second.second = true;
    text = text.drop_front(close + 2);
  }
  for (const auto &entry : table)
    if (!entry.second.second)
      return makeErrorF(ErrorCode::Internal, "value for '{0}' matches no placeholder",
                        entry.first());
  return result;
}

} // namespace scanjit::detail
