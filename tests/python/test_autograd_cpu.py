"""scanjit.torch's gradient formulas, checked without a GPU: the scans the
operators run (forward and backward) are replaced by a float64 torch
reference on the CPU, so torch.autograd.gradcheck tests the formulas alone.
(test_torch.py runs the same gradcheck on the GPU with the real kernels.)"""
import itertools

import pytest

torch = pytest.importorskip("torch")
import scanjit._api  # noqa: E402
from conftest import finite, torch_scan, torch_scan_with_indices  # noqa: E402
import scanjit.torch as sjt  # noqa: E402

def reference_scan(op, x, dim, *, reverse=False, exclusive=False, mask=None, out=None, dtype=None, stream=None):
    """scanjit._api.scan's stand-in: the float64 torch reference, in x's dtype."""
    return torch_scan(op, x, dim, reverse, exclusive, mask).to(x.dtype)


def reference_scan_with_indices(op, x, dim, reverse, exclusive, mask, out, dtype, stream):
    """scanjit._api._scan_with_indices's stand-in: the torch reference's values (in x's dtype) and indices."""
    values, indices = torch_scan_with_indices(op, x, dim, reverse, exclusive, mask)
    return values.to(x.dtype), indices


@pytest.fixture
def cpu_scans(monkeypatch):
    monkeypatch.setattr(scanjit._api, "scan", reference_scan)
    monkeypatch.setattr(scanjit._api, "_scan_with_indices", reference_scan_with_indices)


FLAGS = list(itertools.product([False, True], repeat=3))  # (reverse, exclusive, masked): every combination


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"])
@pytest.mark.parametrize("reverse,exclusive,masked", FLAGS)
def test_gradcheck_of_the_formulas(cpu_scans, name, reverse, exclusive, masked):
    g = torch.Generator().manual_seed(11)
    if name in ("cummax", "cummin"):  # distinct values: the derivative exists
        x = torch.randperm(3 * 13, generator=g).view(3, 13).double()
    else:
        x = torch.rand(3, 13, generator=g, dtype=torch.float64) + 0.5
    x.requires_grad_()
    mask = torch.rand(3, 13, generator=g) > 0.3 if masked else None
    op = getattr(sjt, "_" + name)  # the operator itself: the CPU tensor goes through autograd
    assert torch.autograd.gradcheck(lambda v: finite(op(v, 1, reverse, exclusive, mask)), (x,), eps=1e-6, atol=1e-6)


def test_cumprod_gradient_with_zeros(cpu_scans):
    x = torch.tensor([[2.0, 0.0, 3.0, 0.0, 5.0]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: sjt._cumprod(v, 1), (x,), eps=1e-6, atol=1e-6)


def test_logcumsumexp_gradient_with_negative_and_masked_infinite_inputs(cpu_scans):
    x = torch.tensor([[0.5, -1.0, 2.0, -3.0, 1.0, 0.0]], dtype=torch.float64, requires_grad=True)
    mask = torch.tensor([[True, True, False, True, True, False]])
    y = sjt._logcumsumexp(x, 1, False, False, mask)
    (gx,) = torch.autograd.grad(y, x, torch.tensor([[1.0, -2.0, 0.5, 3.0, -1.0, 2.0]], dtype=torch.float64))
    assert torch.isfinite(gx).all() and gx[0, 2] == 0 and gx[0, 5] == 0
    big = torch.tensor([[0.5, 1e308, 2.0]], dtype=torch.float64, requires_grad=True)
    y = sjt._logcumsumexp(big, 1, False, False, torch.tensor([[True, False, True]]))
    (gb,) = torch.autograd.grad(y.sum(), big)
    assert torch.isfinite(gb).all() and gb[0, 1] == 0
