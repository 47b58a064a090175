"""The package without a GPU: import, specs from strides, inspection, and every
error path that needs no device."""
import pytest
import scanjit
from conftest import FakeCudaArray


def test_import_and_errors_hierarchy():
    assert scanjit.__version__
    for name in ("InvalidSpec", "Unsupported", "InvalidArgument", "CompileFailed", "NoDriver", "NoDevice",
                 "DriverError", "CacheError", "Internal"):
        cls = getattr(scanjit, name)
        assert issubclass(cls, scanjit.Error) and cls is not scanjit.Error
    assert issubclass(scanjit.Error, RuntimeError)


def test_spec_from_contiguous_and_strided_views(fake):
    assert scanjit.spec_for("sum", fake((64, 3001)), 1) == "sum f32[64,3001] dim=1"
    # a transposed view: byte strides (4, 400) are element strides [1,100]
    assert scanjit.spec_for("sum", fake((100, 200), strides=(4, 400)), 1) == "sum f32[100,200] dim=1 strides=[1,100]"
    # a slice one element in keeps its row stride; negative dims count from the end
    spec = scanjit.spec_for("max", fake((32768, 32767), strides=(32768 * 4, 4)), -1, exclusive=True)
    assert spec == "max f32[32768,32767] dim=1 strides=[32768,1] exclusive"


def test_spec_flags_mask_and_dtypes(fake):
    spec = scanjit.spec_for("sum", fake((8, 5), "<i4"), 1, reverse=True, exclusive=True, mask=fake((8, 5), "|b1"))
    assert spec == "sum i32[8,5] dim=1 mask reverse exclusive"  # i32 sums to i64, the default
    assert scanjit.spec_for("logsumexp", fake((4, 4), "<f2"), 0) == "logsumexp f16[4,4] dim=0"
    assert scanjit.spec_for("sum", fake((4, 4)), 0, dtype="float64") == "sum f32[4,4] dim=0 out=f64"
    assert scanjit.spec_for("sum", fake((4, 4), "<i4"), 0, dtype="i32") == "sum i32[4,4] dim=0 out=i32"


def test_spec_errors_name_what_is_wrong(fake):
    with pytest.raises(scanjit.InvalidArgument, match="dim=2 is out of range"):
        scanjit.spec_for("sum", fake((4, 4)), 2)
    with pytest.raises(scanjit.InvalidArgument, match="op='mean'"):
        scanjit.spec_for("mean", fake((4, 4)), 0)
    with pytest.raises(scanjit.Unsupported, match="typestr '<c8'"):
        scanjit.spec_for("sum", fake((4, 4), "<c8"), 0)
    with pytest.raises(scanjit.InvalidArgument, match="not whole 4-byte elements"):
        scanjit.spec_for("sum", fake((4, 4), strides=(16, 2)), 0)
    with pytest.raises(scanjit.Unsupported, match="dtype='complex64'"):
        scanjit.spec_for("sum", fake((4, 4)), 0, dtype="complex64")
    with pytest.raises(scanjit.Error, match="mask"):
        scanjit.spec_for("sum", fake((4, 4)), 0, mask=fake((4, 5), "|b1"))


def test_host_arrays_are_refused():
    np = pytest.importorskip("numpy")
    # numpy speaks DLPack: its arrays are read, and refused for living on the host
    with pytest.raises(scanjit.InvalidArgument, match="DLPack device memory of type 1, not CUDA"):
        scanjit.cumsum(np.zeros((3, 4), dtype=np.float32), 1)
    with pytest.raises(scanjit.InvalidArgument, match="list is not a CUDA array"):
        scanjit.cumsum([1.0, 2.0], 0)


