"""Arrays in, descriptions out: a CUDA array's pointer, dtype, sizes and element
strides, read from a torch tensor, from __cuda_array_interface__ (CuPy, Numba)
or from DLPack (JAX and the rest), without importing any framework."""
import ctypes
from typing import NamedTuple, Tuple

from ._core import InvalidArgument, Unsupported


class Desc(NamedTuple):
    data: int
    dtype: str  # scanjit's name: f16, bf16, f32, f64, u8, i8, i16, i32, i64, bool
    sizes: Tuple[int, ...]
    strides: Tuple[int, ...]  # in elements

    def core(self):
        return (self.data, self.dtype, list(self.sizes), list(self.strides))


_TORCH_DTYPES = {
    "torch.float16": "f16", "torch.bfloat16": "bf16", "torch.float32": "f32", "torch.float64": "f64",
    "torch.uint8": "u8", "torch.int8": "i8", "torch.int16": "i16", "torch.int32": "i32", "torch.int64": "i64",
    "torch.bool": "bool",
}
_TYPESTRS = {
    "f2": "f16", "f4": "f32", "f8": "f64", "u1": "u8", "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64", "b1": "bool",
}
ITEMSIZE = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "u8": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "bool": 1}


def contiguous_strides(sizes) -> Tuple[int, ...]:
    """Row-major element strides of `sizes` (a size-0 dim counts as 1, as the spec's own rule)."""
    strides, step = [], 1
    for s in reversed(sizes):
        strides.append(step)
        step *= max(s, 1)
    return tuple(reversed(strides))


def is_torch(a) -> bool:
    return type(a).__module__.startswith("torch") and hasattr(a, "data_ptr")


def describe(a, name: str) -> Desc:
    """The description of CUDA array `a` (named `name` in errors)."""
    if is_torch(a):
        if a.device.type != "cuda":
            raise InvalidArgument(f"{name} is on {a.device}; scanjit scans CUDA tensors")
        dtype = _TORCH_DTYPES.get(str(a.dtype))
        if dtype is None:
            raise Unsupported(f"{name} has dtype {a.dtype}; scanjit scans {', '.join(_TORCH_DTYPES)}")
        return Desc(a.data_ptr(), dtype, tuple(a.shape), tuple(a.stride()))
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is None and hasattr(a, "__dlpack__"):
        return _describe_dlpack(a, name)
    if cai is None:
        raise InvalidArgument(f"{name}: a {type(a).__module__}.{type(a).__name__} is not a CUDA array "
                              "(a torch tensor on a GPU, or an array with __cuda_array_interface__ or __dlpack__)")
    typestr = cai["typestr"]
    dtype = _TYPESTRS.get(typestr[1:])
    if dtype is None:
        raise Unsupported(f"{name} has typestr {typestr!r}; scanjit scans {', '.join(_TYPESTRS)}")
    sizes = tuple(int(s) for s in cai["shape"])
    item = ITEMSIZE[dtype]
    if cai.get("strides") is None:
        strides = contiguous_strides(sizes)
    else:
        byte_strides = tuple(int(s) for s in cai["strides"])
        if any(s % item for s in byte_strides):
            raise InvalidArgument(f"{name} has byte strides {byte_strides}, not whole {item}-byte elements")
        strides = tuple(s // item for s in byte_strides)
    return Desc(int(cai["data"][0]), dtype, sizes, strides)


_TORCH_BY_NAME = {v: k.split(".")[1] for k, v in _TORCH_DTYPES.items()}


def allocate_like(x, sizes, dtype: str, name: str = "out"):
    """A fresh contiguous array of `sizes` and scanjit dtype `dtype` from x's framework."""
    if is_torch(x):
        import torch
        return torch.empty(sizes, dtype=getattr(torch, _TORCH_BY_NAME[dtype]), device=x.device)
    if type(x).__module__.startswith("cupy"):
        import cupy
        if dtype == "bf16":
            raise Unsupported("CuPy has no bfloat16: pass out=")
        return cupy.empty(sizes, dtype={"bool": "bool", "f16": "float16", "f32": "float32", "f64": "float64",
                                        "u8": "uint8", "i8": "int8", "i16": "int16", "i32": "int32",
                                        "i64": "int64"}[dtype])
    raise InvalidArgument(f"pass {name}=: scanjit allocates outputs only for torch tensors and CuPy arrays, "
                          f"not for a {type(x).__module__}.{type(x).__name__}")


def current_stream(x, stream) -> int:
    """`stream` as a CUstream (int), else x's framework's current stream, else 0."""
    if stream is not None:
        for attr in ("cuda_stream", "ptr", "handle"):
            if hasattr(stream, attr):
                return int(getattr(stream, attr))
        return int(stream)
    if is_torch(x):
        import torch
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # (what Triton uses: no Stream object)
        if raw is not None:
            return int(raw(x.device.index))
        return int(torch.cuda.current_stream(x.device).cuda_stream)
    if type(x).__module__.startswith("cupy"):
        import cupy
        return int(cupy.cuda.get_current_stream().ptr)
    cai = getattr(x, "__cuda_array_interface__", None) or {}
    return int(cai.get("stream") or 0)


# DLPack (dlpack.h, v0.8+): the capsule's DLManagedTensor starts with its DLTensor.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_DL_CUDA, _DL_CUDA_MANAGED = 2, 13
_DL_DTYPES = {(0, 8): "i8", (0, 16): "i16", (0, 32): "i32", (0, 64): "i64", (1, 8): "u8", (2, 16): "f16",
              (2, 32): "f32", (2, 64): "f64", (4, 16): "bf16", (6, 8): "bool"}
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def read_dlpack(a, name: str):
    """(DLPack device type, Desc) of an array, from its capsule (read, not consumed: the array keeps its
    memory)."""
    capsule = a.__dlpack__()
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    dtype = _DL_DTYPES.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
    if dtype is None:
        raise Unsupported(f"{name} has DLPack dtype code {t.dtype.code}, {t.dtype.bits} bits, {t.dtype.lanes} lanes; "
                          f"scanjit scans {', '.join(sorted(set(_DL_DTYPES.values())))}")
    sizes = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
    else:  # compact row-major
        strides = contiguous_strides(sizes)
    return t.device.device_type, Desc(int(t.data or 0) + int(t.byte_offset), dtype, sizes, strides)


def _describe_dlpack(a, name: str) -> Desc:
    device_type, desc = read_dlpack(a, name)
    if device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise InvalidArgument(f"{name} is in DLPack device memory of type {device_type}, not CUDA "
                              f"({_DL_CUDA}); scanjit scans CUDA arrays")
    return desc
