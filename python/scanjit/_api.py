"""The scans, specs, kernels and inspection, over the C++ runtime."""
from . import _core
from ._arrays import allocate_like, contiguous_strides, current_stream, describe, is_torch
from ._core import InvalidArgument, Unsupported

_OPS = ("sum", "prod", "max", "min", "logsumexp")
_INTS = ("u8", "i8", "i16", "i32", "i64", "bool")
_DTYPE_NAMES = {  # what dtype= accepts besides scanjit's own names
    "float16": "f16", "half": "f16", "bfloat16": "bf16", "float32": "f32", "float": "f32", "float64": "f64",
    "double": "f64", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "long": "i64",
}


def _dtype_name(dtype) -> str:
    """dtype= as scanjit's name: 'f32', 'float32', torch.float32, numpy/CuPy dtypes."""
    text = str(dtype).replace("torch.", "")
    if text in _DTYPE_NAMES.values():
        return text
    if text in _DTYPE_NAMES:
        return _DTYPE_NAMES[text]
    if text == "bool":
        return "bool"
    raise Unsupported(f"dtype={dtype!r} is not one of {', '.join(sorted(set(_DTYPE_NAMES.values())))}")


def _default_out_dtype(op: str, in_dtype: str) -> str:
    # torch's rules: integer and bool sums and products accumulate in int64.
    if op in ("sum", "prod") and in_dtype in _INTS:
        return "i64"
    return in_dtype


def _normalize_dim(dim: int, rank: int) -> int:
    if not isinstance(dim, int):
        raise InvalidArgument(f"dim={dim!r} is not an int")
    lo, hi = (-rank, rank - 1) if rank else (-1, 0)
    if not lo <= dim <= hi:
        raise InvalidArgument(f"dim={dim} is out of range for a tensor of {rank} dims ([{lo}, {hi}])")
    return dim + rank if dim < 0 else dim


def _prepare_call(op, x, dim, reverse, exclusive, mask, out, dtype, allocate):
    if op not in _OPS:
        raise InvalidArgument(f"op={op!r} is not one of {', '.join(_OPS)}")
    xd = describe(x, "x")
    dim = _normalize_dim(dim, len(xd.sizes))
    md = describe(mask, "mask") if mask is not None else None
    want = _dtype_name(dtype) if dtype is not None else None
    if out is None:
        out_dtype = want or _default_out_dtype(op, xd.dtype)
        out = allocate_like(x, xd.sizes, out_dtype) if allocate else None
        od = describe(out, "out") if out is not None else xd._replace(dtype=out_dtype)
    else:
        od = describe(out, "out")
        if want is not None and want != od.dtype:
            raise InvalidArgument(f"dtype={dtype!r} but out has dtype {od.dtype}")
    return out, xd, dim, md, od


# Kernels by everything a spec is made of but the pointers, so a repeated call
# skips building and looking up its spec text.
_KERNELS = {}
_MAX_KERNELS = 4096


def _kernel_for(op, od, xd, dim, md, reverse, exclusive):
    key = (op, od.dtype, od.sizes, od.strides, xd.dtype, xd.sizes, xd.strides,
           (md.dtype, md.sizes, md.strides) if md else None, dim, reverse, exclusive)
    kernel = _KERNELS.get(key)
    if kernel is None:
        spec = _core.spec_for(op, od.core(), xd.core(), dim, md.core() if md else None, reverse, exclusive)
        kernel = _core.prepare(spec)
        if len(_KERNELS) >= _MAX_KERNELS:
            _KERNELS.clear()
        _KERNELS[key] = kernel
    return kernel


# The commonest call, a torch tensor (and mask) scanned into a fresh output on
# its device's current stream: what it needs by the tensors' layouts, filled by
# the general path's first call, so a repeated call does no more than allocate
# the output and launch (issue 17's per-call target: no slower than torch.cumsum).
_TORCH_CALLS = {}  # (never rebound, only cleared: scanjit.torch holds it too)


def _torch_key(op, x, dim, reverse, exclusive, mask):  # (scanjit.torch's entry builds it inline)
    key = (op, x.dtype, x.shape, x.stride(), dim, reverse, exclusive, x.get_device())
    if mask is not None:
        key += (mask.dtype, mask.shape, mask.stride(), mask.get_device())
    return key


