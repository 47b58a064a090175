#include "LadderKernels.h"

#include "llvm/Support/FormatVariadic.h"

namespace scanjit::ladder {
namespace {

// The op's accumulator type and its scanjit op over it.
struct OpTypes {
  std::string acc, op;
};
OpTypes typesOf(LadderOp op) {
  auto over = [](const char *acc, const char *name) {
    return OpTypes{acc, llvm::formatv("scanjit::{0}<{1}, {1}>", name, acc).str()};
  };
  switch (op) {
  case LadderOp::SumI64: return over("long long", "SumOp");
  case LadderOp::MaxF32: return over("float", "MaxOp");
  case LadderOp::LogSumExpF64: return over("double", "LogSumExpOp");
  }
  return {};
}
const char *b(bool v) { return v ? "true" : "false"; }

// The rungs' drivers, instantiated per kernel below.
const char *kDrivers = R"(
#include "scanjit/tile_agent.cuh"
#include "scanjit/warp_scan.cuh"
#include "scanjit/warp_span.cuh"

namespace ladder {
using namespace scanjit;

template <class Op, class T, bool kReverse, int kWidth>
__device__ void warp_rung(const T *in, T *incl, T *excl, long long n) {
  typedef PlainMonoid<Op, T> M;
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = int(threadIdx.x & 31) % kWidth;
  const T v = i < n ? in[i] : M::identity();
  const T inc = warp_inclusive_scan<M, kReverse, kWidth>(v, lane);
  const T exc = warp_exclusive_from_inclusive<M, kReverse, kWidth>(inc, lane);
  if (i < n) {
    incl[i] = inc;
    excl[i] = exc;
  }
}

template <class Op, class T, bool kReverse, int kThreads>
__device__ void block_rung(const T *in, T *excl, T *excl3, long long n) {
  typedef PlainMonoid<Op, T> M;
  __shared__ BlockScanStorage<M, kThreads> storage;
  int buffer = 0;
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  const T v = i < n ? in[i] : M::identity();
  T total, total3;
  const T e = block_exclusive_scan<M, kReverse, kThreads>(v, storage, buffer, total);
  const T v3 = i < n ? Op::combine(Op::combine(v, v), v) : M::identity();
  const T e3 = block_exclusive_scan<M, kReverse, kThreads>(v3, storage, buffer, total3);
  if (i < n) {
    excl[i] = e;
    excl3[i] = e3;
  }
  if (threadIdx.x == 0) {
    excl3[n + 2 * blockIdx.x] = total;
    excl3[n + 2 * blockIdx.x + 1] = total3;
  }
}

template <class Op, class T, bool kSegmented> struct TileMonoid {
  typedef PlainMonoid<Op, T> M;
};
template <class Op, class T> struct TileMonoid<Op, T, true> {
  typedef SegmentedMonoid<Op, T> M;
};

template <class Op, class T, bool kReverse, bool kExclusive, int kSegment, int kThreads, int kItems>
__device__ void tile_rung(const T *in, T *out, long long n) {
  typedef typename TileMonoid<Op, T, (kSegment > 0)>::M M;
  typedef TileAgent<M, T, kReverse, kExclusive, kThreads, kItems> Agent;
  __shared__ typename Agent::Storage storage;
  Agent agent(storage);
  RunningPrefix<M> carry;
  const T *row = in + blockIdx.x * n;
  T *row_out = out + blockIdx.x * n;
  constexpr long long kTile = (long long)kThreads * kItems;
  const long long tiles = (n + kTile - 1) / kTile;
  for (long long k = 0; k < tiles; ++k) {
    const long long first = (kReverse ? tiles - 1 - k : k) * kTile + (long long)threadIdx.x * kItems;
    typename M::Value v[kItems];
    bool heads[kItems];
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const long long e = first + j;
      const T x = e < n ? row[e] : Op::identity();
      heads[j] = kSegment > 0 && e < n && e % (kSegment > 0 ? kSegment : 1) == (kReverse ? kSegment - 1 : 0);
      v[j] = M::make(x, heads[j]);
    }
    T r[kItems];
    agent.consume(v, heads, r, carry);
#pragma unroll
    for (int j = 0; j < kItems; ++j)
      if (first + j < n)
        row_out[first + j] = r[j];
  }
}

template <class T, int kMost> __device__ void span_rung(const T *in, T *out, long long n) {
  __shared__ alignas(16) T span[kMost + 16 / sizeof(T)];
  const int first = int(blockIdx.x); // (the span starts `first` elements in: every place in a word)
  const int count = int(n) - first;
  const int shift = copy_span_by_words<T, kMost>(in + first, count, span);
  __syncwarp();
  for (int e = int(threadIdx.x); e < count; e += 32)
    out[(long long)blockIdx.x * n + e] = span[shift + e];
}

} // namespace ladder
)";

} // namespace

