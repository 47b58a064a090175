#include "compiler/Diagnostics.h"
#include "compiler/Placeholders.h"

#include <gtest/gtest.h>

using namespace scanjit;
using scanjit::detail::fillPlaceholders;

namespace {

std::string failure(llvm::Expected<std::string> r) {
  EXPECT_FALSE(bool(r));
  if (r)
    return "";
  std::string message;
  EXPECT_EQ(detail::takeErrorCode(r.takeError(), &message), ErrorCode::Internal);
  return message;
}

TEST(Placeholders, SubstitutesEveryUseOfAName) {
  auto r = fillPlaceholders("a={{a}} b={{b}} a again={{a}}", {{"a", "1"}, {"b", "two"}});
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(*r, "a=1 b=two a again=1");
}

TEST(Placeholders, TextWithoutPlaceholdersIsUnchanged) {
  auto r = fillPlaceholders("int x = {0};", {});
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(*r, "int x = {0};");
}

TEST(Placeholders, RejectsAMissingValue) {
  EXPECT_NE(failure(fillPlaceholders("{{a}} {{b}}", {{"a", "1"}})).find("'b' has no value"),
            std::string::npos);
}

TEST(Placeholders, RejectsAnUnusedValue) {
  EXPECT_NE(failure(fillPlaceholders("{{a}}", {{"a", "1"}, {"c", "3"}})).find("'c' matches no"),
            std::string::npos);
}

TEST(Placeholders, RejectsADuplicateValueAndAnUnterminatedName) {
  EXPECT_NE(failure(fillPlaceholders("{{a}}", {{"a", "1"}, {"a", "2"}})).find("twice"),
            std::string::npos);
  EXPECT_NE(failure(fillPlaceholders("{{a", {{"a", "1"}})).find("unterminated"), std::string::npos);
}

} // namespace
