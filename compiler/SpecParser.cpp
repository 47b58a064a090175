// Parser for the canonical spec text. Every failure names the token and says
// what was expected; validation of the parsed values is validateSpec's job.
#include "compiler/Diagnostics.h"
#include "compiler/ScanSpec.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace scanjit {
namespace {

using detail::makeErrorF;

std::string allOpNames() {
  std::string names;
  for (ScanOp op : kAllOps)
    names += (names.empty() ? "" : ", ") + opName(op).str();
  return names;
}

std::string allDTypeNames() {
  std::string names;
  for (DType t : kAllDTypes)
    names += (names.empty() ? "" : ", ") + dtypeName(t).str();
  return names;
}

// Parses "[a,b,c]" (possibly "[]") into integers; `what` names the token.
llvm::Expected<Dims> parseIntList(llvm::StringRef text, llvm::StringRef token) {
  if (!text.consume_front("[") || !text.consume_back("]"))
    return makeErrorF(ErrorCode::InvalidSpec,
                      "token '{0}': expected a bracketed list like [4,8]", token);
  Dims values;
  if (text.trim().empty())
    return values;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    int64_t v = 0;
    if (part.trim().getAsInteger(10, v))
      return makeErrorF(ErrorCode::InvalidSpec, "token '{0}': '{1}' is not an integer",
                        token, part);
    values.push_back(v);
  }
  if (values.size() > static_cast<size_t>(kMaxRank))
    return makeErrorF(ErrorCode::InvalidSpec,
                      "token '{0}': rank {1} exceeds the maximum of {2}", token,
                      values.size(), kMaxRank);
  return values;
}

llvm::Expected<DType> parseDTypeToken(llvm::StringRef name, llvm::StringRef token) {
  if (auto t = parseDType(name))
    return *t;
  return makeErrorF(ErrorCode::InvalidSpec, "token '{0}': unknown dtype '{1}' (expected one of {2})",
                    token, name, allDTypeNames());
}

// The stride list a "<name>=[...]" token sets, or null.
Dims *stridesField(ScanSpec &spec, llvm::StringRef name) {
  if (name == "strides")
    return &spec.inStrides;
  if (name == "out_strides")
    return &spec.outStrides;
  if (name == "mask_strides")
    return &spec.maskStrides;
  return nullptr;
}

} // namespace

llvm::Expected<ScanSpec> parseSpec(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 12> tokens;
  text.split(tokens, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef &t : tokens)
    t = t.trim();
  llvm::erase_if(tokens, [](llvm::StringRef t) { return t.empty(); });
  if (tokens.size() < 3)
    return makeErrorF(ErrorCode::InvalidSpec,
                      "spec '{0}' is incomplete: expected '<op> <dtype>[<sizes>] dim=<d> [flags]'",
                      text.trim());

  ScanSpec spec;
  auto op = parseOp(tokens[0]);
  if (!op)
    return makeErrorF(ErrorCode::InvalidSpec, "token '{0}': unknown op (expected one of {1})",
                      tokens[0], allOpNames());
  spec.op = *op;

  llvm::StringRef tensor = tokens[1];
  size_t bracket = tensor.find('[');
  if (bracket == llvm::StringRef::npos)
    return makeErrorF(ErrorCode::InvalidSpec,
                      "token '{0}': expected <dtype>[<sizes>], e.g. f32[32768,32768]", tensor);
  auto in = parseDTypeToken(tensor.take_front(bracket), tensor);
  if (!in)
    return in.takeError();
  spec.in = *in;
  auto shape = parseIntList(tensor.drop_front(bracket), tensor);
  if (!shape)
    return shape.takeError();
  spec.shape = *shape;

  bool haveDim = false, haveOut = false;
  llvm::StringSet<> seen;
  for (llvm::StringRef token : llvm::makeArrayRef(tokens).drop_front(2)) {
    auto [key, value] = token.split('=');
    if (!seen.insert(key).second)
      return makeErrorF(ErrorCode::InvalidSpec, "token '{0}': '{1}' is given twice", token, key);
    bool hasValue = token.contains('=');
    if (key == "dim" && hasValue) {
      int64_t d = 0;
      if (value.getAsInteger(10, d) || d < INT32_MIN || d > INT32_MAX)
        return makeErrorF(ErrorCode::InvalidSpec, "token '{0}': dim must be an integer", token);
      spec.dim = static_cast<int>(d);
      haveDim = true;
    } else if (Dims *strides = stridesField(spec, key); strides && hasValue) {
      auto list = parseIntList(value, token);
      if (!list)
        return list.takeError();
      *strides = *list;
    } else if (key == "out" && hasValue) {
      auto out = parseDTypeToken(value, token);
      if (!out)
        return out.takeError();
      spec.out = *out;
      haveOut = true;
    } else if (!hasValue && key == "mask") {
      spec.mask = true;
    } else if (!hasValue && key == "reverse") {
      spec.reverse = true;
    } else if (!hasValue && key == "exclusive") {
      spec.exclusive = true;
    } else if (!hasValue && key == "indices") {
      spec.indices = true;
    } else {
      return makeErrorF(ErrorCode::InvalidSpec,
                        "token '{0}': unknown token (expected dim=, strides=, out=, "
                        "out_strides=, mask, mask_strides=, reverse, exclusive or indices)",
                        token);
    }
  }
  if (!haveDim)
    return makeErrorF(ErrorCode::InvalidSpec, "spec '{0}' has no dim=<d> token", text.trim());
  if (!spec.maskStrides.empty() && !spec.mask)
    return makeErrorF(ErrorCode::InvalidSpec,
                      "token 'mask_strides=...': given without the 'mask' flag");
  if (!haveOut)
    spec.out = defaultOutputType(spec.op, spec.in);
  if (llvm::Error e = validateSpec(spec))
    return e;
  return spec;
}

} // namespace scanjit
