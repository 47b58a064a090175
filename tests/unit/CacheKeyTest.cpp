// The key changes with every field and only with them.
#include "TestSpecs.h"

#include "cache/CacheKey.h"

using namespace scanjit;
using scanjit::testing::mustParse;

namespace {

CacheKeyFields fieldsFor(llvm::StringRef spec, Target target = Target{90}) {
  auto generated = generateKernel(mustParse(spec));
  EXPECT_TRUE(bool(generated));
  return currentKeyFields(*generated, target);
}

TEST(CacheKey, EveryFieldChangesTheDigest) {
  const CacheKeyFields base = fieldsFor("sum f32[64,1024] dim=1");
  const std::string digest = makeCacheKey(base).digest;
  EXPECT_EQ(digest.size(), 64u);
  EXPECT_EQ(makeCacheKey(base).digest, digest) << "not deterministic";

  std::vector<std::pair<const char *, void (*)(CacheKeyFields &)>> edits = {
      {"format", [](CacheKeyFields &f) { f.formatVersion += 1; }},
      {"scanjit", [](CacheKeyFields &f) { f.scanjitVersion += "+1"; }},
      {"templates", [](CacheKeyFields &f) { f.templatesDigest[0] ^= 1; }},
      {"spec", [](CacheKeyFields &f) { f.spec += " reverse"; }},
      {"plan", [](CacheKeyFields &f) { f.plan += " "; }},
      {"nvrtc", [](CacheKeyFields &f) { f.nvrtcVersion = "99.9"; }},
      {"arch", [](CacheKeyFields &f) { f.arch = "sm_80"; }},
      {"options", [](CacheKeyFields &f) { f.options += " -G"; }},
      {"compile", [](CacheKeyFields &f) { f.compileRules += "1"; }},
  };
  for (auto &[name, edit] : edits) {
    CacheKeyFields changed = base;
    edit(changed);
    EXPECT_NE(makeCacheKey(changed).digest, digest) << "field " << name << " does not reach the key";
  }
}

TEST(CacheKey, FieldsAreLengthPrefixedSoBoundariesCannotShift) {
  CacheKeyFields a = fieldsFor("sum f32[8] dim=0"), b = a;
  a.spec = "ab";
  a.plan = "c";
  b.spec = "a";
  b.plan = "bc";
  EXPECT_NE(makeCacheKey(a).digest, makeCacheKey(b).digest);
}

TEST(CacheKey, SpellingsOfOneSpecShareAKeyAndDifferentSpecsDoNot) {
  auto digest = [](llvm::StringRef s, int sm = 90) { return makeCacheKey(fieldsFor(s, Target{sm})).digest; };
  EXPECT_EQ(digest("sum f32[4,8] dim=-1"), digest("sum f32[4,8] dim=1 strides=[8,1]"));
  EXPECT_NE(digest("sum f32[4,8] dim=1"), digest("sum f32[4,8] dim=1 reverse"));
  EXPECT_NE(digest("sum f32[4,8] dim=1"), digest("sum f32[4,9] dim=1"));
  EXPECT_NE(digest("sum f32[4,8] dim=1"), digest("sum f32[4,8] dim=1", 80));
}

TEST(CacheKey, FieldsReadBackFromTheText) {
  CacheKeyFields f = fieldsFor("sum f32[8] dim=0 mask");
  f.options = "a b\nc"; // spaces and newlines inside a value
  CacheKey key = makeCacheKey(f);
  EXPECT_EQ(keyField(key.text, "spec").getValueOr(""), "sum f32[8] dim=0 mask");
  EXPECT_EQ(keyField(key.text, "arch").getValueOr(""), "sm_90");
  EXPECT_EQ(keyField(key.text, "options").getValueOr(""), "a b\nc");
  EXPECT_FALSE(keyField(key.text, "missing"));
  EXPECT_FALSE(keyField("spec 99 short\n", "spec")) << "a length past the end";
}

TEST(CacheKey, TextCarriesEveryField) {
  CacheKey key = makeCacheKey(fieldsFor("sum f32[8] dim=0"));
  for (const char *field : {"format ", "scanjit ", "templates ", "spec ", "plan ", "nvrtc ", "arch ", "options ",
                            "compile "})
    EXPECT_NE(("\n" + key.text).find(std::string("\n") + field), std::string::npos) << field;
}

} // namespace