const std::vector<LadderKernel> &ladderKernels() {
  static const std::vector<LadderKernel> kernels = [] {
    std::vector<LadderKernel> k;
    auto add = [&](LadderKernel x) {
      x.entry = "ladder_" + std::to_string(k.size());
      k.push_back(x);
    };
    for (LadderOp op : {LadderOp::SumI64, LadderOp::MaxF32})
      for (bool reverse : {false, true})
        for (int width : {32, 8, 2})
          add({"", Rung::Warp, op, reverse, false, 0, 32, 1, width});
    // (Log-sum-exp's block rung scans (max, sum) pairs: the tile rung tests it.)
    for (LadderOp op : {LadderOp::SumI64, LadderOp::MaxF32})
      for (bool reverse : {false, true})
        for (int threads : {32, 96, 256, 1024})
          add({"", Rung::Block, op, reverse, true, 0, threads, 1, 32});
    for (bool reverse : {false, true})
      for (bool exclusive : {false, true}) {
        add({"", Rung::Tile, LadderOp::SumI64, reverse, exclusive, 0, 128, 4, 32});
        add({"", Rung::Tile, LadderOp::SumI64, reverse, exclusive, 37, 64, 3, 32});
        add({"", Rung::Tile, LadderOp::MaxF32, reverse, exclusive, 0, 256, 2, 32});
        add({"", Rung::Tile, LadderOp::MaxF32, reverse, exclusive, 5, 32, 8, 32});
        add({"", Rung::Tile, LadderOp::LogSumExpF64, reverse, exclusive, 0, 64, 8, 32});
        add({"", Rung::Tile, LadderOp::LogSumExpF64, reverse, exclusive, 100, 128, 4, 32});
      }
    // Spans of 2-byte elements as padded warp rows of 16 and 11 items
    // hold, and of bytes.
    for (auto [bytes, most] : {std::pair{2, 512}, std::pair{2, 352}, std::pair{1, 512}}) {
      LadderKernel span{"", Rung::Span, LadderOp::SumI64};
      span.spanBytes = bytes;
      span.spanMost = most;
      add(span);
    }
    return k;
  }();
  return kernels;
}

std::string ladderSource() {
  std::string source = kDrivers;
  for (const LadderKernel &k : ladderKernels()) {
    const OpTypes types = typesOf(k.op);
    const std::string &t = types.acc;
    std::string call;
    switch (k.rung) {
    case Rung::Warp:
      call = llvm::formatv("ladder::warp_rung<{0}, {1}, {2}, {3}>(static_cast<const {1} *>(in), "
                           "static_cast<{1} *>(out), static_cast<{1} *>(out2), n);",
                           types.op, t, b(k.reverse), std::to_string(k.width));
      break;
    case Rung::Block:
      call = llvm::formatv("ladder::block_rung<{0}, {1}, {2}, {3}>(static_cast<const {1} *>(in), "
                           "static_cast<{1} *>(out), static_cast<{1} *>(out2), n);",
                           types.op, t, b(k.reverse), std::to_string(k.threads));
      break;
    case Rung::Span:
      call = llvm::formatv("ladder::span_rung<{0}, {1}>(static_cast<const {0} *>(in), static_cast<{0} *>(out), n);",
                           k.spanBytes == 1 ? "unsigned char" : "unsigned short", std::to_string(k.spanMost));
      break;
    case Rung::Tile:
      call = llvm::formatv("ladder::tile_rung<{0}, {1}, {2}, {3}, {4}, {5}, {6}>(static_cast<const {1} *>(in), "
                           "static_cast<{1} *>(out), n);",
                           types.op, t, b(k.reverse), b(k.exclusive), std::to_string(k.segment),
                           std::to_string(k.threads), std::to_string(k.items));
      break;
    }
    source += llvm::formatv("extern \"C\" __global__ void __launch_bounds__({0}) {1}(const void *in, void *out, "
                            "void *out2, long long n) {{\n  (void)out2;\n  {2}\n}\n",
                            std::to_string(k.threads), k.entry, call)
                  .str();
  }
  return source;
}

} // namespace scanjit::ladder
