"""Per-call cost of scanjit from Python against torch.cumsum, in one process
(issue 17, point 6). Run on a GPU machine with the package installed:

    python3 bench/python_overhead.py

f32[16,1024] dim=1: the GPU time is a few µs, so a loop of 2000 calls measures
what each call costs the host. Prints µs per call for torch.cumsum,
scanjit.torch.cumsum, scanjit.cumsum and a prepared kernel's raw launch.
"""
import time

import torch

import scanjit
import scanjit.torch


def timed_us(fn, calls):
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / calls * 1e6


def per_call_us(rows, calls=2000, rounds=7):
    """µs per call of each (name, fn), the best of `rounds`; the rows take turns in each round, so a
    drift of the machine's speed touches them all alike."""
    for _, fn in rows:
        for _ in range(50):
            fn()
    best = {name: float("inf") for name, _ in rows}
    for _ in range(rounds):
        for name, fn in rows:
            best[name] = min(best[name], timed_us(fn, calls))
    return best


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    x = torch.rand(16, 1024, device="cuda")
    y = torch.empty_like(x)
    kernel = scanjit.prepare(scanjit.spec_for("sum", x, 1))
    raw = kernel._k
    stream = torch.cuda.current_stream().cuda_stream
    m = torch.rand(16, 1024, device="cuda") > 0.5
    xp, yp = x.data_ptr(), y.data_ptr()
    rows = [
        ("torch.cumsum(x, 1)", lambda: torch.cumsum(x, 1)),
        ("scanjit.torch.cumsum(x, 1)", lambda: scanjit.torch.cumsum(x, 1)),
        ("torch.cumsum(x * m, 1)", lambda: torch.cumsum(x * m, 1)),
        ("scanjit.torch.cumsum(x, 1, mask=m)", lambda: scanjit.torch.cumsum(x, 1, mask=m)),
        ("scanjit.cumsum(x, 1)", lambda: scanjit.cumsum(x, 1)),
        ("scanjit.cumsum(x, 1, out=y)", lambda: scanjit.cumsum(x, 1, out=y)),
        ("Kernel.launch(y, x)", lambda: kernel.launch(y, x)),
        ("raw launch (pointers, stream)", lambda: raw.launch(yp, xp, 0, stream)),
        ("raw launch_unchecked", lambda: raw.launch_unchecked(yp, xp, 0, stream)),
    ]
    for name, us in per_call_us(rows).items():
        print(f"{name:40s} {us:7.2f} us/call")
    # What scanjit.torch.cumsum's fast path is made of, step by step.
    from scanjit import _api
    raw_stream = torch._C._cuda_getCurrentRawStream
    steps = [
        ("  torch.empty(shape, dtype, device)", lambda: torch.empty(x.shape, dtype=x.dtype, device=x.device)),
        ("  torch.empty_strided(shape, strides, ...)", lambda: torch.empty_strided(x.shape, x.stride(), dtype=x.dtype,
                                                                                   device=x.device)),
        ("  torch.empty_like(x)", lambda: torch.empty_like(x)),
        ("  its key (dtype, shape, strides, device)", lambda: _api._torch_key("sum", x, 1, False, False, None)),
        ("  the current stream", lambda: raw_stream(0)),
        ("  torch.compiler.is_compiling()", torch.compiler.is_compiling),
        ("  key, lookup, allocate, launch", lambda: _api._launch_torch(
            _api._TORCH_CALLS[_api._torch_key("sum", x, 1, False, False, None)], x, None)),
    ]
    for name, us in per_call_us(steps).items():
        print(f"{name:40s} {us:7.2f} us/call")


if __name__ == "__main__":
    main()
