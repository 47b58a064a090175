#!/usr/bin/env python3
"""Specs drawn at random in issue 16's terms, one a line, for scanjit_bench (`--spec`, or
scripts/compare-builds.sh with SPECS_FILE): no Python package or torch needed, unlike
bench/random_draw.py, and every op, not only sums.

    scripts/draw_specs.py SEED COUNT > specs.txt

Each spec draws 16M-128M elements; a kind (short rows of 33-700, rows of 700-100000, 2-64 long
rows, 1-D, dim=0 columns of 2-40 or 40-5000); a dtype (f32, f16, bf16, f64, i32); an op (sums three
times in seven; log-sum-exp of integers drawn as a sum); a mask and reverse, each three times in
ten; the input and mask pointers 0-3 elements in (`@N`). BENCHMARKS.md's ninety-first pass ran
seeds 2026 and 7, 40 each.
"""
import random
import sys


def draw(rng):
    total = int(2 ** rng.uniform(24, 27))
    kind = rng.choice(["short", "rows", "few", "1d", "cols"])
    dtype = rng.choice(["f32", "f16", "bf16", "f64", "i32"])
    op = rng.choice(["sum", "sum", "sum", "prod", "max", "min", "logsumexp"])
    if op == "logsumexp" and dtype == "i32":
        op = "sum"
    if kind == "short":
        length = rng.randint(33, 700)
        shape, dim = [total // length, length], 1
    elif kind == "rows":
        length = rng.randint(700, 100000)
        shape, dim = [total // length, length], 1
    elif kind == "few":
        rows = rng.randint(2, 64)
        shape, dim = [rows, total // rows], 1
    elif kind == "1d":
        shape, dim = [total], 0
    else:
        columns = rng.choice([rng.randint(2, 40), rng.randint(40, 5000)])
        shape, dim = [total // columns, columns], 0
    spec = f"{op} {dtype}[{','.join(map(str, shape))}] dim={dim}"
    if rng.random() < 0.3:
        spec += " mask"
    if rng.random() < 0.3:
        spec += " reverse"
    offset = rng.choice([0, 0, 1, 2, 3])
    return spec + (f" @{offset}" if offset else "")


def main():
    rng = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[2])):
        print(draw(rng))


if __name__ == "__main__":
    main()