def _launch_torch(hit, x, mask):
    launch, alloc, strides, out_dtype, device, index, stream_of = hit
    out = alloc(x) if strides is None else alloc(x.shape, strides, dtype=out_dtype, device=device)
    launch(out.data_ptr(), x.data_ptr(), mask.data_ptr() if mask is not None else 0, stream_of(index))
    return out


def _remember_torch_call(key, kernel, x, out):
    import torch
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # (what Triton uses: no Stream object)
    stream_of = raw or (lambda index: torch.cuda.current_stream(index).cuda_stream)
    if len(_TORCH_CALLS) >= _MAX_KERNELS:
        _TORCH_CALLS.clear()
    # The output's allocation is most of a call's host time: torch.empty_like(x) where it gives the
    # output's layout (x's dtype, dense x), 0.5 µs cheaper than torch.empty_strided, itself a few µs
    # cheaper than torch.empty (BENCHMARKS.md). Every x of this key has the same layout, so one
    # check here holds for all. The launch skips the driver's pointer check: torch vouches for
    # its CUDA tensors.
    if out.dtype == x.dtype and torch.empty_like(x).stride() == out.stride():
        alloc, strides = torch.empty_like, None
    else:
        alloc, strides = torch.empty_strided, out.stride()
    _TORCH_CALLS[key] = (kernel.launch_unchecked, alloc, strides, out.dtype, x.device, x.device.index, stream_of)


def scan(op: str, x, dim: int, *, reverse=False, exclusive=False, mask=None, out=None, dtype=None, stream=None):
    """Scans x along dim with op (sum, prod, max, min, logsumexp) into out (allocated by x's framework
    when None) on `stream` (default: the framework's current stream); returns out."""
    plain = (out is None and dtype is None and stream is None and is_torch(x) and x.is_cuda and
             (mask is None or (is_torch(mask) and mask.is_cuda)))
    if plain:
        key = _torch_key(op, x, dim, bool(reverse), bool(exclusive), mask)
        hit = _TORCH_CALLS.get(key)
        if hit is not None:
            return _launch_torch(hit, x, mask)
    out, xd, dim_, md, od = _prepare_call(op, x, dim, reverse, exclusive, mask, out, dtype, True)
    kernel = _kernel_for(op, od, xd, dim_, md, bool(reverse), bool(exclusive))
    kernel.launch(od.data, xd.data, md.data if md else 0, current_stream(x, stream))
    if plain:
        _remember_torch_call(key, kernel, x, out)
    return out


def _op(name, doc):
    def fn(x, dim, *, reverse=False, exclusive=False, mask=None, out=None, dtype=None, stream=None):
        return scan(name, x, dim, reverse=reverse, exclusive=exclusive, mask=mask, out=out, dtype=dtype,
                    stream=stream)
    fn.__doc__ = doc + " Keywords as scan()."
    return fn


def _scan_with_indices(op, x, dim, reverse, exclusive, mask, out, dtype, stream):
    out, xd, dim_, md, od = _prepare_call(op, x, dim, reverse, exclusive, mask, out, dtype, True)
    indices = allocate_like(x, od.sizes, "i64", "indices")
    ixd = describe(indices, "indices")
    if ixd.strides != od.strides:  # (the kernel writes the indices at the output's strides)
        raise InvalidArgument(f"indices=True needs out laid out as a fresh tensor; out has strides {od.strides}")
    spec = _core.spec_for(op, od.core(), xd.core(), dim_, md.core() if md else None, bool(reverse),
                          bool(exclusive)) + " indices"
    kernel = _core.prepare(spec)
    kernel.launch_with_indices(od.data, ixd.data, xd.data, md.data if md else 0, current_stream(x, stream))
    return out, indices


def _extreme(name, doc):
    def fn(x, dim, *, reverse=False, exclusive=False, mask=None, out=None, dtype=None, stream=None, indices=False):
        if indices:
            return _scan_with_indices(name, x, dim, reverse, exclusive, mask, out, dtype, stream)
        return scan(name, x, dim, reverse=reverse, exclusive=exclusive, mask=mask, out=out, dtype=dtype,
                    stream=stream)
    fn.__doc__ = (doc + " Keywords as scan(); indices=True returns (values, indices): each result's int64 index"
                  " along dim, as torch's (ties take the later element, every NaN its own; -1 before any kept"
                  " element).")
    return fn


