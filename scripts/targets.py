#!/usr/bin/env python3
"""Checks benchmark rows against issue 16's targets (H200, each against its copy in the same run).

    scripts/targets.py RESULTS.json [--failing]

RESULTS.json is scanjit_bench's --json output. Each case is put in one class by its spec's shape:
  1-D or few-row (at most 64 lines along the last dim): <= 1.30x of 1M-16M elements, <= 1.15x from 16M;
  rows (dim = last, more lines) from 16M elements: <= 1.15x;
  columns (dim not last) from 16M elements: <= 1.20x;
  any other shape of 1M-16M elements: <= 1.30x, or the copy + 5 us where that is larger.
Shapes under 1M elements have no target. Prints one row per case and a count per class.
"""
import argparse
import json
import re
import sys

M = 1 << 20


def shape_of(spec):
    m = re.search(r"\[([0-9,]+)\]", spec)
    dims = [int(v) for v in m.group(1).split(",")]
    d = re.search(r"dim=(\d+)", spec)
    return dims, int(d.group(1)) if d else len(dims) - 1


def target(spec, copy_ms):
    """(class, limit as a ratio of the copy) or (class, None) where no target applies."""
    dims, dim = shape_of(spec)
    n = 1
    for v in dims:
        n *= v
    lines = n // dims[dim]
    last = dim == len(dims) - 1
    if n < M:
        return "under 1M", None
    if len(dims) == 1 or (last and lines <= 64):
        return ("1-D/few rows >=16M", 1.15) if n >= 16 * M else ("1-D/few rows 1M-16M", 1.30)
    if n >= 16 * M:
        return ("rows >=16M", 1.15) if last else ("columns >=16M", 1.20)
    return "other 1M-16M", max(1.30, (copy_ms + 0.005) / copy_ms)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--failing", action="store_true", help="print only the cases over their target")
    args = ap.parse_args()
    rows = json.load(open(args.results))
    counts = {}
    print("| class | spec | ratio | target | meets |\n|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: -r["ratio"]):
        cls, limit = target(r["spec"], r["copy_ms"])
        shown = r["spec"] + (f" @{r['offset']}" if r.get("offset") else "")
        ok = limit is None or r["ratio"] <= limit
        c = counts.setdefault(cls, [0, 0])
        c[0] += 1
        c[1] += ok
        if not (args.failing and ok):
            print(f"| {cls} | `{shown}` | {r['ratio']:.2f} | {'-' if limit is None else f'{limit:.2f}'} | "
                  f"{'yes' if ok else 'NO'} |")
    print()
    for cls, (n, ok) in sorted(counts.items()):
        print(f"{cls}: {ok} of {n} meet their target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
