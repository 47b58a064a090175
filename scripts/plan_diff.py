#!/usr/bin/env python3
"""Lists the specs whose plan differs between two builds: the cases an A/B of a
planner change must time (`scripts/compare-builds.sh "BASE NEW" --spec ...`).
No GPU needed. Specs come from a file (one a line, `@N` placements kept) or
are drawn at random as dim=0 columns of one line or several lines of `dim=1`
panels, the class the column planner's rules split by:

    scripts/plan_diff.py BASE_BUILD NEW_BUILD --specs FILE
    scripts/plan_diff.py BASE_BUILD NEW_BUILD --seed N --count 60 \\
        [--dtypes f16,bf16] [--ops sum,prod] [--columns 33 160] [--lines 1 64] \\
        [--elements 22 26]
    scripts/plan_diff.py BASE_BUILD NEW_BUILD --narrow-grid [--arch sm_100]

--narrow-grid takes every op and dtype over 2 to 16 columns along dim=0 of
16M elements, masked or not (1320 specs): the narrow columns the packed-lanes
rules split by, whole; --arch plans for another arch than sm_90.

Drawn specs take a mask, reverse or exclusive at random and a base pointer
0-3 elements in (`@N`, which only the benchmarks read). Prints the changed
specs, and how many of how many to stderr; the seed makes a draw repeatable.
"""
import argparse
import concurrent.futures
import math
import os
import random
import subprocess
import sys


def plan(build, spec, arch="sm_90"):
    """The plan line `scanjit inspect --emit plan` prints for a spec (its placement dropped)."""
    out = subprocess.run([f"{build}/tools/scanjit", "inspect", spec.split("@")[0], "--emit", "plan", "--arch", arch],
                         capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return lines[1] if len(lines) > 1 else "error: " + out.stderr.strip()


def draw(rng, args):
    """One column spec of the drawn class, with its placement."""
    op, dtype = rng.choice(args.ops), rng.choice(args.dtypes)
    columns = round(2 ** rng.uniform(math.log2(args.columns[0]), math.log2(args.columns[1])))
    lines = rng.randint(*args.lines) if rng.random() < 0.5 else args.lines[0]
    elements = int(2 ** rng.uniform(*args.elements))
    rows = max(1, elements // (lines * columns))
    flags = "".join(f for f, p in ((" mask", 1 / 3), (" reverse", 1 / 3), (" exclusive", 1 / 4)) if rng.random() < p)
    shape = f"[{lines},{rows},{columns}] dim=1" if lines > 1 else f"[{rows},{columns}] dim=0"
    offset = rng.randint(0, 3)
    return f"{op} {dtype}{shape}{flags}" + (f"@{offset}" if offset else "")


def add_draw_options(p, count):
    """draw()'s options (and the seed and count of a draw) on parser `p`."""
    p.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    p.add_argument("--count", type=int, default=count)
    p.add_argument("--dtypes", type=lambda s: s.split(","), default="f16,bf16,i16,f32,i32".split(","))
    p.add_argument("--ops", type=lambda s: s.split(","), default="sum,prod,max,min".split(","))
    p.add_argument("--columns", type=int, nargs=2, default=[33, 160], metavar=("MIN", "MAX"))
    p.add_argument("--lines", type=int, nargs=2, default=[1, 64], metavar=("MIN", "MAX"))
    p.add_argument("--elements", type=float, nargs=2, default=[22, 26], metavar=("LOG2_MIN", "LOG2_MAX"))


def narrow_grid():
    """Every op and dtype over 2-16 columns along dim=0, 16M elements, masked or not."""
    floats = ("f32", "f16", "bf16", "f64")
    dtypes = floats + ("u8", "i8", "i16", "i32", "i64", "bool")
    return [f"{op} {dtype}[{2**24 // c},{c}] dim=0{mask}"
            for op in ("sum", "prod", "max", "min", "logsumexp") for dtype in dtypes
            if op != "logsumexp" or dtype in floats for c in range(2, 17) for mask in ("", " mask")]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base")
    p.add_argument("new")
    p.add_argument("--specs", help="a file of specs, one a line")
    p.add_argument("--narrow-grid", action="store_true", help="every op, dtype, 2-16 columns along dim=0")
    p.add_argument("--arch", default="sm_90")
    add_draw_options(p, count=60)
    args = p.parse_args()
    if args.specs:
        specs = [s.strip() for s in open(args.specs) if s.strip()]
    elif args.narrow_grid:
        specs = narrow_grid()
    else:
        rng = random.Random(args.seed)
        specs = [draw(rng, args) for _ in range(args.count)]
        print(f"seed {args.seed}", file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        changed = [s for s, differs in zip(specs, pool.map(
            lambda s: plan(args.base, s, args.arch) != plan(args.new, s, args.arch), specs)) if differs]
    print("\n".join(changed))
    print(f"{len(changed)} of {len(specs)} change plan", file=sys.stderr)


if __name__ == "__main__":
    main()
