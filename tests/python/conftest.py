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


def torch_scan_with_indices(op, x, dim, reverse=False, exclusive=False, mask=None):
    """(values, indices) of a max or min scan, by torch ops, the tests' reference for indices=True: each
    result's index is the last kept element at or before it (in scan order) equal to the running value
    (a NaN: itself); -1 where no kept element came before."""
    import torch
    inclusive = torch_scan(op, x, dim, reverse, False, mask)
    v, run = x.double(), inclusive
    kept = mask if mask is not None else torch.ones_like(v, dtype=torch.bool)
    if reverse:
        v, run, kept = v.flip(dim), run.flip(dim), kept.flip(dim)
    shape = [1] * v.dim()
    shape[dim] = v.shape[dim]
    pos = torch.arange(v.shape[dim], device=v.device).view(shape).expand_as(v)
    hit = kept & ((v == run) | torch.isnan(v))
    idx = torch.cummax(torch.where(hit, pos, torch.full_like(pos, -1)), dim).values
    if exclusive:
        idx = torch.cat([torch.full_like(idx.narrow(dim, 0, 1), -1), idx.narrow(dim, 0, v.shape[dim] - 1)], dim)
    if reverse:  # back to the input's order: an index counts from the start of the line
        idx = torch.where(idx >= 0, v.shape[dim] - 1 - idx, idx).flip(dim)
    return torch_scan(op, x, dim, reverse, exclusive, mask), idx


requires_gpu = pytest.mark.skipif(not scanjit.gpu_available(),
                                  reason=f"no GPU: {scanjit.gpu_unavailable_reason()}")


def finite(y):
    """Results with nothing before them are the identity (-inf for max and log-sum-exp), whose finite
    differences are NaN: gradchecks compare the finite results."""
    import torch
    return torch.where(torch.isfinite(y), y, torch.zeros_like(y))
