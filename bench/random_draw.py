"""Shapes drawn at random, as a new user's tensors come (issue 16: "shapes will be checked beyond
this suite"): scanjit, torch and a copy of the same bytes in one run, with each result's error
against a float64 reference. Run on a GPU machine with the package installed:

    python3 bench/random_draw.py [--count 24] [--seed N] [--no-torch]

Each case draws 16M-128M elements; a kind (short rows, rows, few long rows, 1-D, dim=0 columns)
and its lengths, uniformly, so nearly every length is off the 16-byte grid; a dtype (f32, f16,
bf16, f64, i32, whose sums are i64); a base pointer 0-3 elements into its buffer; a mask (one case
in three) and reverse (one in three). The seed is printed, so a draw can be run again.
"""
import argparse
import random
import statistics

import torch

import scanjit
from torch_reference import median_ms  # (beside this file)

KINDS = ("short rows", "rows", "few long rows", "1-D", "columns")
DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32)


def draw_case(rng):
    """(shape, dim, dtype, offset, masked, reverse) of one random case."""
    n = int(2 ** rng.uniform(24, 27))
    kind = rng.choice(KINDS)
    if kind == "short rows":
        length = rng.randint(2, 512)
        shape, dim = (n // length, length), 1
    elif kind == "rows":
        length = rng.randint(513, 200_000)
        shape, dim = (n // length, length), 1
    elif kind == "few long rows":
        rows = rng.randint(2, 16)
        shape, dim = (rows, n // rows), 1
    elif kind == "1-D":
        shape, dim = (n,), 0
    else:
        columns = rng.randint(2, 4096)
        shape, dim = (n // columns, columns), 0
    return shape, dim, rng.choice(DTYPES), rng.randint(0, 3), rng.random() < 1 / 3, rng.random() < 1 / 3


def torch_scan(x, dim, m, reverse):
    """torch's cumsum of the same problem: a mask multiplies, reverse flips around the scan."""
    y = x * m if m is not None else x
    if reverse:
        return torch.cumsum(y.flip(dim), dim).flip(dim)
    return torch.cumsum(y, dim)


def max_error(result, reference):
    """Largest |result - reference| over the largest |reference| (0 for exact integers)."""
    diff = (result.double() - reference).abs().max().item()
    return diff / max(1.0, reference.abs().max().item())


def run_case(shape, dim, dtype, offset, masked, reverse, with_torch):
    n = 1
    for size in shape:
        n *= size
    if dtype.is_floating_point:
        flat = (torch.rand(n + offset, device="cuda") * 2 - 1).to(dtype)
    else:
        flat = torch.randint(-100, 100, (n + offset,), device="cuda", dtype=dtype)
    x = flat[offset:].view(shape)  # the data pointer `offset` elements in
    m = torch.rand(shape, device="cuda") < 0.5 if masked else None
    out = scanjit.cumsum(x, dim, mask=m, reverse=reverse)
    kernel = scanjit.prepare(scanjit.spec_for("sum", x, dim, mask=m, reverse=reverse))
    ms = median_ms(lambda: kernel.launch(out, x, m))
    moved = n * (x.element_size() + out.element_size() + (1 if masked else 0))
    buffer = torch.empty(moved // 2, dtype=torch.uint8, device="cuda")
    copy_ms = median_ms(lambda: buffer.clone())
    del buffer
    row = {"spec": kernel.spec, "offset": offset, "family": kernel.plan.split()[0].split("=")[1],
           "ms": ms, "copy_ms": copy_ms}
    reference = torch_scan(x.double(), dim, m, reverse)
    row["error"] = max_error(out, reference)
    if with_torch:
        expected = torch_scan(x, dim, m, reverse)
        row["torch_ms"] = median_ms(lambda: torch_scan(x, dim, m, reverse))
        row["torch_error"] = max_error(expected, reference)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--seed", type=int, default=random.SystemRandom().randrange(1 << 31))
    parser.add_argument("--no-torch", action="store_true", help="leave torch's times and errors out")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, seed {args.seed}, {args.count} cases\n")
    print("| spec | @ | family | ms | copy ms | ratio | torch ratio | error | torch error |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios, slower = [], 0
    for _ in range(args.count):
        row = run_case(*draw_case(rng), with_torch=not args.no_torch)
        ratio = row["ms"] / row["copy_ms"]
        ratios.append(ratio)
        torch_ratio = row["torch_ms"] / row["copy_ms"] if "torch_ms" in row else float("nan")
        slower += ratio > torch_ratio
        print(f"| `{row['spec']}` | {row['offset']} | {row['family']} | {row['ms']:.3f} | {row['copy_ms']:.3f} | "
              f"{ratio:.2f} | {torch_ratio:.2f} | {row['error']:.1e} | {row.get('torch_error', float('nan')):.1e} |",
              flush=True)
        torch.cuda.empty_cache()
    within = sum(r <= 1.15 for r in ratios)
    print(f"\nratio to copy: median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}, "
          f"{within} of {len(ratios)} within 1.15" + ("" if args.no_torch else f", {slower} slower than torch"))


if __name__ == "__main__":
    main()
