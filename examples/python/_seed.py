"""What every seed example does: the seed's own check, each model's largest error
against a float64 reference, then one timing line for Model, torch.compile(Model),
ModelNew (scanjit) and a device copy of the same bytes, all in this run."""
import torch


def median_ms(fn, iters=20, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def max_error(y, model, inputs, dim):
    """max |y - model(inputs in float64)|, a slab of lines at a time (the whole would take 16 GB)."""
    other = 1 - dim
    worst = 0.0
    for start in range(0, inputs[0].shape[other], 4096):
        slab = [t.narrow(other, start, min(4096, t.shape[other] - start)) for t in inputs]
        ref = model(*[t.double() if t.is_floating_point() else t for t in slab])
        worst = max(worst, (y.narrow(other, start, slab[0].shape[other]).double() - ref).abs().max().item())
    return worst


def run(name, model, model_new, get_inputs):
    inputs = get_inputs()
    want, got = model(*inputs), model_new(*inputs)
    ok = torch.allclose(want, got, atol=1e-5, rtol=1e-5)
    print(f"{name}: allclose(Model, ModelNew, atol=1e-5, rtol=1e-5): {ok}")
    err_model, err_new = max_error(want, model, inputs, model.dim), max_error(got, model, inputs, model.dim)
    print(f"{name}: largest error against float64: Model {err_model:.3g}, ModelNew {err_new:.3g}")
    del want, got
    nbytes = sum(t.numel() * t.element_size() for t in inputs)
    buf = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    compiled = torch.compile(model)
    t_model = median_ms(lambda: model(*inputs))
    t_compiled = median_ms(lambda: compiled(*inputs))
    t_new = median_ms(lambda: model_new(*inputs))
    t_copy = median_ms(lambda: buf.clone())
    print(f"{name}: Model {t_model:.3f} ms, torch.compile {t_compiled:.3f} ms, ModelNew {t_new:.3f} ms, "
          f"copy {t_copy:.3f} ms (ModelNew {t_new / t_copy:.2f}x copy, {t_model / t_new:.1f}x faster than Model)")
    if not ok and err_new > err_model:  # (Model's own rounding can fail allclose: then ModelNew must be closer)
        raise SystemExit(1)