cumsum = _op("sum", "Cumulative sum of x along dim.")
cumprod = _op("prod", "Cumulative product of x along dim.")
cummax = _extreme("max", "Running maximum of x along dim (NaN propagates).")
cummin = _extreme("min", "Running minimum of x along dim (NaN propagates).")
logcumsumexp = _op("logsumexp", "log(cumsum(exp(x))) along dim, computed stably.")


def spec_for(op: str, x, dim: int, *, reverse=False, exclusive=False, mask=None, out=None, dtype=None) -> str:
    """The canonical spec of a scan of these arrays (their dtypes, sizes and strides); allocates nothing."""
    _, xd, dim, md, od = _prepare_call(op, x, dim, reverse, exclusive, mask, out, dtype, False)
    if out is None:  # the output a scan would allocate: contiguous
        od = od._replace(strides=contiguous_strides(xd.sizes))
    return _core.spec_for(op, od.core(), xd.core(), dim, md.core() if md else None, bool(reverse),
                          bool(exclusive))


class Kernel:
    """A compiled, loaded kernel for one spec: launch() it on arrays laid out as the spec says."""

    def __init__(self, core_kernel):
        self._k = core_kernel

    spec = property(lambda self: self._k.spec, doc="canonical spec text")
    plan = property(lambda self: self._k.plan, doc="canonical plan text")
    entry = property(lambda self: self._k.entry, doc="the kernel's name")

    def launch(self, out, x, mask=None, stream=None):
        """Queues the scan of x into out on `stream` (default: x's framework's current stream)."""
        self._k.launch(describe(out, "out").data, describe(x, "x").data,
                       describe(mask, "mask").data if mask is not None else 0, current_stream(x, stream))

    def __repr__(self):
        return f"<scanjit.Kernel {self.spec!r}>"


def prepare(spec: str) -> Kernel:
    """Compiles (or finds in the memory and disk caches) and loads the kernel of a spec."""
    return Kernel(_core.prepare(spec))


_RESOURCES = ("resources_from", "registers", "spill_stores", "spill_loads", "shared_bytes", "dynamic_shared_bytes",
              "compile_ms")
_EMITS = ("plan", "source", "ptx", "sass", "resources", "key")


def inspect(spec: str, emit: str = "plan", arch: str = None):
    """What scanjit generates for a spec, without a GPU: emit="plan", "source", "ptx", "sass" (through
    nvdisasm), "key" (the cache key's digest) as text, or "resources" (a dict of registers, spills, shared
    memory and compile time; "resources_from": "ptxas" or "cubin", where spills are -1 if unknown).
    arch: "sm_90", ...; default $SCANJIT_ARCH, else the GPU present, else sm_90."""
    if emit not in _EMITS:
        raise InvalidArgument(f"emit={emit!r} is not one of {', '.join(_EMITS)}")
    if emit == "sass":
        return _core.sass(spec, arch or "")
    report = _core.inspect_kernel(spec, arch or "")
    if emit == "resources":
        return {k: report[k] for k in ("arch", "entry") + _RESOURCES}
    return report[emit]


def precompile(specs, arch=None, cache_dir: str = None, jobs: int = 0) -> dict:
    """Compiles specs (a list, or one spec) for arch (one name or a list; default $SCANJIT_ARCH, else the
    GPU present, else sm_90) into the disk cache at cache_dir (default: $SCANJIT_CACHE_DIR's settings),
    `jobs` at a time (0: every core). Needs no GPU. Returns {"compiled", "cached", "failures"}; raises
    scanjit.Error if any spec failed, listing each."""
    specs = [specs] if isinstance(specs, str) else list(specs)
    archs = [] if arch is None else [arch] if isinstance(arch, str) else list(arch)
    result = _core.precompile(specs, archs, cache_dir or "", int(jobs))
    if result["failures"]:
        raise _core.Error(f"precompile: {len(result['failures'])} of {len(specs) * max(1, len(archs))} failed:\n" +
                          "\n".join(result["failures"]))
    return result


def cache_stats() -> dict:
    """Kernels found in memory, loaded from the disk cache, and compiled, in this process."""
    return _core.runtime_stats()
