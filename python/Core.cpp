// scanjit._core: the C++ API for Python, kept thin. Tensors cross as plain
// descriptions (pointer, dtype name, sizes, element strides), built by the
// pure-Python layer from torch tensors or __cuda_array_interface__ arrays.
// Every scanjit::Error becomes the Python exception class of its code.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "scanjit/Error.h"
#include "scanjit/Inspect.h"
#include "scanjit/Precompile.h"
#include "scanjit/Scan.h"

#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;
using namespace scanjit;

namespace {

// (data pointer, dtype name, sizes, element strides)
using TensorDesc = std::tuple<uintptr_t, std::string, std::vector<int64_t>, std::vector<int64_t>>;

constexpr std::array<std::pair<const char *, DType>, 10> kDTypes = {{{"f16", DType::F16},
                                                                      {"bf16", DType::BF16},
                                                                      {"f32", DType::F32},
                                                                      {"f64", DType::F64},
                                                                      {"u8", DType::U8},
                                                                      {"i8", DType::I8},
                                                                      {"i16", DType::I16},
                                                                      {"i32", DType::I32},
                                                                      {"i64", DType::I64},
                                                                      {"bool", DType::Bool}}};

constexpr std::array<std::pair<const char *, ScanOp>, 5> kOps = {{{"sum", ScanOp::Sum},
                                                                  {"prod", ScanOp::Prod},
                                                                  {"max", ScanOp::Max},
                                                                  {"min", ScanOp::Min},
                                                                  {"logsumexp", ScanOp::LogSumExp}}};

template <class T, size_t N>
T lookup(const std::array<std::pair<const char *, T>, N> &table, const std::string &name, const char *what) {
  std::string known;
  for (const auto &[key, value] : table) {
    if (name == key)
      return value;
    known += known.empty() ? key : std::string(", ") + key;
  }
  throw Error(ErrorCode::InvalidArgument, std::string(what) + " '" + name + "' is not one of " + known);
}

TensorRef toRef(const TensorDesc &d, const char *name) {
  const auto &[data, dtype, sizes, strides] = d;
  if (sizes.size() != strides.size())
    throw Error(ErrorCode::InvalidArgument, std::string(name) + ": " + std::to_string(sizes.size()) + " sizes but " +
                                                std::to_string(strides.size()) + " strides");
  if (sizes.size() > size_t(kMaxRank))
    throw Error(ErrorCode::Unsupported, std::string(name) + " has " + std::to_string(sizes.size()) +
                                            " dims; scanjit scans tensors of at most " + std::to_string(kMaxRank));
  TensorRef t;
  t.data = reinterpret_cast<void *>(data);
  t.dtype = lookup(kDTypes, dtype, (std::string(name) + " dtype").c_str());
  t.rank = int(sizes.size());
  for (int i = 0; i < t.rank; ++i) {
    t.sizes[i] = sizes[i];
    t.strides[i] = strides[i];
  }
  return t;
}

struct Call {
  ScanOp op;
  TensorRef out, in, mask;
  ScanOptions options;
};

Call makeCall(const std::string &op, const TensorDesc &out, const TensorDesc &in, const std::optional<TensorDesc> &mask,
              bool reverse, bool exclusive, uintptr_t stream) {
  Call c{lookup(kOps, op, "op"), toRef(out, "out"), toRef(in, "x"), {}, {}};
  c.options.reverse = reverse;
  c.options.exclusive = exclusive;
  c.options.stream = reinterpret_cast<Stream>(stream);
  if (mask) {
    c.mask = toRef(*mask, "mask");
    c.options.mask = &c.mask;
  }
  return c;
}

// One Python class per ErrorCode, all under scanjit.Error.
struct ErrorClasses {
  PyObject *base = nullptr;
  std::vector<std::pair<ErrorCode, PyObject *>> byCode;
  PyObject *of(ErrorCode code) const {
    for (const auto &[c, cls] : byCode)
      if (c == code)
        return cls;
    return base;
  }
};
ErrorClasses &errorClasses() {
  static ErrorClasses classes;
  return classes;
}

// A Kernel launch method bound for Python: device pointers and the stream
// as ints.
using PointerLaunch = void (Kernel::*)(void *, const void *, const void *, Stream) const;
auto onPointers(PointerLaunch launch) {
  return [launch](const Kernel &k, uintptr_t out, uintptr_t in, uintptr_t mask, uintptr_t stream) {
    (k.*launch)(reinterpret_cast<void *>(out), reinterpret_cast<const void *>(in),
                reinterpret_cast<const void *>(mask), reinterpret_cast<Stream>(stream));
  };
}

} // namespace

