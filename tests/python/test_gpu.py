"""The package on a GPU: every op against a float64 torch reference over dtypes,
flags and layouts (permuted, sliced, expanded, strided out), CuPy arrays, and
streams. Skipped without a GPU or without torch."""
import pytest
import scanjit
from conftest import requires_gpu, torch_scan

torch = pytest.importorskip("torch")
pytestmark = requires_gpu

OPS = ("sum", "prod", "max", "min", "logsumexp")


def inputs(op, shape, dtype):
    g = torch.Generator(device="cuda").manual_seed(7)
    if dtype.is_floating_point:
        lo, hi = (0.5, 1.5) if op == "prod" else (-1.0, 1.0)
        return (torch.rand(shape, generator=g, device="cuda") * (hi - lo) + lo).to(dtype)
    if op == "prod":  # mostly +-1 and a few 2s: products of a row stay exact in int64
        r = torch.rand(shape, generator=g, device="cuda")
        return torch.where(r < 0.02, 2, torch.where(r < 0.51, -1, 1)).to(dtype)
    return torch.randint(-3, 4, shape, generator=g, device="cuda", dtype=dtype)


def check(op, y, x, dim, **flags):
    want = torch_scan(op, x, dim, **flags)
    tol = {torch.float16: 2e-2, torch.bfloat16: 8e-2, torch.float32: 1e-4}.get(x.dtype, 1e-9)
    assert y.shape == x.shape
    torch.testing.assert_close(y.double(), want.to(y.dtype).double() if not y.dtype.is_floating_point else want,
                               rtol=tol, atol=tol * max(1.0, x.shape[dim] ** 0.5), equal_nan=True)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64, torch.int32])
@pytest.mark.parametrize("reverse,exclusive,masked", [(False, False, False), (True, False, True), (False, True, True),
                                                     (True, True, False)])
def test_ops_dtypes_flags(op, dtype, reverse, exclusive, masked):
    if op == "logsumexp" and not dtype.is_floating_point:
        pytest.skip("logcumsumexp is for floating types")
    x = inputs(op, (37, 1001), dtype)
    mask = torch.rand(x.shape, device="cuda") > 0.5 if masked else None
    y = scanjit.scan(op, x, 1, reverse=reverse, exclusive=exclusive, mask=mask)
    check(op, y, x, 1, reverse=reverse, exclusive=exclusive, mask=mask)


@pytest.mark.parametrize("layout", ["permuted", "sliced", "expanded", "strided_out", "dim0", "narrow_columns",
                                    "packed_columns", "packed_columns_a_row_in"])
def test_layouts(layout):
    base = inputs("sum", (300, 257), torch.float32)
    out = None
    dim = 1
    if layout == "permuted":
        x = base.t()
    elif layout == "sliced":
        x = base[:, 1:]
    elif layout == "expanded":
        x = base[:1].expand(300, 257)
    elif layout == "dim0":
        x, dim = base, 0
    elif layout == "narrow_columns":
        x, dim = inputs("sum", (100003, 2), torch.float32), 0
    elif layout == "packed_columns":  # rows on the 16-byte grid: one row of packed rows
        x, dim = inputs("sum", (100000, 3), torch.float32), 0
    elif layout == "packed_columns_a_row_in":  # the same plan, its pointer off the grid
        x, dim = inputs("sum", (100001, 2), torch.float32)[1:], 0
    else:
        x = base
        out = torch.empty(257, 300, device="cuda").t()
    y = scanjit.cumsum(x, dim, out=out)
    assert out is None or y is out
    check("sum", y, x, dim)


