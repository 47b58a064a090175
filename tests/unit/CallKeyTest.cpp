// scan()'s call key (runtime/CallCache.h): calls that differ in anything
// their spec is made of get different keys; the pointers do not count.
#include "runtime/CallCache.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace scanjit;
using namespace scanjit::detail;

namespace {

bool sameKey(const CallKey &a, const CallKey &b) { return std::memcmp(a.bytes, b.bytes, sizeof a.bytes) == 0; }

struct Call {
  ScanOp op = ScanOp::Sum;
  TensorRef out = TensorRef::contiguous(reinterpret_cast<void *>(0x1000), DType::F32, {16, 1024});
  TensorRef in = TensorRef::contiguous(reinterpret_cast<void *>(0x2000), DType::F32, {16, 1024});
  TensorRef mask = TensorRef::contiguous(reinterpret_cast<void *>(0x3000), DType::Bool, {16, 1024});
  bool masked = false;
  int dim = 1;
  ScanOptions options;
  int sm = 90;
  CallKey key() {
    options.mask = masked ? &mask : nullptr;
    CallKey k;
    EXPECT_TRUE(callKey(op, out, in, dim, options, sm, k));
    return k;
  }
};

} // namespace

TEST(CallKey, PointersAndStreamsDoNotCount) {
  Call a, b;
  b.in.data = reinterpret_cast<void *>(0x9000);
  b.out.data = reinterpret_cast<void *>(0xa000);
  b.options.stream = reinterpret_cast<Stream>(0x5);
  EXPECT_TRUE(sameKey(a.key(), b.key()));
}

TEST(CallKey, EverythingTheSpecIsMadeOfCounts) {
  const CallKey base = Call().key();
  auto differs = [&](auto change) {
    Call c;
    change(c);
    return !sameKey(base, c.key());
  };
  EXPECT_TRUE(differs([](Call &c) { c.op = ScanOp::Max; }));
  EXPECT_TRUE(differs([](Call &c) { c.in.dtype = DType::F16; }));
  EXPECT_TRUE(differs([](Call &c) { c.out.dtype = DType::F64; }));
  EXPECT_TRUE(differs([](Call &c) { c.in.sizes[0] = 17; }));
  EXPECT_TRUE(differs([](Call &c) { c.out.sizes[1] = 1023; }));
  EXPECT_TRUE(differs([](Call &c) { c.in = c.in.withStrides({1, 16}); }));
  EXPECT_TRUE(differs([](Call &c) { c.out = c.out.withStrides({2048, 1}); }));
  EXPECT_TRUE(differs([](Call &c) { c.dim = 0; }));
  EXPECT_TRUE(differs([](Call &c) { c.dim = -1; }));
  EXPECT_TRUE(differs([](Call &c) { c.options.reverse = true; }));
  EXPECT_TRUE(differs([](Call &c) { c.options.exclusive = true; }));
  EXPECT_TRUE(differs([](Call &c) { c.masked = true; }));
  EXPECT_TRUE(differs([](Call &c) { c.sm = 80; }));
  // Masks: their strides and dtype count too.
  Call masked;
  masked.masked = true;
  const CallKey maskedKey = masked.key();
  Call stridedMask;
  stridedMask.masked = true;
  stridedMask.mask = stridedMask.mask.withStrides({1, 16});
  EXPECT_FALSE(sameKey(maskedKey, stridedMask.key()));
  Call byteMask;
  byteMask.masked = true;
  byteMask.mask.dtype = DType::U8;
  EXPECT_FALSE(sameKey(maskedKey, byteMask.key()));
}

TEST(CallKey, RanksOutOfRangeOrApartAreNotKeyed) {
  Call c;
  CallKey k;
  c.in.rank = kMaxRank + 1;
  EXPECT_FALSE(callKey(c.op, c.out, c.in, 1, c.options, 90, k));
  Call d;
  d.out.rank = 1;
  EXPECT_FALSE(callKey(d.op, d.out, d.in, 1, d.options, 90, k));
}
