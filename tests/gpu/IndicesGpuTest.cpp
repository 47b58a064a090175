// Max and min with indices (torch.cummax's): the values and every index
// match the CPU reference exactly, on inputs of small integers (many ties)
// with NaNs among the floats, every dtype, both directions, masks and
// exclusive scans, rows, columns and strided views.
#include "GpuHarness.h"
#include "scanjit/Scan.h"

#include "testing/DeviceMemory.h"
#include "testing/HostElements.h"
#include "testing/Reference.h"

#include <random>

using namespace scanjit;
using namespace scanjit::detail;

namespace {

// Runs `spec` (which has `indices`) on tie-rich random input and compares
// each line with the reference. Returns the first mismatch, or "".
std::string mismatchOf(const std::string &text, uint64_t seed) {
  const ScanSpec spec = *parseSpec(text); // (valid specs only)
  const int64_t inElems = extentElements(spec.shape, spec.inStrides);
  const int64_t outElems = extentElements(spec.shape, spec.outStrides);
  const int64_t maskElems = spec.mask ? extentElements(spec.shape, spec.maskStrides) : 0;
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> in(size_t(inElems) * dtypeSize(spec.in));
  std::vector<uint8_t> mask(static_cast<size_t>(maskElems));
  for (int64_t i = 0; i < inElems; ++i) {
    const int64_t small = int64_t(rng() % 7) - 3; // ties are common
    if (isFloating(spec.in) && rng() % 50 == 0)
      storeDouble(in.data(), spec.in, i, NAN);
    else if (isFloating(spec.in))
      storeDouble(in.data(), spec.in, i, double(small));
    else
      storeInt(in.data(), spec.in, i, spec.in == DType::Bool ? (small > 0) : spec.in == DType::U8 ? small + 3 : small);
  }
  for (uint8_t &m : mask)
    m = rng() % 3 != 0;
  DeviceBuffer dIn(in.size()), dMask(std::max<size_t>(mask.size(), 1));
  DeviceBuffer dOut(size_t(outElems) * dtypeSize(spec.out)), dIdx(size_t(outElems) * 8);
  dIn.upload(in.data(), in.size());
  if (spec.mask)
    dMask.upload(mask.data(), mask.size());
  std::vector<uint8_t> poison(dOut.size(), 0xa5);
  dOut.upload(poison.data(), poison.size());
  std::vector<int64_t> idxPoison(static_cast<size_t>(outElems), -7);
  dIdx.upload(idxPoison.data(), idxPoison.size() * 8);
  Kernel k = prepare(text);
  k.launchWithIndices(dOut.at(0), static_cast<int64_t *>(dIdx.at(0)), dIn.at(0), spec.mask ? dMask.at(0) : nullptr,
                      nullptr);
  std::vector<uint8_t> out(dOut.size());
  std::vector<int64_t> idx(static_cast<size_t>(outElems));
  dOut.download(out.data(), out.size());
  dIdx.download(idx.data(), idx.size() * 8);
  const int64_t sOut = spec.outStrides[spec.dim];
  for (int64_t line = 0; line < numLines(spec); ++line) {
    const std::vector<ReferenceValue> ref = referenceLine(spec, in.data(), mask.data(), line);
    const int64_t base = lineOffsets(spec, line).out;
    for (int64_t i = 0; i < int64_t(ref.size()); ++i) {
      const int64_t at = base + i * sOut;
      const double got = loadAsDouble(out.data(), spec.out, at);
      const bool same = std::isnan(ref[i].value) ? std::isnan(got)
                        : isIntegral(spec.out)   ? loadAsInt(out.data(), spec.out, at) == ref[i].exact
                                                 : got == ref[i].value;
      if (!same || idx[size_t(at)] != ref[i].index)
        return text + ": line " + std::to_string(line) + " element " + std::to_string(i) + ": got " +
               std::to_string(got) + " at " + std::to_string(idx[size_t(at)]) + ", want " +
               std::to_string(ref[i].value) + " at " + std::to_string(ref[i].index);
    }
  }
  return "";
}

TEST(Indices, MatchTheReferenceOnEveryDtypeAndFlag) {
  SCANJIT_REQUIRE_GPU();
  const char *shapes[] = {"[40,1000] dim=1", "[300,33] dim=0", "[20,30,40] dim=1 strides=[1,20,600]"};
  const char *types[] = {"f32", "f16", "bf16", "f64", "u8", "i8", "i16", "i32", "i64", "bool"};
  uint64_t seed = 1;
  std::vector<std::string> specs;
  for (const char *op : {"max", "min"})
    for (const char *type : types)
      for (const char *shape : shapes)
        for (int flags = 0; flags < 8; ++flags) {
          // Every flag set on f32 and i32; the other dtypes (whose identity and NaN handling is what
          // differs) take none, all, and one set in turn, to keep the compiles of this test near a minute.
          const bool everyFlag = std::string(type) == "f32" || std::string(type) == "i32";
          if (!everyFlag && flags != 0 && flags != 7 && flags != 1 + int((seed + specs.size()) % 6))
            continue;
          std::string text = std::string(op) + " " + type + shape;
          if (flags & 1) text += " mask";
          if (flags & 2) text += " reverse";
          if (flags & 4) text += " exclusive";
          specs.push_back(text + " indices");
        }
  gpu_testing::precompile(specs); // (compiled in parallel first)
  for (const std::string &text : specs)
    EXPECT_EQ(mismatchOf(text, seed++), "");
}

TEST(Indices, LongLinesChainTheirWarpsCarry) {
  SCANJIT_REQUIRE_GPU();
  for (const char *text : {"max f32[3,100003] dim=1 indices", "min i32[2,70001] dim=1 reverse mask indices",
                           "max f16[50001] dim=0 exclusive indices"})
    EXPECT_EQ(mismatchOf(text, 99), "");
}

TEST(Indices, LaunchesWithoutThePointerAreRefused) {
  SCANJIT_REQUIRE_GPU();
  Kernel k = prepare("max f32[4,8] dim=1 indices");
  DeviceBuffer in(128), out(128), idx(256);
  try {
    k.launch(out.at(0), in.at(0), nullptr, nullptr);
    FAIL() << "a launch without the indices pointer ran";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("indices"), std::string::npos) << e.what();
  }
  Kernel plain = prepare("max f32[4,8] dim=1");
  EXPECT_THROW(plain.launchWithIndices(out.at(0), static_cast<int64_t *>(idx.at(0)), in.at(0), nullptr, nullptr), Error);
}

} // namespace
