"""cummax / cummin with indices=True: values and int64 indices as torch's
(ties take the later element, every NaN its own), on a GPU."""
import itertools

import pytest
import scanjit
from conftest import finite, requires_gpu, torch_scan_with_indices

torch = pytest.importorskip("torch")


@requires_gpu
@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64, torch.int32, torch.int64, torch.uint8])
@pytest.mark.parametrize("shape,dim", [((7, 1001), 1), ((300, 9), 0), ((5, 6, 70), 1)])
def test_indices_match_torch(op, dtype, shape, dim):
    g = torch.Generator().manual_seed(7)
    x = torch.randint(0, 5, shape, generator=g).to(dtype)  # many ties
    if dtype.is_floating_point:
        x[torch.rand(shape, generator=g) < 0.02] = float("nan")
    values, indices = getattr(scanjit, "cum" + op)(x.cuda(), dim, indices=True)
    want = torch.cummax(x, dim) if op == "max" else torch.cummin(x, dim)  # torch's CPU rule
    torch.testing.assert_close(values.cpu(), want.values, equal_nan=True, rtol=0, atol=0)
    assert indices.dtype == torch.int64
    assert torch.equal(indices.cpu(), want.indices)


@requires_gpu
@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("reverse,exclusive,masked", [(True, False, False), (False, True, True), (True, True, True)])
def test_flagged_indices_match_the_torch_reference(op, reverse, exclusive, masked):
    g = torch.Generator().manual_seed(5)
    x = torch.randint(0, 4, (6, 300), generator=g).float()
    x[torch.rand(6, 300, generator=g) < 0.01] = float("nan")
    mask = torch.rand(6, 300, generator=g) < 0.6 if masked else None
    values, indices = getattr(scanjit, "cum" + op)(x.cuda(), 1, reverse=reverse, exclusive=exclusive,
                                                   mask=mask.cuda() if masked else None, indices=True)
    want_values, want_indices = torch_scan_with_indices(op, x, 1, reverse, exclusive, mask)
    torch.testing.assert_close(values.cpu().double(), want_values, equal_nan=True, rtol=0, atol=0)
    assert torch.equal(indices.cpu(), want_indices)


@requires_gpu
def test_indices_are_refused_for_sums():
    with pytest.raises(TypeError):
        scanjit.cumsum(torch.ones(4, device="cuda"), 0, indices=True)


def test_fake_with_indices_gives_shapes_and_dtypes():
    import scanjit.torch as sjt
    x = torch.empty(4, 8, device="meta")
    values, indices = sjt.cummax_with_indices(x, 1, True, True)
    assert values.shape == (4, 8) and values.dtype == torch.float32 and values.device.type == "meta"
    assert indices.shape == (4, 8) and indices.dtype == torch.int64 and indices.device.type == "meta"


@requires_gpu
@pytest.mark.parametrize("name", ["cummax_with_indices", "cummin_with_indices"])
@pytest.mark.parametrize("reverse,exclusive,masked", list(itertools.product([False, True], repeat=3)))
def test_with_indices_gradcheck(name, reverse, exclusive, masked):
    import scanjit.torch as sjt
    g = torch.Generator().manual_seed(3)
    x = torch.randn(3, 40, generator=g, dtype=torch.float64).cuda().requires_grad_()
    mask = (torch.rand(3, 40, generator=g) < 0.7).cuda() if masked else None
    assert torch.autograd.gradcheck(lambda t: finite(getattr(sjt, name)(t, 1, reverse, exclusive, mask)[0]), (x,))