@pytest.mark.parametrize("layout", ["contiguous", "permuted", "sliced", "expanded", "int32", "float16"])
def test_repeated_calls_take_the_fast_path_with_the_first_calls_layout(layout):
    # The first call of a layout goes the general way and remembers it; the next ones allocate
    # (torch.empty_like where it gives the output's layout) and launch, nothing else.
    import scanjit.torch
    base = inputs("sum", (300, 257), torch.int32 if layout == "int32" else torch.float32)
    x = {"permuted": base.t(), "sliced": base[:, 1:], "expanded": base[:1].expand(300, 257),
         "float16": base.half()}.get(layout, base)
    for entry in (scanjit.cumsum, scanjit.torch.cumsum):
        scanjit._api._TORCH_CALLS.clear()
        first, second = entry(x, 1), entry(x, 1)
        assert len(scanjit._api._TORCH_CALLS) == 1
        assert second.dtype == first.dtype and second.stride() == first.stride()
        assert second.data_ptr() != first.data_ptr()
        check("sum", second, x, 1)


def test_integer_sums_are_int64_like_torch():
    x = inputs("sum", (4, 1000), torch.int32)
    y = scanjit.cumsum(x, 1)
    assert y.dtype == torch.int64
    assert torch.equal(y, torch.cumsum(x, 1))


def test_runs_on_the_current_stream():
    x = inputs("sum", (64, 4096), torch.float32)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        y = scanjit.cumsum(x, 1)
    s.synchronize()
    check("sum", y, x, 1)


def test_prepared_kernel_launches_on_arrays():
    x = inputs("sum", (64, 4096), torch.float32)
    k = scanjit.prepare(scanjit.spec_for("sum", x, 1))
    y = torch.empty_like(x)
    k.launch(y, x)
    check("sum", y, x, 1)
    assert k.spec == "sum f32[64,4096] dim=1" and k.plan.startswith("family=")


def test_bad_outputs_change_nothing():
    x = inputs("sum", (8, 100), torch.float32)
    out = torch.full((8, 99), 7.0, device="cuda")
    with pytest.raises(scanjit.Error):
        scanjit.cumsum(x, 1, out=out)
    assert torch.all(out == 7.0)


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x = cupy.random.rand(50, 3001, dtype=cupy.float32)
    y = scanjit.cumsum(x, 1, reverse=True)
    assert isinstance(y, cupy.ndarray)
    want = cupy.flip(cupy.cumsum(cupy.flip(x.astype(cupy.float64), 1), 1), 1)
    assert float(cupy.max(cupy.abs(y - want))) < 1e-3


def test_cuda_graph_capture_replays_the_scan():
    import scanjit.torch as sjt
    x = inputs("sum", (8, 1 << 20), torch.float32)  # a look-back plan: its workspace comes with the first launch
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        sjt.cumsum(x, 1)  # compile, load and allocate before capture
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = sjt.cumsum(x, 1)
    x.copy_(inputs("sum", x.shape, torch.float32) * 2)
    graph.replay()
    torch.cuda.synchronize()
    check("sum", y, x, 1)


def test_four_threads_on_four_streams():
    import threading
    shapes = [(64, 4097), (3, 300001), (1000, 333), (4096, 65)]
    xs = [inputs("sum", s, torch.float32) for s in shapes]
    results, errors = [None] * 4, []

    def work(i):
        try:
            s = torch.cuda.Stream()
            with torch.cuda.stream(s):
                for _ in range(5):
                    results[i] = scanjit.cumsum(xs[i], 1, reverse=bool(i % 2))
            s.synchronize()
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i, x in enumerate(xs):
        check("sum", results[i], x, 1, reverse=bool(i % 2))


def test_jax_arrays_through_dlpack():
    jax = pytest.importorskip("jax")
    import numpy as np
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX has no GPU here")
    x = jax.device_put(np.random.default_rng(5).random((40, 3001), dtype=np.float32), jax.devices("gpu")[0])
    x.block_until_ready()
    out = torch.empty(40, 3001, device="cuda")  # JAX arrays are immutable: the output is another framework's
    scanjit.cumsum(x, 1, out=out, stream=0)
    torch.cuda.synchronize()
    want = np.cumsum(np.asarray(x, dtype=np.float64), 1)
    assert np.max(np.abs(out.cpu().numpy() - want)) < 1e-2
