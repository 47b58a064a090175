"""scanjit's scans as PyTorch operators: torch.ops.scanjit.{cumsum, cumprod, cummax,
cummin, logcumsumexp}, with fake (meta) implementations, so torch.compile traces
them without graph breaks, and autograd formulas.

    import scanjit.torch
    y = scanjit.torch.cumsum(x, 1, reverse=True, mask=m)   # or torch.ops.scanjit.cumsum(...)

Gradients: cumsum, the reverse scan of the gradient (mask: times the mask;
exclusive: the reverse exclusive scan; reverse: the forward scan), one fused
scanjit scan; logcumsumexp, the stable formula through reverse log-sum-exp
scans of the gradient's positive and negative parts; cumprod, torch's own
formula (which handles zeros); cummax/cummin, the gradient added at the index
each result came from (ties: the later index; a NaN: its own).

cummax_with_indices / cummin_with_indices (torch.ops.scanjit.cummax_with_indices,
...) return (values, indices) as torch.cummax does, the indices from the same
kernel; their gradient is the scatter-add to those indices.
"""
from typing import Optional, Tuple

import torch
from torch import Tensor

from . import _api

_is_compiling, _grad_enabled = torch.compiler.is_compiling, torch.is_grad_enabled
# The package's fast path for repeated torch calls, bound once: a few µs count here.
_torch_calls, _torch_key, _launch_torch = _api._TORCH_CALLS, _api._torch_key, _api._launch_torch


def _out_dtype(op: str, x: Tensor, dtype: Optional[torch.dtype]) -> torch.dtype:
    if dtype is not None:
        return dtype
    if op in ("sum", "prod") and not x.dtype.is_floating_point:
        return torch.int64  # torch's rule
    return x.dtype


def _define(name: str, op: str):
    """The operator torch.ops.scanjit.<name>, and the eager entry scanjit.torch.<name>, which skips the
    operator's dispatch when nothing needs it (no tracing, no gradient to record)."""

    @torch.library.custom_op(f"scanjit::{name}", mutates_args=())
    def scan_op(x: Tensor, dim: int, reverse: bool = False, exclusive: bool = False, mask: Optional[Tensor] = None,
                dtype: Optional[torch.dtype] = None) -> Tensor:
        return _api.scan(op, x, dim, reverse=reverse, exclusive=exclusive, mask=mask,
                         dtype=str(dtype) if dtype is not None else None)

    @scan_op.register_fake
    def _(x, dim, reverse=False, exclusive=False, mask=None, dtype=None):
        if mask is not None and mask.shape != x.shape:
            raise ValueError(f"scanjit.{name}: mask has shape {tuple(mask.shape)}, x {tuple(x.shape)}")
        return torch.empty(x.shape, dtype=_out_dtype(op, x, dtype), device=x.device)

    def entry(x: Tensor, dim: int, reverse: bool = False, exclusive: bool = False, mask: Optional[Tensor] = None,
              dtype: Optional[torch.dtype] = None) -> Tensor:
        if _is_compiling() or (x.requires_grad and _grad_enabled()) or not x.is_cuda:
            return scan_op(x, dim, reverse, exclusive, mask, dtype)
        if dtype is None and mask is None:
            # _api._torch_key and _launch_torch, inlined: a function call is 0.1 µs of ~7.
            hit = _torch_calls.get((op, x.dtype, x.shape, x.stride(), dim, reverse, exclusive, x.get_device()))
            if hit is not None:
                launch, alloc, strides, out_dtype, device, index, stream_of = hit
                out = alloc(x) if strides is None else alloc(x.shape, strides, dtype=out_dtype, device=device)
                launch(out.data_ptr(), x.data_ptr(), 0, stream_of(index))
                return out
        elif dtype is None and mask.is_cuda:
            hit = _torch_calls.get(_torch_key(op, x, dim, reverse, exclusive, mask))
            if hit is not None:
                return _launch_torch(hit, x, mask)
        return _api.scan(op, x, dim, reverse=reverse, exclusive=exclusive, mask=mask,
                         dtype=str(dtype) if dtype is not None else None)

    entry.__name__ = name
    entry.__doc__ = f"torch.ops.scanjit.{name}, called directly when no tracing or autograd needs the operator."
    return scan_op, entry


_cumsum, cumsum = _define("cumsum", "sum")
_cumprod, cumprod = _define("cumprod", "prod")
_cummax, cummax = _define("cummax", "max")
_cummin, cummin = _define("cummin", "min")
_logcumsumexp, logcumsumexp = _define("logcumsumexp", "logsumexp")


def _setup(ctx, inputs, output):
    x, dim, reverse, exclusive, mask, _ = inputs
    ctx.dim, ctx.reverse, ctx.exclusive = dim, reverse, exclusive
    ctx.save_for_backward(x, mask, output)


