"""scanjit.torch: the operators, their fake (meta) implementations and
torch.compile tracing without a GPU; results and gradcheck on a GPU."""
import itertools

import pytest
import scanjit
from conftest import finite, requires_gpu

torch = pytest.importorskip("torch")
import scanjit.torch as sjt  # noqa: E402

NAMES = ("cumsum", "cumprod", "cummax", "cummin", "logcumsumexp")


def test_operators_are_registered():
    for name in NAMES:
        assert hasattr(torch.ops.scanjit, name)


@pytest.mark.parametrize("name", NAMES)
def test_fake_implementations_give_shape_and_dtype(name):
    x = torch.empty(4, 8, device="meta")
    y = getattr(torch.ops.scanjit, name)(x, 1, True, True)
    assert y.shape == (4, 8) and y.dtype == torch.float32 and y.device.type == "meta"
    if name in ("cumsum", "cumprod"):
        assert getattr(sjt, name)(torch.empty(3, device="meta", dtype=torch.int32), 0).dtype == torch.int64
        assert sjt.cumsum(x, 0, dtype=torch.float64).dtype == torch.float64


def test_fake_mask_of_another_shape_is_refused():
    with pytest.raises(Exception, match="mask has shape"):
        sjt.cumsum(torch.empty(4, 8, device="meta"), 1, mask=torch.empty(4, 7, device="meta", dtype=torch.bool))


def test_torch_compile_traces_without_graph_breaks():
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    def f(x, m):
        return sjt.cumsum(x, 1, mask=m) + sjt.logcumsumexp(x, 0, reverse=True) + sjt.cummax(x, 1)

    g = torch.compile(f, fullgraph=True, backend=backend)
    y = g(torch.empty(4, 8, device="meta"), torch.empty(4, 8, device="meta", dtype=torch.bool))
    assert y.shape == (4, 8)
    assert len(graphs) == 1
    targets = {str(n.target) for n in graphs[0].graph.nodes if n.op == "call_function"}
    assert {"scanjit.cumsum.default", "scanjit.logcumsumexp.default", "scanjit.cummax.default"} <= targets


FLAGS = list(itertools.product([False, True], repeat=3))  # (reverse, exclusive, masked): every combination


@requires_gpu
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("reverse,exclusive,masked", FLAGS)
def test_gradcheck(name, reverse, exclusive, masked):
    g = torch.Generator(device="cuda").manual_seed(3)
    x = torch.rand(3, 17, generator=g, device="cuda", dtype=torch.float64) + 0.5
    if name in ("cummax", "cummin"):  # distinct values: the derivative exists
        x = torch.randperm(3 * 17, generator=g, device="cuda").view(3, 17).double()
    x.requires_grad_()
    mask = torch.rand(3, 17, generator=g, device="cuda") > 0.3 if masked else None
    op = getattr(sjt, name)
    assert torch.autograd.gradcheck(lambda v: finite(op(v, 1, reverse, exclusive, mask)), (x,), eps=1e-6, atol=1e-5)


@requires_gpu
@pytest.mark.parametrize("name", NAMES)
def test_results_match_torch(name):
    x = torch.rand(8, 3001, device="cuda", dtype=torch.float64)
    want = {"cumsum": lambda: torch.cumsum(x, 1), "cumprod": lambda: torch.cumprod(x, 1),
            "cummax": lambda: torch.cummax(x, 1).values, "cummin": lambda: torch.cummin(x, 1).values,
            "logcumsumexp": lambda: torch.logcumsumexp(x, 1)}[name]()
    torch.testing.assert_close(getattr(sjt, name)(x, 1), want)
