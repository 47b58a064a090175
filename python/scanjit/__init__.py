"""scanjit: JIT-compiled GPU scans for any shape, layout and dtype.

    import scanjit
    y = scanjit.cumsum(x, dim=1)                 # x: a CUDA torch tensor or CuPy array
    y = scanjit.cumsum(x, 1, reverse=True, exclusive=True, mask=m)
    print(scanjit.inspect(scanjit.spec_for("sum", x, 1)))   # the plan; no GPU needed

Every error is a scanjit.Error subclass (InvalidSpec, Unsupported,
InvalidArgument, CompileFailed, NoDriver, NoDevice, DriverError, CacheError,
Internal) carrying the C++ message.
"""
from ._core import (CacheError, CompileFailed, DriverError, Error, Internal, InvalidArgument, InvalidSpec, NoDevice,
                    NoDriver, Unsupported, gpu_available, gpu_unavailable_reason)
from ._api import (Kernel, cache_stats, cummax, cummin, cumprod, cumsum, inspect, logcumsumexp, precompile, prepare,
                   scan, spec_for)

__version__ = "0.1.0"

__all__ = [
    "cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "scan", "spec_for", "prepare", "Kernel", "inspect",
    "cache_stats", "precompile", "gpu_available", "gpu_unavailable_reason", "Error", "InvalidSpec", "Unsupported",
    "InvalidArgument", "CompileFailed", "NoDriver", "NoDevice", "DriverError", "CacheError", "Internal",
]
