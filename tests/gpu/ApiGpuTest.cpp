// The public C++ and C APIs on the GPU: one-call functions, prepare/launch,
// argument errors, single-flight compiles, CUDA graph capture.
#include "GpuHarness.h"

#include "scanjit/Inspect.h"
#include "scanjit/Scan.h"
#include "scanjit/scanjit.h"

#include "testing/DeviceMemory.h"
#include "runtime/KernelRegistry.h"
#include "runtime/Workspaces.h"
#include "testing/RandomData.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <chrono>
#include <thread>
#include <unistd.h>

using namespace scanjit;
using namespace scanjit::detail;
using namespace scanjit::gpu_testing;

namespace {

// A 2-D f32 problem on the device with its host copies.
struct Problem {
  int64_t rows, cols;
  std::vector<float> in, out;
  std::vector<uint8_t> mask;
  DeviceBuffer dIn, dOut, dMask;
  Problem(int64_t r, int64_t c)
      : rows(r), cols(c), in(r * c), out(r * c), mask(r * c), dIn(r * c * 4), dOut(r * c * 4),
        dMask(r * c) {
    fillRandom(in.data(), DType::F32, ScanOp::Sum, r * c, {uint64_t(r * 131 + c), 0});
    fillRandomMask(mask.data(), r * c, uint64_t(c));
    dIn.upload(in.data(), in.size() * 4);
    dMask.upload(mask.data(), mask.size());
    dOut.fill(0xff);
  }
  TensorRef inRef() const { return TensorRef::contiguous(dIn.at(0), DType::F32, {rows, cols}); }
  TensorRef outRef() const { return TensorRef::contiguous(dOut.at(0), DType::F32, {rows, cols}); }
  TensorRef maskRef() const { return TensorRef::contiguous(dMask.at(0), DType::Bool, {rows, cols}); }
  VerifyReport check(const std::string &spec) {
    checkCu(driver()->cuCtxSynchronize(), "sync");
    dOut.download(out.data(), out.size() * 4);
    std::vector<int64_t> lines;
    ScanSpec s = *parseSpec(spec);
    for (int64_t i = 0; i < numLines(s); ++i)
      lines.push_back(i);
    return verifyLines(s, in.data(), mask.data(), out.data(), lines);
  }
};

// This process's environment for a child, with `overrides` ("NAME=value")
// replacing any inherited setting of the same names: the child's getenv
// takes the first entry, so an appended override alone would lose to a
// SCANJIT_CACHE_DIR the caller exported.
std::vector<std::string> childEnvironment(std::initializer_list<std::string> overrides) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    llvm::StringRef entry(*e);
    bool overridden = std::any_of(overrides.begin(), overrides.end(), [&](const std::string &o) {
      return entry.startswith(llvm::StringRef(o).split('=').first.str() + "=");
    });
    if (!overridden)
      env.push_back(*e);
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

// `launch`'s work on `stream`, captured into a graph and instantiated.
std::pair<CUgraph, CUgraphExec> captureGraph(CUstream stream, const std::function<void()> &launch) {
  const DriverApi &d = *driver();
  checkCu(d.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL), "cuStreamBeginCapture");
  launch();
  CUgraph graph;
  checkCu(d.cuStreamEndCapture(stream, &graph), "cuStreamEndCapture");
  CUgraphExec exec;
  checkCu(d.cuGraphInstantiate(&exec, graph, 0), "cuGraphInstantiate");
  return {graph, exec};
}

ErrorCode codeOf(const std::function<void()> &fn, std::string *message = nullptr) {
  try {
    fn();
  } catch (const Error &e) {
    if (message)
      *message = e.what();
    return e.code();
  }
  return ErrorCode::Ok;
}

