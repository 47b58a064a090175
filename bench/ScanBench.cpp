// The scan benchmark: each case and a device-to-device copy of the same
// bytes (input + mask + output), timed in the same run with CUDA events
// (3 warm-ups, median of 20). Prints a markdown table and writes JSON.
//
//   scanjit_bench [--suite seeds|shapes|dtypes|ops|cliffs|all]... [--spec "<spec>"]... [--json FILE] [--iters N]
//                 [--repeat N] [--placements N] [--fresh-buffers] [--out-offset BYTES]
//
// --spec adds cases of its own (suite "custom"); with only --spec given, no
// suite runs. Output and copy buffers are allocated once and kept for every
// case (--fresh-buffers: per case, as before; see ScratchBuffer), and each
// case is timed with its output at --placements places (3; kPlacementStride):
// the table gives the median time and the range of the ratio.
#include "scanjit/Scan.h"

#include "testing/DeviceMemory.h"
#include "runtime/Errors.h"
#include "testing/HostElements.h"
#include "testing/Precompile.h"
#include "testing/RandomData.h"
#include "testing/Timing.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

using namespace scanjit;
using namespace scanjit::detail;

namespace {

struct Case {
  const char *suite;
  std::string spec;
  int offset = 0;    // elements the input's and mask's pointers lie past their buffers' (aligned) starts
  int outOffset = 0; // elements the output lies past its placement (on the 16-byte grid)
};

const Case kCases[] = {
    {"seeds", "sum f32[32768,32768] dim=1"},
    {"seeds", "sum f32[32768,32768] dim=1 reverse"},
    {"seeds", "sum f32[32768,32768] dim=1 mask"},
    {"seeds", "sum f32[32768,32768] dim=1 exclusive"},
    {"seeds", "sum f32[32768,32768] dim=0"},
    {"shapes", "sum f32[1048576,32] dim=1"},
    {"shapes", "sum f32[1048576,256] dim=1"},
    {"shapes", "sum f32[4096,4096] dim=1"},
    {"shapes", "sum f32[64,4194304] dim=1"},
    {"shapes", "sum f32[8,16777216] dim=1"},
    {"shapes", "sum f32[1,1073741824] dim=1"},
    {"shapes", "sum f32[16,1024] dim=1"},
    {"shapes", "sum f32[64,4096,256] dim=1"},
    {"dtypes", "sum f16[8192,32768] dim=1"},
    {"dtypes", "sum bf16[8192,32768] dim=1"},
    {"dtypes", "sum f64[8192,32768] dim=1"},
    {"dtypes", "sum i32[8192,32768] dim=1"},
    {"ops", "prod f32[8192,32768] dim=1"},
    {"ops", "max f32[8192,32768] dim=1"},
    {"ops", "min f32[8192,32768] dim=1"},
    {"ops", "logsumexp f32[8192,32768] dim=1"},
    // Shapes off the 16-byte grid (odd row lengths 4k+1..3 and primes,
    // pointers a few elements in, odd f16/bf16 rows, masks, i32 -> i64),
    // each beside the nearest aligned shape; middle-sized 1-D and few-row
    // scans; odd column counts along dim=0. `@N`: the input and mask
    // pointers N elements into their buffers.
    {"cliffs", "sum f32[1000,100000] dim=1"},
    {"cliffs", "sum f32[1000,100003] dim=1"},
    {"cliffs", "sum f32[16384,4096] dim=1"},
    {"cliffs", "sum f32[16384,4097] dim=1"},
    {"cliffs", "sum f32[16384,4098] dim=1"},
    {"cliffs", "sum f32[16384,4099] dim=1"},
    {"cliffs", "sum f32[1024,50257] dim=1"},
    {"cliffs", "sum f32[32768,32767] dim=1 strides=[32768,1]", 1},
    {"cliffs", "sum f32[16384,4096] dim=1 mask"},
    {"cliffs", "sum f32[16384,4099] dim=1 mask"},
    {"cliffs", "sum f32[16384,4099] dim=1 mask reverse", 3},
    {"cliffs", "sum f16[4096,32768] dim=1"},
    {"cliffs", "sum f16[4096,32769] dim=1"},
    {"cliffs", "sum bf16[4096,32768] dim=1 reverse"},
    {"cliffs", "sum bf16[4096,32771] dim=1 reverse"},
    {"cliffs", "sum i32[8192,8192] dim=1"},
    {"cliffs", "sum i32[8192,8191] dim=1", 1},
    {"cliffs", "max f32[16384,4099] dim=1 exclusive", 2},
    {"cliffs", "sum f32[65536,336] dim=1"},
    {"cliffs", "sum f32[77777,333] dim=1"},
    {"cliffs", "sum f32[16384,1024] dim=1"},
    {"cliffs", "sum f32[3,5000000] dim=1"},
    {"cliffs", "sum f32[3,5000003] dim=1"},
    {"cliffs", "sum f32[4,4194304] dim=1"},
    {"cliffs", "sum f32[32,524288] dim=1"},
    {"cliffs", "sum f32[1048576] dim=0"},
    {"cliffs", "sum f32[1048573] dim=0", 1},
    {"cliffs", "sum f32[4194304] dim=0"},
    {"cliffs", "sum f32[16777216] dim=0"},
    {"cliffs", "sum f32[16777213] dim=0", 3},
    {"cliffs", "sum f32[33554431] dim=0"},
    {"cliffs", "sum f32[67108864] dim=0"},
    {"cliffs", "sum f16[16777217] dim=0 reverse", 1},
    {"cliffs", "sum f32[4096,4096] dim=0"},
    {"cliffs", "sum f32[4096,4097] dim=0"},
    {"cliffs", "sum f32[65536,333] dim=0"},
    {"cliffs", "sum f32[1048576,2] dim=0"},
    {"cliffs", "sum f32[8388608,2] dim=0"},
    {"cliffs", "sum f32[4194304,4] dim=0"},
    // Tens of columns: tiles of whole rows (column_tiles.cuh), one block an
    // SM, 1.4-4.2x copy on an H200 (BENCHMARKS.md, sixty-sixth pass).
    {"cliffs", "sum f32[4194304,20] dim=0"},
    {"cliffs", "sum f32[2851285,46] dim=0"},
    {"cliffs", "sum f16[2000000,33] dim=0"},
    {"cliffs", "logsumexp f32[1000000,30] dim=0"},
    // Narrow columns off the grid, beside sum f32[8388608,2] and f16[8388608,4]:
    // an odd count of rows, pointers a few elements in, a batch of odd lines.
    {"cliffs", "sum f32[8388607,2] dim=0"},
    {"cliffs", "sum f32[8388608,2] dim=0", 1},
    {"cliffs", "sum f32[3,2796203,2] dim=1"},
    {"cliffs", "sum f16[8388608,4] dim=0"},
    {"cliffs", "sum f16[8388607,4] dim=0 mask"},
    {"cliffs", "sum f16[8388608,4] dim=0", 3},
    {"cliffs", "max bf16[2,8388607,2] dim=1 reverse"},
    // Sixteen narrow columns: 64 bytes of accumulators a row, over what a
    // packed look-back publishes, so lines scanned and chained one by one
    // (5-12x copy on an H100, BENCHMARKS.md forty-first pass).
    {"cliffs", "sum f32[1048576,16] dim=0"},
    {"cliffs", "max u8[1048576,16] dim=0"},
    {"cliffs", "sum f32[4194304] dim=0 strides=[2]"},
    {"cliffs", "sum f16[8388608] dim=0 strides=[2]"},         // x[::2] of 2-byte elements
    {"cliffs", "sum f32[33554432] dim=0 strides=[2]", 1},     // x[::2] of a large tensor, one element in
    {"cliffs", "max u8[16777216] dim=0 strides=[4] mask mask_strides=[4] reverse"},
    {"cliffs", "logsumexp f64[4194304] dim=0"},               // f64 log-sum-exp: its combines set its time
    {"cliffs", "logsumexp f64[65536,256] dim=1"},
    {"cliffs", "logsumexp f64[65536,300] dim=1"},             // padded warp rows (were chunks of (max, sum) pairs)
    {"cliffs", "logsumexp f32[262144,100] dim=1"},            // short rows: chunks of (max, sum) pairs
    {"cliffs", "max f32[100000,214] dim=1 mask"},             // padded warp rows of 7 items a lane
    {"cliffs", "logsumexp f32[4096,4097] dim=0 mask"},        // a column's serial run of pairs
    {"cliffs", "sum f32[4096,2048] dim=1 strides=[4096,2]"},  // x[:, ::2]
    {"cliffs", "sum f16[8192,4096] dim=0"},
    {"cliffs", "sum f16[8192,4097] dim=0"},
    {"cliffs", "sum f32[8192,4097] dim=0 mask"},
    // Input and output off each other's 16-byte grid (the output one element in).
    {"cliffs", "sum f32[16384,4096] dim=1", 0, 1},
    {"cliffs", "sum f16[8192,8192] dim=1", 0, 1},
    {"cliffs", "sum i32[8192,8192] dim=1", 0, 1},
    {"cliffs", "sum f32[262144,256] dim=1", 1, 1},
    {"cliffs", "sum f32[16777216] dim=0", 0, 1},
    {"cliffs", "sum f32[4096,4096] dim=0", 0, 1},
    // Byte rows (i64 results) and narrow integers' max/min.
    {"cliffs", "sum u8[65536,512] dim=1"},
    {"cliffs", "max u8[65536,512] dim=1"},
    {"cliffs", "max i16[16384,4097] dim=1"},
    {"cliffs", "min bf16[4194304,4] dim=0 reverse"},
    {"cliffs", "max f64[8388608,2] dim=0"},
    // Where random draws of 16M-128M elements missed most (BENCHMARKS.md,
    // twenty-sixth pass), each beside an aligned neighbour: 2-byte short
    // rows (segmented, staged), wide 2-byte column panels, 2-byte look-back.
    {"cliffs", "sum f16[86975,296] dim=1"},
    {"cliffs", "sum f16[86975,295] dim=1"},
    {"cliffs", "sum bf16[293952,210] dim=1 reverse", 1},
    {"cliffs", "sum bf16[261871,326] dim=1 mask", 1},
    {"cliffs", "max bf16[100000,333] dim=1"},
    {"cliffs", "sum bf16[21648,3696] dim=0 mask reverse"},
    {"cliffs", "sum bf16[21648,3697] dim=0 mask reverse"},
    {"cliffs", "sum f16[36521,917] dim=0 mask reverse", 3},
    {"cliffs", "sum f64[501898,258] dim=0", 3},
    {"cliffs", "sum bf16[3,6520244] dim=1 mask", 2},
    {"cliffs", "sum bf16[28053728] dim=0"},
    {"cliffs", "sum bf16[28053728] dim=0", 1},
    // Narrow rows of 193-288 (half-warp padded rows, fifty-fifth pass), and
    // a tiling warp row of an odd item count one element in.
    {"cliffs", "min i16[300000,257] dim=1"},
    {"cliffs", "max i8[200000,201] dim=1 reverse"},
    {"cliffs", "sum f16[131072,288] dim=1", 1},
    // Rows of exactly 32 x items (kPaddedOneMoreItem, fifty-fifth pass).
    {"cliffs", "sum f16[100000,480] dim=1"},
    {"cliffs", "sum bf16[100000,352] dim=1"},
    // Tiling warp rows of many narrow words a lane, masked rows of 32 x
    // items, 2-byte log-sum-exp rows off whole vectors (fifty-sixth pass).
    {"cliffs", "logsumexp f16[100000,480] dim=1"},
    {"cliffs", "min i8[100000,416] dim=1"},
    {"cliffs", "sum f32[100000,224] dim=1 mask"},
    {"cliffs", "logsumexp bf16[100000,352] dim=1"},
    // A single line's narrow columns, one panel of pieces (span totals,
    // fifty-ninth pass), on the grid and off it; a masked 2-byte column
    // edges plan whose stage pitch follows the tensor's, two elements in.
    {"cliffs", "sum f16[206323,144] dim=0"},
    {"cliffs", "sum f16[206323,146] dim=0"},
    {"cliffs", "sum f32[206323,146] dim=0"},
    {"cliffs", "sum f16[36658,670] dim=0 mask reverse", 2},
    // Short rows under 7 items a lane of a warp: padded rows of fewer
    // lanes (kPaddedShortRows, sixty-third pass); a 2-byte sum on the grid
    // (chunks) and off it (padded), a max, a byte max off the grid.
    {"cliffs", "sum bf16[559209,48] dim=1 mask"},
    {"cliffs", "sum bf16[559209,48] dim=1 mask", 3},
    {"cliffs", "max f16[349525,96] dim=1"},
    {"cliffs", "max u8[335544,100] dim=1 exclusive", 2},
    // Packed narrow columns the suite sampled once or twice (BENCHMARKS.md,
    // sixty-ninth pass): odd lane counts of 4-byte elements, 2-byte pairs
    // and triples, byte sums into i64, byte max/min in words, shifted too.
    {"cliffs", "sum f32[5592405,3] dim=0"},
    {"cliffs", "max i32[3355443,5] dim=0 mask"},
    {"cliffs", "sum f16[16777216,2] dim=0"},
    {"cliffs", "prod bf16[5592405,3] dim=0 reverse"},
    {"cliffs", "sum u8[16777216,2] dim=0"},
    {"cliffs", "max u8[8388608,8] dim=0 mask"},
    {"cliffs", "min i8[4194304,16] dim=0", 1},
    // Wide groups of 8-byte accumulators (seventy-second pass: 3.0-5.6x
    // copy unpacked or in tiles of 2 items): 2-8 lanes of f64/i64 and of
    // integers summed into i64, shifted too.
    {"cliffs", "sum f64[4194304,4] dim=0"},
    {"cliffs", "sum u8[8388608,4] dim=0"},
    {"cliffs", "sum f64[2796202,6] dim=0"},
    {"cliffs", "max i64[2396745,7] dim=0 mask", 2},
    {"cliffs", "sum f64[3355443,5] dim=0"},
    {"cliffs", "sum i16[2097152,8] dim=0", 1},
    {"cliffs", "sum f32[2396745,7] dim=0"},
    // Groups of 9-15 lanes of 4-byte accumulators (seventy-third pass:
    // 3.5-5.4x copy unpacked), 2-byte elements and shifted too.
    {"cliffs", "sum f32[1398101,12] dim=0"},
    {"cliffs", "max f16[1677721,10] dim=0 mask"},
    {"cliffs", "min i32[1118481,15] dim=0", 1},
};

// Random host data, filled on all cores, uploaded once per (dtype, op, size).
struct InputCache {
  std::map<std::string, DeviceBuffer> buffers;
  const DeviceBuffer &get(DType t, ScanOp op, int64_t count) {
    std::string key = dtypeName(t).str() + "/" + std::to_string(int(op)) + "/" + std::to_string(count);
    auto it = buffers.find(key);
    if (it != buffers.end())
      return it->second;
    const int size = t == DType::Bool ? 1 : dtypeSize(t);
    std::vector<uint8_t> host(size_t(count) * size);
    if (t == DType::Bool)
      fillRandomMaskParallel(host.data(), count, 99); // any bits: the mask only gates
    else
      fillRandomParallel(host.data(), t, op, count, {12345, 0});
    DeviceBuffer d(host.size());
    d.upload(host.data(), host.size());
    return buffers.emplace(key, std::move(d)).first->second;
  }
};

// The output placements a case is timed at: the kept output buffer at
// offsets p * kPlacementStride. The same kernel ran at 1.04 of copy with its
// output at offsets 0, 2 MiB or 64 MiB of a buffer allocated after its input
// and at 1.09-1.10 at offsets of 1, 2 or 4 GiB (f32[1048576,256], H200): the
// table reports the median over the placements and their range.
constexpr size_t kPlacementStride = (size_t(1) << 30) + (size_t(64) << 20);
struct Placement {
  int64_t outAddress;
  double ms;
};

// A buffer kept for the whole run, grown when a case needs more. With a
// fresh output buffer and fresh copy buffers per case (gigabytes allocated
// and freed each time), a row scan run after the masked seed got slower on
// every repeat, 1.07 -> 1.13 -> 1.15 of copy, while the copy did not (H200,
// BENCHMARKS.md).
struct ScratchBuffer {
  DeviceBuffer buffer;
  const DeviceBuffer &atLeast(size_t bytes, uint8_t fill) {
    if (buffer.size() < bytes) {
      buffer = DeviceBuffer(); // free before allocating more
      buffer = DeviceBuffer(bytes);
      buffer.fill(fill);
    }
    return buffer;
  }
};

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> suites, customSpecs;
  std::string jsonPath = "bench.json";
  TimingOptions timing;
  int repeat = 1;
  bool freshBuffers = false;
  size_t outOffset = 0; // bytes into the kept output buffer of the first placement
  int placements = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--suite") && i + 1 < argc) suites.push_back(argv[++i]);
    else if (!std::strcmp(argv[i], "--spec") && i + 1 < argc) customSpecs.push_back(argv[++i]);
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) jsonPath = argv[++i];
    else if (!std::strcmp(argv[i], "--iters") && i + 1 < argc) timing.iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--fresh-buffers")) freshBuffers = true;
    else if (!std::strcmp(argv[i], "--out-offset") && i + 1 < argc)
      outOffset = std::strtoull(argv[++i], nullptr, 0) / 256 * 256; // keeps vector alignment
    else if (!std::strcmp(argv[i], "--placements") && i + 1 < argc)
      placements = std::max(1, std::atoi(argv[++i]));
    else {
      llvm::errs() << "usage: scanjit_bench [--suite seeds|shapes|dtypes|ops|cliffs|all]... [--spec \"<spec>[@N]\"]... "
                      "[--json FILE] [--iters N] [--repeat N] [--placements N] [--fresh-buffers] "
                      "[--out-offset BYTES]\n";
      return 2;
    }
  }
  if (suites.empty() && customSpecs.empty())
    suites.push_back("all");
  std::vector<Case> cases;
  for (const Case &c : kCases)
    if (std::find(suites.begin(), suites.end(), "all") != suites.end() ||
        std::find(suites.begin(), suites.end(), c.suite) != suites.end())
      cases.push_back(c);
  // --spec "<spec>@N": the input and mask pointers N elements in;
  // "<spec>@N:M": and the output M elements in (input and output off the
  // 16-byte grid relative to each other when N and M differ).
  for (const std::string &text : customSpecs) {
    const size_t at = text.rfind('@');
    Case c{"custom", text.substr(0, at)};
    if (at != std::string::npos) {
      c.offset = std::atoi(text.c_str() + at + 1);
      const size_t colon = text.find(':', at);
      if (colon != std::string::npos)
        c.outOffset = std::atoi(text.c_str() + colon + 1);
    }
    cases.push_back(c);
  }
  try {
    std::string device = deviceName();
    // Every case's kernel compiled before any is timed, on all the host's
    // cores (a cold run of the cliffs suite as another arch spent most of
    // its time in NVRTC, one kernel at a time).
    std::vector<std::string> specs;
    for (const Case &c : cases)
      specs.push_back(c.spec);
    precompile(specs);
    InputCache inputs;
    ScratchBuffer outputs, copySource, copyDestination;
    llvm::json::Array rows;
    llvm::outs() << "device: " << device
                 << "\n\n| suite | spec | family | ms | GB/s | copy ms | ratio | ratio range |\n"
                 << "|---|---|---|---|---|---|---|---|\n";
    llvm::outs().flush();
    // --repeat runs the case list again in the same process, to tell a
    // case's run-to-run spread from a change.
    std::vector<std::pair<int, Case>> schedule;
    for (int run = 0; run < repeat; ++run)
      for (const Case &c : cases)
        schedule.push_back({run, c});
    for (const auto &[run, c] : schedule) {
      ScanSpec spec = unwrap(parseSpec(c.spec));
      Kernel kernel = prepare(c.spec);
      const int64_t n = spec.numel();
      // Elements the input spans (a strided view reaches past numel).
      int64_t extent = 1;
      for (int d = 0; d < spec.rank(); ++d)
        extent += (spec.shape[d] - 1) * spec.inStrides[d];
      const int64_t span = std::max(n, extent) + c.offset;
      const DeviceBuffer &in = inputs.get(spec.in, spec.op, span);
      const DeviceBuffer *mask = spec.mask ? &inputs.get(DType::Bool, ScanOp::Sum, span) : nullptr;
      const size_t inAt = size_t(c.offset) * dtypeSize(spec.in);
      const size_t outBytes = size_t(n) * dtypeSize(spec.out);
      const size_t outIn = size_t(c.outOffset) * dtypeSize(spec.out); // the output's own offset
      const size_t moved = size_t(n) * (dtypeSize(spec.in) + dtypeSize(spec.out) + (spec.mask ? 1 : 0));
      // The kernel at each output placement (kPlacementStride), then the copy.
      std::vector<Placement> placed;
      for (int p = 0; p < (freshBuffers ? 1 : placements); ++p) {
        DeviceBuffer freshOut(freshBuffers ? outIn + outBytes : 0);
        const size_t at = (freshBuffers ? 0 : outOffset + size_t(p) * kPlacementStride) + outIn;
        const DeviceBuffer &outBuffer = freshBuffers ? freshOut : outputs.atLeast(at + outBytes, 0xff);
        auto launch = [&] { kernel.launch(outBuffer.at(at), in.at(inAt), mask ? mask->at(c.offset) : nullptr, nullptr); };
        placed.push_back({int64_t(outBuffer.get() + at), medianMillis(launch, nullptr, timing)});
        checkCu(driver()->cuCtxSynchronize(), "kernel execution");
      }
      std::vector<Placement> byTime = placed;
      std::sort(byTime.begin(), byTime.end(), [](const Placement &x, const Placement &y) { return x.ms < y.ms; });
      const double ms = byTime[byTime.size() / 2].ms;
      const double copy =
          freshBuffers ? copyMillis(moved / 2, nullptr, timing)
                       : copyMillis(copyDestination.atLeast(moved / 2, 0).get(),
                                    copySource.atLeast(moved / 2, 0x3c).get(), moved / 2, nullptr, timing);
      std::string family = kernel.plan().substr(7, kernel.plan().find(' ') - 7);
      std::string shown = c.offset || c.outOffset ? c.spec + " @" + std::to_string(c.offset) : c.spec;
      if (c.outOffset)
        shown += ":" + std::to_string(c.outOffset);
      llvm::outs() << llvm::formatv("| {0} | `{1}` | {2} | {3:f3} | {4:f0} | {5:f3} | {6:f2} | {7:f2}-{8:f2} |\n",
                                    c.suite, shown, family, ms, moved / ms / 1e6, copy, ms / copy,
                                    byTime.front().ms / copy, byTime.back().ms / copy);
      llvm::outs().flush();
      llvm::json::Array placements;
      for (const Placement &p : placed)
        placements.push_back(llvm::json::Object{{"out_address", p.outAddress}, {"ms", p.ms}});
      rows.push_back(llvm::json::Object{{"suite", c.suite}, {"spec", c.spec}, {"offset", c.offset}, {"out_offset", c.outOffset}, {"plan", kernel.plan()},
                                        {"ms", ms}, {"copy_ms", copy}, {"ratio", ms / copy},
                                        {"bytes", int64_t(moved)}, {"device", device}, {"run", run},
                                        {"in_address", int64_t(in.get())}, {"fresh_buffers", freshBuffers},
                                        {"placements", std::move(placements)}});
    }
    std::error_code ec;
    llvm::raw_fd_ostream json(jsonPath, ec);
    if (!ec)
      json << llvm::formatv("{0:2}", llvm::json::Value(std::move(rows))) << "\n";
  } catch (const Error &e) {
    llvm::errs() << "scanjit_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