def _masked(grad: Tensor, mask: Optional[Tensor]) -> Tensor:
    # (where, not a product: a masked-out element's own gradient may be inf or NaN)
    return grad if mask is None else torch.where(mask, grad, torch.zeros_like(grad))


def _cumsum_backward(ctx, g):
    x, mask, _ = ctx.saved_tensors
    # (Through the operators, so a compiled backward traces them too.)
    gx = _cumsum(g, ctx.dim, not ctx.reverse, ctx.exclusive)
    return _masked(gx, mask).to(x.dtype), None, None, None, None, None


def _logcumsumexp_backward(ctx, g):
    # dx_j = sum over the results i that include j of g_i exp(x_j - y_i), split by
    # the sign of g so each part is a log-sum-exp scan in the other direction.
    x, mask, y = ctx.saved_tensors
    dim, back = ctx.dim, not ctx.reverse
    xd, yd, gd = x.double(), y.double(), g.double()
    # Results with nothing before them (y = -inf) contribute to no element.
    empty = torch.isneginf(yd)

    def part(gs):
        t = torch.where(empty, torch.full_like(yd, float("-inf")), torch.log(gs) - yd)
        return torch.exp(xd + _logcumsumexp(t, dim, back, ctx.exclusive))

    gx = part(gd.clamp(min=0)) - part((-gd).clamp(min=0))
    return _masked(gx, mask).to(x.dtype), None, None, None, None, None


def _cumprod_backward(ctx, g):
    # torch's formula (zeros included), on the scan as scanjit defines it.
    x, mask, _ = ctx.saved_tensors
    with torch.enable_grad():
        v = x.detach().requires_grad_()
        w = torch.where(mask, v, torch.ones_like(v)) if mask is not None else v
        w = w.flip(ctx.dim) if ctx.reverse else w
        r = torch.cumprod(w, ctx.dim)
        if ctx.exclusive:
            r = torch.cat([torch.ones_like(r.narrow(ctx.dim, 0, 1)), r.narrow(ctx.dim, 0, r.shape[ctx.dim] - 1)], ctx.dim)
        r = r.flip(ctx.dim) if ctx.reverse else r
        (gx,) = torch.autograd.grad(r, v, g.to(r.dtype))
    return gx, None, None, None, None, None


def _scatter_to_indices(g, x, mask, idx, dim):
    # Each result came from the element its index names (-1: none).
    keep = idx >= 0
    gx = torch.zeros_like(x, dtype=g.dtype).scatter_add(dim, idx.clamp(min=0), torch.where(keep, g, 0))
    return _masked(gx, mask).to(x.dtype)


def _extreme_backward(ctx, g):
    # The indices come from one scan with indices=True, run again here so the
    # forward (torch.cummax's values alone) stays the plain kernel.
    x, mask, _ = ctx.saved_tensors
    _, idx = _api._scan_with_indices(ctx.op, x, ctx.dim, ctx.reverse, ctx.exclusive, mask, None, None, None)
    return _scatter_to_indices(g, x, mask, idx, ctx.dim), None, None, None, None, None


def _setup_extreme(op):
    def setup(ctx, inputs, output):
        _setup(ctx, inputs, None)  # (not the output: the backward scans again for the indices)
        ctx.op = op
    return setup


_cumsum.register_autograd(_cumsum_backward, setup_context=_setup)
_logcumsumexp.register_autograd(_logcumsumexp_backward, setup_context=_setup)
_cumprod.register_autograd(_cumprod_backward, setup_context=_setup)
_cummax.register_autograd(_extreme_backward, setup_context=_setup_extreme("max"))
_cummin.register_autograd(_extreme_backward, setup_context=_setup_extreme("min"))


def _define_with_indices(name: str, op: str):
    """torch.ops.scanjit.<name>_with_indices: (values, int64 indices) from one kernel."""

    @torch.library.custom_op(f"scanjit::{name}_with_indices", mutates_args=())
    def scan_op(x: Tensor, dim: int, reverse: bool = False, exclusive: bool = False,
                mask: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
        return _api._scan_with_indices(op, x, dim, reverse, exclusive, mask, None, None, None)

    @scan_op.register_fake
    def _(x, dim, reverse=False, exclusive=False, mask=None):
        if mask is not None and mask.shape != x.shape:
            raise ValueError(f"scanjit.{name}_with_indices: mask has shape {tuple(mask.shape)}, x {tuple(x.shape)}")
        return torch.empty_like(x), torch.empty(x.shape, dtype=torch.int64, device=x.device)

    def setup(ctx, inputs, output):
        x, dim, _, _, mask = inputs
        ctx.dim = dim
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(x, mask, output[1])

    def backward(ctx, g, _g_indices):
        x, mask, idx = ctx.saved_tensors
        return _scatter_to_indices(g, x, mask, idx, ctx.dim), None, None, None, None

    scan_op.register_autograd(backward, setup_context=setup)
    return scan_op


cummax_with_indices = _define_with_indices("cummax", "max")
cummin_with_indices = _define_with_indices("cummin", "min")
