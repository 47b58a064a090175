import pytest
import scanjit


class FakeCudaArray:
    """An array that speaks __cuda_array_interface__ at a made-up address: enough
    to build specs without a GPU (nothing reads or writes it)."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x7f0000000000):
        self.__cuda_array_interface__ = dict(shape=tuple(shape), typestr=typestr, strides=strides, data=(ptr, False),
                                             version=3)


@pytest.fixture
def fake():
    return FakeCudaArray


IDENTITY = {"sum": 0.0, "prod": 1.0, "max": float("-inf"), "min": float("inf"), "logsumexp": float("-inf")}


def torch_scan(op, x, dim, reverse=False, exclusive=False, mask=None):
    """The scan in float64 with torch, the tests' reference: masked elements are the identity."""
    import torch
    v = x.double()
    if mask is not None:
        v = torch.where(mask, v, torch.full_like(v, IDENTITY[op]))
    if reverse:
        v = v.flip(dim)
    if exclusive:
        pad = torch.full_like(v.narrow(dim, 0, 1), IDENTITY[op])
        v = torch.cat([pad, v.narrow(dim, 0, v.shape[dim] - 1)], dim)
    r = {"sum": lambda: torch.cumsum(v, dim), "prod": lambda: torch.cumprod(v, dim),
         "max": lambda: torch.cummax(v, dim).values, "min": lambda: torch.cummin(v, dim).values,
         "logsumexp": lambda: torch.logcumsumexp(v, dim)}[op]()
    return r.flip(dim) if reverse else r


requires_gpu = pytest.mark.skipif(not scanjit.gpu_available(),
                                  reason=f"no GPU: {scanjit.gpu_unavailable_reason()}")


def finite(y):
    """Results with nothing before them are the identity (-inf for max and log-sum-exp), whose finite
    differences are NaN: gradchecks compare the finite results."""
    import torch
    return torch.where(torch.isfinite(y), y, torch.zeros_like(y))
