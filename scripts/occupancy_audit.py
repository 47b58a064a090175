#!/usr/bin/env python3
"""Finds register cliffs without a GPU: for each spec, compiles it and its
sibling with one flag turned the other way (reverse by default; --flags picks
reverse, exclusive, mask) and lists the pairs whose kernels hold different
numbers of blocks an SM, at the same block size, where registers set the
fewer. A kernel that ptxas holds above a sibling's occupancy runs fewer warps
for the same plan: reversed fitted column panels held one block of 320
threads an SM at 124-150 registers against forward's two at 94
(BENCHMARKS.md, seventy-fifth pass). Reverse is the clean comparison: a
mask's or an exclusive scan's kernel holds more by design (the mask's
bytes, its selects; the seeds' masked rows plan two blocks an SM, not
three), so those rows are leads to read, not faults.

    scripts/occupancy_audit.py BUILD --specs FILE [--flags reverse,mask]
    scripts/occupancy_audit.py BUILD --seed N --count 40 [plan_diff.py's draw options]

Blocks an SM follow sm_90's register file (65536 a SM, 256-register units a
warp) and its 228 KB of shared memory (1 KB reserved a block), as
`scanjit inspect --emit resources` and the plan report them. Prints one row a
pair that differs, and how many pairs of how many to stderr.
"""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan_diff  # noqa: E402  (its draw() and options)

REGISTERS_PER_SM = 65536
SHARED_PER_SM = 228 * 1024
SHARED_RESERVED_PER_BLOCK = 1024
THREADS_PER_SM = 2048
BLOCKS_PER_SM = 32


def inspect(build, spec, what, arch):
    out = subprocess.run([f"{build}/tools/scanjit", "inspect", spec, "--emit", what, "--arch", arch],
                         capture_output=True, text=True, env={**os.environ, "SCANJIT_CACHE": "off"})
    return out.stdout


def field(text, key):
    m = re.search(rf"\b{key}=(\d+)", text)
    return int(m.group(1)) if m else 0


def kernel(build, spec, arch):
    """(threads, registers, blocks an SM, blocks its registers allow) of a
    spec's kernel, or None where it does not plan."""
    plan, resources = inspect(build, spec, "plan", arch), inspect(build, spec, "resources", arch)
    threads, registers = field(plan, "threads"), field(resources, "registers")
    if not threads or not registers:
        return None
    warps = (threads + 31) // 32
    per_warp = (registers * 32 + 255) // 256 * 256
    by_registers = REGISTERS_PER_SM // (per_warp * warps)
    shared = field(plan, "smem") + field(resources, "shared_bytes") + SHARED_RESERVED_PER_BLOCK
    by_shared = SHARED_PER_SM // shared
    return threads, registers, min(by_registers, by_shared, THREADS_PER_SM // threads, BLOCKS_PER_SM), by_registers


def sibling(spec, flag):
    """The spec with `flag` turned the other way."""
    words = spec.split()
    return " ".join(w for w in words if w != flag) if flag in words else f"{spec} {flag}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build")
    p.add_argument("--specs", help="a file of specs, one a line (placements dropped)")
    p.add_argument("--flags", type=lambda s: s.split(","), default=["reverse"])
    p.add_argument("--arch", default="sm_90")
    plan_diff.add_draw_options(p, count=40)
    args = p.parse_args()
    if args.specs:
        specs = [s.split("@")[0].strip() for s in open(args.specs) if s.strip()]
    else:
        rng = random.Random(args.seed)
        specs = [plan_diff.draw(rng, args).split("@")[0] for _ in range(args.count)]
        print(f"seed {args.seed}", file=sys.stderr)
    pairs = [(s, sibling(s, f)) for s in specs for f in args.flags]

    def audit(pair):
        return pair, kernel(args.build, pair[0], args.arch), kernel(args.build, pair[1], args.arch)

    differing = 0
    print("| spec | sibling | threads | registers | blocks an SM |")
    print("|---|---|---|---|---|")
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for (spec, other), a, b in pool.map(audit, pairs):
            # (Only where registers set the fewer blocks: a mask's stages,
            # say, may take shared memory by design.)
            fewer = min(a, b, key=lambda k: k[2]) if a and b else None
            if a and b and a[0] == b[0] and a[2] != b[2] and fewer[3] == fewer[2]:
                differing += 1
                print(f"| `{spec}` | `{other}` | {a[0]} | {a[1]} / {b[1]} | {a[2]} / {b[2]} |")
    print(f"{differing} of {len(pairs)} pairs differ in blocks an SM", file=sys.stderr)


if __name__ == "__main__":
    main()