TEST(Api, OneCallFunctionsInTorchsSpirit) {
  SCANJIT_REQUIRE_GPU();
  Problem p(33, 1000);
  ScanOptions o;
  o.reverse = true;
  TensorRef m = p.maskRef();
  o.mask = &m;
  EXPECT_EQ(specFor(ScanOp::Sum, p.outRef(), p.inRef(), -1, o), "sum f32[33,1000] dim=1 mask reverse");
  cumsum(p.outRef(), p.inRef(), -1, o);
  VerifyReport r = p.check("sum f32[33,1000] dim=1 mask reverse");
  EXPECT_TRUE(r.ok()) << r.firstMismatch;

  p.dOut.fill(0xff);
  cummax(p.outRef(), p.inRef(), 0, {});
  r = p.check("max f32[33,1000] dim=0");
  EXPECT_TRUE(r.ok()) << r.firstMismatch;
}

TEST(Api, PrepareOnceLaunchManyOnAStream) {
  SCANJIT_REQUIRE_GPU();
  Problem p(64, 3000);
  Kernel k = prepare("sum f32[64,3000] dim=1 exclusive");
  EXPECT_EQ(k.spec(), "sum f32[64,3000] dim=1 exclusive");
  EXPECT_NE(k.plan().find("family=row"), std::string::npos);
  CUstream stream;
  checkCu(driver()->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  for (int i = 0; i < 5; ++i)
    k.launch(p.outRef(), p.inRef(), nullptr, stream);
  checkCu(driver()->cuStreamSynchronize(stream), "sync");
  VerifyReport r = p.check(k.spec());
  EXPECT_TRUE(r.ok()) << r.firstMismatch;
  driver()->cuStreamDestroy(stream);
}

// Kernels that chain blocks through a workspace (look-back, held shares,
// column pieces, tiles of whole rows)
// get it zeroed once per stream, and each launch must leave it ready for
// the next (no memset between): the input changes between launches, so a
// ticket or a value left by the launch before would show in the results.
TEST(Api, ChainedKernelsLaunchAgainAndAgainOnAStream) {
  SCANJIT_REQUIRE_GPU();
  struct Case {
    int64_t rows, cols;
    const char *spec, *family;
  };
  for (const Case &c : {Case{2, 300000, "sum f32[2,300000] dim=1 reverse", "family=row_lookback"},
                        // 5 tiles: as many blocks as tiles, each past the last at once.
                        Case{1, 20000, "sum f32[1,20000] dim=1 exclusive", "family=row_lookback"},
                        // Held shares: a ticket a block, the last block to end resetting the counter.
                        Case{1, 4194304, "sum f32[1,4194304] dim=1 exclusive", " held_shares=1"},
                        Case{4, 1000000, "sum f32[4,1000000] dim=1 reverse", " held_shares=1"},
                        Case{3000, 256, "sum f32[3000,256] dim=0 exclusive", " pieces="},
                        // (One panel fitted to its 64 columns.)
                        Case{3000, 64, "sum f32[3000,64] dim=0 exclusive", " pieces="},
                        // Tiles of whole rows (off the 16-byte grid): 16 for as many blocks; 167 for 132.
                        Case{3000, 62, "sum f32[3000,62] dim=0 exclusive", " whole_rows=1"},
                        Case{100000, 20, "sum f32[100000,20] dim=0 reverse", " whole_rows=1"}}) {
    Problem p(c.rows, c.cols);
    Kernel k = prepare(c.spec);
    ASSERT_NE(k.plan().find(c.family), std::string::npos) << k.plan();
    CUstream stream;
    checkCu(driver()->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    for (int launch = 0; launch < 6; ++launch) {
      for (float &x : p.in)
        x = launch % 2 ? -x : x + 0.25f;
      p.dIn.upload(p.in.data(), p.in.size() * 4);
      p.dOut.fill(0xff);
      checkCu(driver()->cuCtxSynchronize(), "sync");
      k.launch(p.outRef(), p.inRef(), nullptr, stream);
      checkCu(driver()->cuStreamSynchronize(stream), "sync");
      VerifyReport r = p.check(c.spec);
      EXPECT_TRUE(r.ok()) << c.spec << ", launch " << launch << ": " << r.firstMismatch;
    }
    driver()->cuStreamDestroy(stream);
  }
}

TEST(Api, LaunchRejectsTensorsThatDoNotMatchTheSpec) {
  SCANJIT_REQUIRE_GPU();
  Problem p(16, 64);
  Kernel k = prepare("sum f32[16,64] dim=1 mask");
  TensorRef m = p.maskRef();
  std::string msg;
  EXPECT_EQ(codeOf([&] { k.launch(TensorRef::contiguous(p.dOut.at(0), DType::F32, {16, 63}), p.inRef(), &m); }, &msg),
            ErrorCode::InvalidArgument);
  EXPECT_NE(msg.find("out has sizes [16,63] but the kernel was built for [16,64]"), std::string::npos) << msg;
  EXPECT_EQ(codeOf([&] { k.launch(TensorRef::contiguous(p.dOut.at(0), DType::F16, {16, 64}), p.inRef(), &m); }, &msg),
            ErrorCode::InvalidArgument);
  EXPECT_NE(msg.find("out has dtype f16"), std::string::npos) << msg;
  EXPECT_EQ(codeOf([&] { k.launch(p.outRef(), p.inRef().withStrides({1, 16}), &m); }, &msg), ErrorCode::InvalidArgument);
  EXPECT_NE(msg.find("in has strides [1,16]"), std::string::npos) << msg;
  EXPECT_EQ(codeOf([&] { k.launch(p.outRef(), p.inRef(), nullptr); }, &msg), ErrorCode::InvalidArgument);
  EXPECT_NE(msg.find("mask is a null pointer"), std::string::npos) << msg;
  EXPECT_EQ(codeOf([&] { k.launch(nullptr, p.dIn.at(0), p.dMask.at(0), nullptr); }, &msg), ErrorCode::InvalidArgument);
  EXPECT_NE(msg.find("out is a null pointer"), std::string::npos) << msg;
  EXPECT_EQ(codeOf([&] { k.launch(p.dOut.at(2), p.dIn.at(0), p.dMask.at(0), nullptr); }, &msg), ErrorCode::InvalidArgument);
  EXPECT_NE(msg.find("not aligned to its 4-byte elements"), std::string::npos) << msg;
  EXPECT_EQ(codeOf([&] { prepare("sum f32[4] dim=3"); }, &msg), ErrorCode::InvalidSpec);
  EXPECT_EQ(codeOf([&] { cumsum(p.outRef(), TensorRef::contiguous(p.dIn.at(0), DType::F32, {16, 32}), 1); }, &msg),
            ErrorCode::InvalidArgument);
  EXPECT_NE(msg.find("out has sizes [16,64] but in has [16,32]"), std::string::npos) << msg;
  EXPECT_EQ(codeOf([&] { Kernel().launch(nullptr, nullptr, nullptr, nullptr); }), ErrorCode::InvalidArgument);
}

TEST(Api, CompilesInAProcessWithAContextStillWork) {
  SCANJIT_REQUIRE_GPU();
  Problem p(5, 300);
  Kernel k = prepare("sum f32[5,300] dim=1 reverse exclusive");
  k.launch(p.outRef(), p.inRef());
  VerifyReport r = p.check(k.spec());
  EXPECT_TRUE(r.ok()) << r.firstMismatch;
  std::printf("[   info   ] ptxas report in the NVRTC log with a context current: %s\n",
              inspectKernel("sum f32[5,301] dim=1").resourcesReported ? "yes" : "no");
}

TEST(Api, ConcurrentFirstRequestsCompileOnce) {
  SCANJIT_REQUIRE_GPU();
  const std::string spec = "sum f32[77,777] dim=1 reverse mask exclusive";
  auto made = [] { RegistryStats s = registryStats(); return s.compiles + s.diskHits; };
  const uint64_t before = made();
  std::vector<std::thread> threads;
  std::vector<std::string> plans(16);
  for (int i = 0; i < 16; ++i)
    threads.emplace_back([&, i] { plans[i] = prepare(spec).plan(); });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(made() - before, 1u) << "one compile (or one disk load) for 16 concurrent requests";
  for (const std::string &p : plans)
    EXPECT_EQ(p, plans[0]);
}

TEST(Api, SafeInsideCudaGraphCapture) {
  SCANJIT_REQUIRE_GPU();
  Problem p(64, 3000);
  Kernel k = prepare("sum f32[64,3000] dim=1 mask reverse");
  TensorRef m = p.maskRef();
  const DriverApi &d = *driver();
  CUstream stream;
  checkCu(d.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  checkCu(d.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL), "cuStreamBeginCapture");
  k.launch(p.outRef(), p.inRef(), &m, stream);
  CUgraph graph;
  checkCu(d.cuStreamEndCapture(stream, &graph), "cuStreamEndCapture");
  CUgraphExec exec;
  checkCu(d.cuGraphInstantiate(&exec, graph, 0), "cuGraphInstantiate");
  checkCu(d.cuGraphLaunch(exec, stream), "cuGraphLaunch");
  checkCu(d.cuStreamSynchronize(stream), "sync");
  VerifyReport r = p.check(k.spec());
  EXPECT_TRUE(r.ok()) << r.firstMismatch;
  d.cuGraphExecDestroy(exec);
  d.cuGraphDestroy(graph);
  d.cuStreamDestroy(stream);
}

// A pointer the GPU cannot reach is refused before anything runs, and the
// process's context lives on: pageable host memory, a freed allocation, a
// tensor running past its allocation; pinned host memory is fine.
TEST(Api, PointersTheGpuCannotReachAreRefused) {
  SCANJIT_REQUIRE_GPU();
  const std::string spec = "sum f32[8,500] dim=1";
  const size_t bytes = 8 * 500 * sizeof(float);
  Problem p(8, 500);
  Kernel k = prepare(spec);
  std::vector<float> pageable(8 * 500, 1.0f);
  auto refused = [&](void *out, const void *in, const char *needle) {
    std::string msg;
    EXPECT_EQ(codeOf([&] { k.launch(out, in, nullptr, nullptr); }, &msg), ErrorCode::InvalidArgument) << needle;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  };
  refused(p.dOut.at(0), pageable.data(), "in pointer");
  refused(pageable.data(), p.dIn.at(0), "out pointer");
  const DriverApi &d = *driver();
  CUdeviceptr freed = 0;
  checkCu(d.cuMemAlloc(&freed, bytes), "cuMemAlloc");
  checkCu(d.cuMemFree(freed), "cuMemFree");
  refused(p.dOut.at(0), reinterpret_cast<const void *>(freed), "in pointer");
  // (2 MiB: no allocation granularity can round it up past the tensor's end.)
  DeviceBuffer exact(2 << 20);
  refused(exact.at((2 << 20) - bytes + 4), p.dIn.at(0), "allocation ends");
  EXPECT_EQ(scanjit_scan(spec.c_str(), p.dOut.at(0), pageable.data(), nullptr, nullptr), SCANJIT_INVALID_ARGUMENT);

  void *pinnedIn = nullptr;
  checkCu(d.cuMemAllocHost(&pinnedIn, bytes), "cuMemAllocHost");
  std::memcpy(pinnedIn, p.in.data(), bytes);
  p.dOut.fill(0xff);
  k.launch(p.dOut.at(0), pinnedIn, nullptr, nullptr);
  VerifyReport r = p.check(spec);
  EXPECT_TRUE(r.ok()) << "pinned host input: " << r.firstMismatch;
  checkCu(d.cuMemFreeHost(pinnedIn), "cuMemFreeHost");

  p.dOut.fill(0xff);
  k.launch(p.dOut.at(0), p.dIn.at(0), nullptr, nullptr);
  r = p.check(spec);
  EXPECT_TRUE(r.ok()) << "a correct scan after the refusals: " << r.firstMismatch;
}

// A look-back kernel needs a workspace: captured on a stream that never
// launched it before (no allocation is allowed under global capture), the
// graph replays on another stream, twice, and eager launches go on after it.
TEST(Api, LookbackWorkspaceUnderCaptureOnAFreshStream) {
  SCANJIT_REQUIRE_GPU();
  const std::string spec = "sum f32[2,1048577] dim=1 reverse";
  Problem p(2, 1048577);
  Kernel k = prepare(spec);
  ASSERT_NE(k.plan().find("family=row_lookback"), std::string::npos) << k.plan();
  const DriverApi &d = *driver();
  CUstream capture, replay;
  checkCu(d.cuStreamCreate(&capture, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  checkCu(d.cuStreamCreate(&replay, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  auto [graph, exec] = captureGraph(capture, [&] { k.launch(p.outRef(), p.inRef(), nullptr, capture); });
  for (int replays = 0; replays < 2; ++replays) {
    p.dOut.fill(0xff, replay); // (non-blocking streams: in stream order, not the legacy stream's)
    checkCu(d.cuGraphLaunch(exec, replay), "cuGraphLaunch");
    checkCu(d.cuStreamSynchronize(replay), "sync");
    VerifyReport r = p.check(spec);
    EXPECT_TRUE(r.ok()) << "replay " << replays << ": " << r.firstMismatch;
  }
  p.dOut.fill(0xff, capture);
  k.launch(p.outRef(), p.inRef(), nullptr, capture);
  checkCu(d.cuStreamSynchronize(capture), "sync");
  VerifyReport r = p.check(spec);
  EXPECT_TRUE(r.ok()) << "eager launch after the capture: " << r.firstMismatch;
  d.cuGraphExecDestroy(exec);
  d.cuGraphDestroy(graph);
  d.cuStreamDestroy(capture);
  d.cuStreamDestroy(replay);
}

// Workspaces stay bounded (runtime/Workspaces.h): a host that creates,
// launches on and destroys a stream per request, 10,000 times, keeps at most
// kMaxWorkspaces of them and flat device memory, and its results are right;
// graphs captured with look-back launches free their workspaces once
// destroyed.
TEST(Api, WorkspacesStayBoundedOverTenThousandStreams) {
  SCANJIT_REQUIRE_GPU();
  const DriverApi &d = *driver();
  const std::string lookback = "sum f32[4,200000] dim=1 reverse", pieces = "sum f32[4096,512] dim=0";
  Problem a(4, 200000), b(4096, 512);
  Kernel ka = prepare(lookback), kb = prepare(pieces);
  ASSERT_NE(ka.plan().find("family=row_lookback"), std::string::npos) << ka.plan();
  ASSERT_NE(kb.plan().find("pieces="), std::string::npos) << kb.plan();
  auto freeBytes = [&] {
    checkCu(d.cuCtxSynchronize(), "sync");
    size_t free = 0, total = 0;
    checkCu(d.cuMemGetInfo(&free, &total), "cuMemGetInfo");
    return free;
  };
  auto requests = [&](int n) {
    for (int i = 0; i < n; ++i) {
      CUstream s;
      checkCu(d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
      ka.launch(a.outRef(), a.inRef(), nullptr, s);
      kb.launch(b.outRef(), b.inRef(), nullptr, s);
      checkCu(d.cuStreamDestroy(s), "cuStreamDestroy");
    }
  };
  requests(2 * int(kMaxWorkspaces)); // the pool at its bound
  // Device memory a round of 10,000 requests took. (Free memory is the
  // device's: another process's allocations show in it too, as when the
  // GPU suite runs in shards at once. A leak grows in every round, so a
  // round over the bound is measured once more: shard 2 once saw 24 MB.)
  auto growth = [&] {
    const size_t before = freeBytes();
    requests(10000);
    const size_t after = freeBytes();
    return before > after ? before - after : 0;
  };
  const uint64_t evictionsBefore = workspaceStats().evictions;
  size_t grew = growth();
  const WorkspaceStats st = workspaceStats();
  EXPECT_LE(st.kept, kMaxWorkspaces);
  EXPECT_GE(st.evictions - evictionsBefore, 10000u * 2 / kMaxWorkspaces) << "a ctx sync per half pool";
  constexpr size_t kBound = size_t(16) << 20;
  if (grew > kBound)
    grew = std::min(grew, growth());
  EXPECT_LE(grew, kBound) << "device memory grew over 10,000 streams, in two rounds";
  VerifyReport ra = a.check(lookback), rb = b.check(pieces);
  EXPECT_TRUE(ra.ok()) << ra.firstMismatch;
  EXPECT_TRUE(rb.ok()) << rb.firstMismatch;

  // Captured graphs: each capture's workspace is freed after its graph goes
  // (the user object's destructor runs on a driver thread; the next request
  // frees what it released).
  auto drainCaptured = [&] {
    for (int tries = 0; tries < 200 && workspaceStats().captured > 0; ++tries) {
      ka.launch(a.outRef(), a.inRef(), nullptr, nullptr);
      checkCu(d.cuCtxSynchronize(), "sync");
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return workspaceStats().captured;
  };
  const size_t capturedBefore = drainCaptured();
  const size_t beforeGraphs = freeBytes();
  for (int i = 0; i < 200; ++i) {
    CUstream s;
    checkCu(d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    auto [graph, exec] = captureGraph(s, [&] { ka.launch(a.outRef(), a.inRef(), nullptr, s); });
    a.dOut.fill(0xff, s);
    checkCu(d.cuGraphLaunch(exec, s), "cuGraphLaunch");
    checkCu(d.cuStreamSynchronize(s), "sync");
    if (i == 199) {
      VerifyReport r = a.check(lookback);
      EXPECT_TRUE(r.ok()) << "the last graph's replay: " << r.firstMismatch;
    }
    d.cuGraphExecDestroy(exec);
    d.cuGraphDestroy(graph);
    d.cuStreamDestroy(s);
  }
  EXPECT_EQ(drainCaptured(), capturedBefore) << "captured workspaces outlived their graphs";
  const size_t afterGraphs = freeBytes();
  EXPECT_LE(beforeGraphs > afterGraphs ? beforeGraphs - afterGraphs : 0, size_t(16) << 20);
}

TEST(CApi, StatusCodesAndLastError) {
  SCANJIT_REQUIRE_GPU();
  scanjit_kernel *k = nullptr;
  EXPECT_EQ(scanjit_prepare("sum f33[4] dim=0", &k), SCANJIT_INVALID_SPEC);
  EXPECT_NE(std::string(scanjit_last_error()).find("unknown dtype 'f33'"), std::string::npos);
  EXPECT_EQ(k, nullptr);
  Problem p(8, 500);
  ASSERT_EQ(scanjit_prepare("sum f32[8,500] dim=1", &k), SCANJIT_OK) << scanjit_last_error();
  EXPECT_EQ(std::string(scanjit_last_error()), "");
  EXPECT_NE(std::string(scanjit_kernel_plan(k)).find("family="), std::string::npos);
  EXPECT_EQ(scanjit_launch(k, p.dOut.at(0), p.dIn.at(0), nullptr, nullptr), SCANJIT_OK);
  VerifyReport r = p.check("sum f32[8,500] dim=1");
  EXPECT_TRUE(r.ok()) << r.firstMismatch;
  EXPECT_EQ(scanjit_launch(k, nullptr, p.dIn.at(0), nullptr, nullptr), SCANJIT_INVALID_ARGUMENT);
  scanjit_release(k);
  EXPECT_EQ(scanjit_scan("sum f32[8,500] dim=1 reverse", p.dOut.at(0), p.dIn.at(0), nullptr, nullptr), SCANJIT_OK);
  r = p.check("sum f32[8,500] dim=1 reverse");
  EXPECT_TRUE(r.ok()) << r.firstMismatch;
}

// A process that finds every spec precompiled performs zero NVRTC compiles:
// `scanjit run` with SCANJIT_LOG=2 logs a cache hit for the precompiled scan
// and never compiles it; its first run may compile the tool's own random-input
// generators (testing/DeviceRandom.h), and a second run compiles nothing.
TEST(Cache, PrecompiledThenRunCompilesNothing) {
  SCANJIT_REQUIRE_GPU();
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("scanjit-gpu-cache", dir));
  const std::string spec = "sum f32[321,4321] dim=1 mask reverse";
  const std::string arch = "sm_" + std::to_string(detectGpuSm());
  const std::string cli = cliPath();
  ASSERT_EQ(llvm::sys::ExecuteAndWait(cli, {cli, "precompile", spec, "--cache-dir", dir.str(), "--arch", arch}), 0);
  const std::vector<std::string> env = childEnvironment({"SCANJIT_CACHE_DIR=" + dir.str().str(), "SCANJIT_LOG=2"});
  std::vector<llvm::StringRef> envRefs(env.begin(), env.end());
  llvm::ArrayRef<llvm::StringRef> envArg(envRefs);
  auto run = [&](const char *name) {
    const std::string log = (dir + "/" + name).str();
    llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::StringRef(log), llvm::StringRef(log)};
    int rc = llvm::sys::ExecuteAndWait(cli, {cli, "run", spec, "--iters", "2"}, envArg, redirects);
    auto text = llvm::MemoryBuffer::getFile(log);
    std::string out = text ? (*text)->getBuffer().str() : "(no log)";
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("scanjit: cache hit"), std::string::npos) << out;
    EXPECT_EQ(out.find("scanjit: compiled 'sum"), std::string::npos) << "the precompiled scan was compiled\n" << out;
    EXPECT_NE(out.find("check: pass"), std::string::npos) << out;
    return out;
  };
  run("first.log");
  const std::string second = run("second.log");
  EXPECT_EQ(second.find("scanjit: compiled"), std::string::npos) << second;
  llvm::sys::fs::remove_directories(dir);
}

// `inspect --emit resources` works on a GPU machine (where NVRTC's log has
// been seen without ptxas's report): the seed specs, cache off, for the
// GPU's own arch and for sm_90, in a CLI process that holds a context.
TEST(Cache, InspectResourcesOfTheSeedsOnAGpuMachine) {
  SCANJIT_REQUIRE_GPU();
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("scanjit-gpu-inspect", dir));
  const std::vector<std::string> env = childEnvironment({"SCANJIT_CACHE=off"});
  std::vector<llvm::StringRef> envRefs(env.begin(), env.end());
  const std::string cli = cliPath(), log = (dir + "/inspect.log").str();
  llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::StringRef(log), llvm::StringRef(log)};
  for (const char *spec : {"sum f32[32768,32768] dim=1", "sum f32[32768,32768] dim=1 reverse",
                           "sum f32[32768,32768] dim=1 mask", "sum f32[32768,32768] dim=1 exclusive"}) {
    for (const char *arch : {"", "sm_90"}) {
      std::vector<llvm::StringRef> args = {cli, "inspect", spec, "--emit", "resources"};
      if (*arch)
        args.insert(args.end(), {"--arch", arch});
      int rc = llvm::sys::ExecuteAndWait(cli, args, llvm::ArrayRef<llvm::StringRef>(envRefs), redirects);
      auto text = llvm::MemoryBuffer::getFile(log);
      ASSERT_TRUE(bool(text));
      std::string out = (*text)->getBuffer().str();
      EXPECT_EQ(rc, 0) << spec << " " << arch << ":\n" << out;
      EXPECT_NE(out.find("resources_from="), std::string::npos) << out;
      EXPECT_EQ(out.find("registers=0\n"), std::string::npos) << out;
      EXPECT_NE(out.find("spill_stores=0\n"), std::string::npos) << out;
    }
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST(NoGpu, ReportsWhyWhenAbsent) {
  if (gpuSkipReason().empty())
    GTEST_SKIP() << "a GPU is present";
  std::string msg;
  ErrorCode code = codeOf([] { prepare("sum f32[4] dim=0"); }, &msg);
  EXPECT_TRUE(code == ErrorCode::NoDriver || code == ErrorCode::NoDevice) << msg;
  EXPECT_NE(msg.find("no"), std::string::npos) << msg;
}

} // namespace
