#!/usr/bin/env python3
"""Compiles specs drawn at random for the given archs and reports every plan
that spills or fails to compile; no GPU needed. CompileMatrix checks its fixed
shapes; this looks where no suite does (odd sizes, ranks 1-4, views, every op,
dtype and flag, pointers off the 16-byte grid):

    scripts/compile_sweep.py [--build build] [--seed N] [--count 300]
                             [--arch sm_90 --arch sm_120 ...] [--jobs 2]
    scripts/compile_sweep.py --specs FILE [--reverse-exclusive] ...

(--specs: the file's specs instead of a draw, one a line, `@N` placements
dropped, as scripts/plan_diff.py lists the specs a planner change touches;
--reverse-exclusive compiles each also with those flags, whose kernels hold
the most registers.)

Each spec is compiled as planned and with its off-grid plan (off_grid=1),
through `scanjit inspect --emit resources` with the cache off. Prints one
line per problem and a summary; exits 1 if there was any. (A kernel
compiled again for its plan's wanted blocks and kept with a few bytes of
spills is listed as ASKED, not counted.) The seed is printed, so a sweep can
be run again.
"""
import argparse
import concurrent.futures
import os
import random
import subprocess
import sys

OPS = ("sum", "prod", "max", "min", "logsumexp")
DTYPES = ("f16", "bf16", "f32", "f64", "u8", "i8", "i16", "i32", "i64", "bool")
FLOATS = {"f16", "bf16", "f32", "f64"}


def draw_size(rng):
    r = rng.random()
    if r < 0.3:
        return rng.randint(1, 64)
    if r < 0.6:
        return rng.randint(65, 5000)
    if r < 0.85:
        return rng.randint(5001, 300000)
    return rng.randint(300001, 20000000)


def draw_spec(rng):
    """One spec: up to 2^28 elements, contiguous, transposed or every other element."""
    while True:
        op, dtype = rng.choice(OPS), rng.choice(DTYPES)
        if op != "logsumexp" or dtype in FLOATS:
            break
    rank = rng.choice((1, 2, 2, 2, 3, 4))
    shape = [draw_size(rng) for _ in range(rank)]
    while True:
        count = 1
        for s in shape:
            count *= s
        if count <= 2**28:
            break
        largest = max(range(rank), key=lambda k: shape[k])
        shape[largest] = max(1, shape[largest] // 7)
    strides, step = [0] * rank, 1
    for k in reversed(range(rank)):
        strides[k], step = step, step * shape[k]
    spec = f"{op} {dtype}[{','.join(map(str, shape))}] dim={rng.randrange(rank)}"
    view = rng.random()
    if view < 0.15 and rank >= 2:  # a permuted layout
        a, b = rng.sample(range(rank), 2)
        strides[a], strides[b] = strides[b], strides[a]
        spec += f" strides=[{','.join(map(str, strides))}]"
    elif view < 0.25:  # every other element
        spec += f" strides=[{','.join(str(2 * s) for s in strides)}]"
    for flag, p in (("mask", 0.35), ("reverse", 0.4), ("exclusive", 0.3)):
        if rng.random() < p:
            spec += " " + flag
    return spec


def check(cli, spec, arch, tuning):
    """None when the kernel compiles without spills, else a line saying what went wrong (ASKED: an asked
    kernel's spills, kept by design)."""
    env = dict(os.environ, SCANJIT_CACHE="off", SCANJIT_PLAN_TUNE=tuning)
    where = f"{arch} {tuning or 'planned'}: {spec}"
    try:
        run = subprocess.run([cli, "inspect", spec, "--arch", arch, "--emit", "resources"], env=env,
                             capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return f"FAIL {where}: no result in 600 s"
    if run.returncode != 0:
        return f"FAIL {where}: {(run.stderr or run.stdout).strip().splitlines()[:1]}"
    values = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    if values.get("spill_stores", "0") != "0" or values.get("stack_bytes", "0") != "0":
        # (A kernel compiled again for its plan's wanted blocks is kept with a
        # few bytes of spills by design: compileKernel's askedKernelKept.)
        kind = "ASKED" if values.get("asked_blocks", "0") != "0" else "SPILL"
        return (f"{kind} {where}: registers={values.get('registers')} spill_stores={values.get('spill_stores')} "
                f"stack_bytes={values.get('stack_bytes')} asked_blocks={values.get('asked_blocks', '0')}")
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--seed", type=int, default=random.randrange(2**31))
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--arch", action="append", dest="archs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--specs", help="a file of specs, one a line, instead of a draw")
    parser.add_argument("--reverse-exclusive", action="store_true", help="each spec also with reverse exclusive")
    args = parser.parse_args()
    cli = os.path.join(args.build, "tools", "scanjit")
    if not os.access(cli, os.X_OK):
        sys.exit(f"compile_sweep: no scanjit CLI at {cli} (build first, or pass --build)")
    archs = args.archs or ["sm_90"]
    if args.specs:
        specs = [line.split("@")[0].strip() for line in open(args.specs) if line.strip()]
    else:
        rng = random.Random(args.seed)
        specs = [draw_spec(rng) for _ in range(args.count)]
    if args.reverse_exclusive:
        specs += [s + " reverse exclusive" for s in specs if "reverse" not in s and "exclusive" not in s]
    jobs = [(spec, arch, tuning) for spec in specs for arch in archs for tuning in ("", "off_grid=1")]
    source = f"from {args.specs}" if args.specs else f"seed {args.seed}"
    print(f"compile sweep: {source}, {len(specs)} specs x {archs} x (planned, off_grid=1)", flush=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        found = [p for p in pool.map(lambda job: check(cli, *job), jobs) if p]
    for p in found:
        print(p)
    problems = [p for p in found if not p.startswith("ASKED ")]
    asked = len(found) - len(problems)
    print(f"{len(jobs)} compiles, {len(problems)} with spills or errors"
          + (f", {asked} asked kernels kept with a few bytes of spills" if asked else "") + f" ({source})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