NB_MODULE(_core, m) {
  m.doc() = "scanjit's C++ runtime (use the scanjit package, not this module)";
  // Kernels stay cached in the package's dicts until the interpreter exits,
  // by design: nanobind's exit-time leak report would name each of them.
  nb::set_leak_warnings(false);
  ErrorClasses &errors = errorClasses();
  errors.base = PyErr_NewExceptionWithDoc("scanjit.Error", "Any error scanjit raises; .code names its class.",
                                          PyExc_RuntimeError, nullptr);
  m.attr("Error") = nb::handle(errors.base);
  const std::pair<const char *, ErrorCode> kClasses[] = {
      {"InvalidSpec", ErrorCode::InvalidSpec},     {"Unsupported", ErrorCode::Unsupported},
      {"InvalidArgument", ErrorCode::InvalidArgument}, {"CompileFailed", ErrorCode::CompileFailed},
      {"NoDriver", ErrorCode::NoDriver},           {"NoDevice", ErrorCode::NoDevice},
      {"DriverError", ErrorCode::DriverError},     {"CacheError", ErrorCode::CacheError},
      {"Internal", ErrorCode::Internal}};
  for (const auto &[name, code] : kClasses) {
    PyObject *cls = PyErr_NewException((std::string("scanjit.") + name).c_str(), errors.base, nullptr);
    errors.byCode.push_back({code, cls});
    m.attr(name) = nb::handle(cls);
  }
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const Error &e) {
      PyErr_SetString(errorClasses().of(e.code()), e.what());
    }
  });

  m.def("spec_for",
        [](const std::string &op, const TensorDesc &out, const TensorDesc &in, int dim,
           const std::optional<TensorDesc> &mask, bool reverse, bool exclusive) {
          Call c = makeCall(op, out, in, mask, reverse, exclusive, 0);
          return specFor(c.op, c.out, c.in, dim, c.options);
        },
        nb::arg("op"), nb::arg("out"), nb::arg("x"), nb::arg("dim"), nb::arg("mask").none(), nb::arg("reverse"),
        nb::arg("exclusive"), "The canonical spec of a scan of these tensors.");

  m.def("scan",
        [](const std::string &op, const TensorDesc &out, const TensorDesc &in, int dim,
           const std::optional<TensorDesc> &mask, bool reverse, bool exclusive, uintptr_t stream) {
          Call c = makeCall(op, out, in, mask, reverse, exclusive, stream);
          nb::gil_scoped_release release; // a first call may compile for a while
          scan(c.op, c.out, c.in, dim, c.options);
        },
        nb::arg("op"), nb::arg("out"), nb::arg("x"), nb::arg("dim"), nb::arg("mask").none(), nb::arg("reverse"),
        nb::arg("exclusive"), nb::arg("stream"), "Queues the scan of x into out on `stream` (a CUstream as int).");

  nb::class_<Kernel>(m, "Kernel", "A compiled, loaded kernel for one spec (scanjit.prepare).")
      .def_prop_ro("spec", &Kernel::spec)
      .def_prop_ro("plan", &Kernel::plan)
      .def_prop_ro("entry", &Kernel::entryName)
      .def("launch", onPointers(static_cast<PointerLaunch>(&Kernel::launch)), nb::arg("out"), nb::arg("x"),
           nb::arg("mask"), nb::arg("stream"), "Launches on bare device pointers laid out as the spec says.")
      .def("launch_unchecked", onPointers(&Kernel::launchUnchecked), nb::arg("out"), nb::arg("x"), nb::arg("mask"),
           nb::arg("stream"),
           "launch() without the driver's check of each pointer (for tensors a framework vouches for).")
      .def(
          "launch_with_indices",
          [](const Kernel &k, uintptr_t out, uintptr_t indices, uintptr_t x, uintptr_t mask, uintptr_t stream) {
            k.launchWithIndices(reinterpret_cast<void *>(out), reinterpret_cast<int64_t *>(indices),
                                reinterpret_cast<const void *>(x), reinterpret_cast<const void *>(mask),
                                reinterpret_cast<Stream>(stream));
          },
          nb::arg("out"), nb::arg("indices"), nb::arg("x"), nb::arg("mask"), nb::arg("stream"),
          "For a max/min spec with `indices`: also each result's int64 index along dim, at out's strides.")
      .def("__repr__", [](const Kernel &k) { return "<scanjit.Kernel '" + k.spec() + "'>"; });

  m.def(
      "prepare",
      [](const std::string &spec) {
        nb::gil_scoped_release release;
        return prepare(spec);
      },
      nb::arg("spec"), "Compiles (or finds in the caches) and loads the kernel of a spec.");

  m.def(
      "inspect_kernel",
      [](const std::string &spec, const std::string &arch) {
        KernelReport r;
        {
          nb::gil_scoped_release release;
          r = inspectKernel(spec, arch);
        }
        nb::dict d;
        d["spec"] = r.spec;
        d["plan"] = r.plan;
        d["arch"] = r.arch;
        d["entry"] = r.entry;
        d["source"] = r.source;
        d["ptx"] = r.ptx;
        d["key"] = r.key;
        d["resources_from"] = r.resourcesFrom;
        d["registers"] = r.registers;
        d["spill_stores"] = r.spillStores;
        d["spill_loads"] = r.spillLoads;
        d["shared_bytes"] = r.sharedBytes;
        d["dynamic_shared_bytes"] = r.dynamicSharedBytes;
        d["compile_ms"] = r.compileMillis;
        return d;
      },
      nb::arg("spec"), nb::arg("arch"), "Plans, generates and compiles a spec without a GPU.");

  m.def(
      "sass",
      [](const std::string &spec, const std::string &arch) {
        nb::gil_scoped_release release;
        return disassemble(inspectKernel(spec, arch));
      },
      nb::arg("spec"), nb::arg("arch"), "The SASS of a spec's kernel, through nvdisasm.");

  m.def(
      "precompile",
      [](const std::vector<std::string> &specs, const std::vector<std::string> &archs, const std::string &cacheDir,
         unsigned jobs) {
        PrecompileResult r;
        {
          nb::gil_scoped_release release;
          r = precompile(specs, archs, cacheDir, jobs);
        }
        nb::dict d;
        d["compiled"] = r.compiled;
        d["cached"] = r.cached;
        d["failures"] = r.failures;
        return d;
      },
      nb::arg("specs"), nb::arg("archs"), nb::arg("cache_dir"), nb::arg("jobs"),
      "Compiles specs for archs into the disk cache (no GPU needed).");

  m.def("runtime_stats", [] {
    const RuntimeStats s = runtimeStats();
    nb::dict d;
    d["memory_hits"] = s.memoryHits;
    d["disk_hits"] = s.diskHits;
    d["compiles"] = s.compiles;
    return d;
  });
  m.def("gpu_available", &gpuAvailable);
  m.def("gpu_unavailable_reason", &gpuUnavailableReason);
}
