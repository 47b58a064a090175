// Every class of bad spec gives InvalidSpec and one line naming what is wrong.
#include "TestSpecs.h"

using namespace scanjit;
using scanjit::testing::parseFailure;

namespace {

struct BadSpec {
  const char *text;
  const char *mentions; // the message must contain this (the offending token or field)
};

const BadSpec kBadSpecs[] = {
    {"", "incomplete"},
    {"sum f32[4]", "incomplete"},
    {"sum f32[4] reverse", "no dim="},
    {"add f32[4] dim=0", "'add': unknown op"},
    {"sum f33[4] dim=0", "unknown dtype 'f33'"},
    {"sum f32 dim=0 reverse", "expected <dtype>[<sizes>]"},
    {"sum f32[4 dim=0", "bracketed list"},
    {"sum f32[4,x] dim=0", "'x' is not an integer"},
    {"sum f32[4,-3] dim=0", "size -3 of dimension 1 is negative"},
    {"sum f32[1,1,1,1,1,1,1,1,1] dim=0", "rank 9 exceeds the maximum of 8"},
    {"sum f32[4,4] dim=2", "dim=2 is out of range for rank 2"},
    {"sum f32[4,4] dim=-3", "dim=-3 is out of range"},
    {"sum f32[] dim=1", "dim=1 is out of range for rank 0"},
    {"sum f32[4] dim=zero", "dim must be an integer"},
    {"sum f32[4] dim=0 dim=0", "'dim' is given twice"},
    {"sum f32[4] dim=0 reverse reverse", "'reverse' is given twice"},
    {"sum f32[4] dim=0 backwards", "'backwards': unknown token"},
    {"sum f32[4] dim=0 out=f128", "unknown dtype 'f128'"},
    {"sum f32[4,4] dim=0 strides=[4]", "strides=[4] has 1 entries but the shape [4,4] has rank 2"},
    {"sum f32[4,4] dim=0 strides=[4,-1]", "stride -1 of dimension 1 is negative"},
    {"sum f32[4,4] dim=0 out_strides=[1,1]", "output elements overlap"},
    {"sum f32[4,4] dim=0 out_strides=[0,1]", "output elements overlap"},
    {"sum f32[4,4] dim=0 mask_strides=[4,1]", "mask_strides"},
    {"sum f32[4,4] dim=0 mask mask_strides=[1]", "mask_strides=[1] has 1 entries"},
    {"logsumexp i32[4] dim=0", "logsumexp needs a floating input, got i32"},
    {"sum f32[4] dim=0 indices", "'indices' is for max and min scans, not sum"},
    {"max f32[4] dim=0 indices indices", "'indices' is given twice"},
    {"logsumexp f32[4] dim=0 out=i64", "a floating scan needs a floating output"},
    {"sum f32[4] dim=0 out=i32", "out=i32 with f32 input"},
    {"sum i32[4] dim=0 out=bool", "out=bool is only valid for max/min of a bool input"},
    {"sum f32[4611686018427387904,4] dim=0", "element count overflows int64"},
    {"sum f64[4611686018427387903] dim=0", "byte size overflows int64"},
    {"sum f32[4,4] dim=0 strides=[4611686018427387904,1]", "largest offset overflows int64"},
};

class SpecErrors : public ::testing::TestWithParam<BadSpec> {};

TEST_P(SpecErrors, NameWhatIsWrongInOneLine) {
  auto [code, message] = parseFailure(GetParam().text);
  EXPECT_EQ(code, ErrorCode::InvalidSpec) << GetParam().text;
  EXPECT_NE(message.find(GetParam().mentions), std::string::npos)
      << "spec: " << GetParam().text << "\nmessage: " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
}

INSTANTIATE_TEST_SUITE_P(AllClasses, SpecErrors, ::testing::ValuesIn(kBadSpecs));

} // namespace