def test_dlpack_descriptions_carry_offsets_and_strides():
    np = pytest.importorskip("numpy")
    from scanjit._arrays import read_dlpack
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    device, d = read_dlpack(base[:, 1:], "x")
    assert device == 1 and d.dtype == "f32" and d.sizes == (4, 5) and d.strides == (6, 1)
    assert d.data == base.ctypes.data + 4
    _, t = read_dlpack(base.T, "x")
    assert t.sizes == (6, 4) and t.strides == (1, 6)
    _, h = read_dlpack(np.zeros((2, 3), dtype=np.float16), "x")
    assert h.dtype == "f16" and h.strides == (3, 1)
    with pytest.raises(scanjit.Unsupported, match="DLPack dtype code 5"):
        read_dlpack(np.zeros(3, dtype=np.complex64), "x")


def test_torch_cpu_tensor_is_refused():
    torch = pytest.importorskip("torch")
    with pytest.raises(scanjit.InvalidArgument, match="x is on cpu"):
        scanjit.cumsum(torch.zeros(3, 4), 1)


def test_outputs_are_allocated_only_by_known_frameworks(fake):
    with pytest.raises(scanjit.InvalidArgument, match="pass out="):
        scanjit.cumsum(fake((4, 4)), 1)


def test_inspect_plan_source_ptx_resources():
    plan = scanjit.inspect("sum f32[32768,32768] dim=1")
    assert plan.startswith("family=row_lookback ") and "policy=sm_90" in plan
    assert "policy=sm_80/86/89" in scanjit.inspect("sum f32[32768,32768] dim=1", arch="sm_80")
    assert "scanjit_row_sum_f32_f32" in scanjit.inspect("sum f32[64,3001] dim=1", "source")
    assert ".entry scanjit_row_sum_f32_f32" in scanjit.inspect("sum f32[64,3001] dim=1", "ptx")
    res = scanjit.inspect("sum f32[64,3001] dim=1", "resources")
    assert res["arch"] == "sm_90" and res["registers"] > 0 and res["spill_stores"] == 0


def test_inspect_sass_and_key():
    sass = scanjit.inspect("sum f32[64,3001] dim=1", "sass")
    assert "scanjit_row_sum_f32_f32" in sass and "EXIT" in sass
    key = scanjit.inspect("sum f32[64,3001] dim=1", "key")
    assert len(key) >= 32 and key != scanjit.inspect("sum f32[64,3001] dim=1", "key", arch="sm_80")


def test_precompile_fills_a_cache_folder(tmp_path):
    specs = ["sum f32[64,3001] dim=1", "max f16[100,37] dim=1 reverse"]
    first = scanjit.precompile(specs, arch=["sm_90", "sm_80"], cache_dir=str(tmp_path), jobs=2)
    assert first == {"compiled": 4, "cached": 0, "failures": []}
    again = scanjit.precompile(specs, arch=["sm_90", "sm_80"], cache_dir=str(tmp_path))
    assert again["compiled"] == 0 and again["cached"] == 4
    with pytest.raises(scanjit.Error, match="1 of 1 failed:\n.*'sum f32\\[4\\] dim=3'"):
        scanjit.precompile("sum f32[4] dim=3", arch="sm_90", cache_dir=str(tmp_path))
    with pytest.raises(scanjit.Error, match="sm_1"):
        scanjit.precompile(specs, arch="sm_1", cache_dir=str(tmp_path))


def test_inspect_errors():
    with pytest.raises(scanjit.InvalidSpec, match="expected a bracketed list"):
        scanjit.inspect("sum f32[2,2 dim=1")
    with pytest.raises(scanjit.InvalidArgument, match="emit='cubin'"):
        scanjit.inspect("sum f32[4] dim=0", "cubin")
    with pytest.raises(scanjit.Error, match="sm_12345"):
        scanjit.inspect("sum f32[4] dim=0", arch="sm_12345")


@pytest.mark.skipif(scanjit.gpu_available(), reason="checks the no-GPU path")
def test_without_a_gpu_launching_says_why(fake):
    with pytest.raises((scanjit.NoDriver, scanjit.NoDevice), match="CUDA driver|GPU"):
        scanjit.prepare("sum f32[4] dim=0")
    assert scanjit.gpu_unavailable_reason()


def test_cache_stats_count_this_process():
    stats = scanjit.cache_stats()
    assert set(stats) == {"memory_hits", "disk_hits", "compiles"}
