#!/usr/bin/env python3
"""Turns `scripts/compare-builds.sh "BASE NEW" ...` output (any number of
rounds, concatenated) into one Markdown row per case: the best ratio to copy
of each build over its rounds, and the change. Counts the cases that gained
or lost more than --margin (3% unless told); with more than two builds, each
build's best ratio side by side. `scripts/tune.sh` output reads the same way,
each tuning a build (its `check` rows are skipped; a case not timed under a
build reads `-`, and two builds' table leaves it out):

    scripts/compare-builds.sh "build-base build" --spec ... > ab.txt   # (GPU machine)
    scripts/ab_table.py ab.txt [more rounds' logs...] [--margin 0.03]
    scripts/tune.sh build ";unroll=16" "spec" ... > tune.md            # (GPU machine)
    scripts/ab_table.py tune.md
"""
import argparse
import collections
import re

ROW = re.compile(r"\| (\S+) \| \w+ \| `([^`]+)` \| \w+ \| [\d.]+ \| \d+ \| [\d.]+ \| ([\d.]+) \|")
TUNE_ROW = re.compile(r"\| ([^|`]*?) \| `([^`]+)` \| \w+ \| [\d.]+ \| \d+ \| [\d.]+ \| ([\d.]+) \|")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("logs", nargs="+", help="one or more logs (rounds), read as one")
    p.add_argument("--margin", type=float, default=0.03)
    args = p.parse_args()
    ratios = collections.defaultdict(lambda: collections.defaultdict(list))
    builds, cases = [], []
    lines = [line for log in args.logs for line in open(log)]
    for line in lines:
        m = ROW.match(line) or TUNE_ROW.match(line)
        if not m:
            continue
        build, case, ratio = m.groups()
        ratios[case][build].append(float(ratio))
        if build not in builds:
            builds.append(build)
        if case not in cases:
            cases.append(case)
    if len(builds) < 2:
        raise SystemExit(f"expected two or more builds, found {builds}")
    if len(builds) > 2:  # (variants side by side: each build's best ratio)
        print("| case | " + " | ".join(builds) + " |\n|---|" + "---|" * len(builds))
        for case in cases:
            # (`-`: a build, or tuning, this case was not timed under)
            print(f"| `{case}` | " + " | ".join(f"{min(ratios[case][b]):.2f}" if ratios[case][b] else "-"
                                               for b in builds) + " |")
        return
    base, new = builds
    print(f"| case | {base} | {new} | change |\n|---|---|---|---|")
    gained = lost = compared = 0
    for case in cases:
        if not ratios[case][base] or not ratios[case][new]:
            continue  # (timed under one of the two only)
        compared += 1
        a, b = min(ratios[case][base]), min(ratios[case][new])
        change = (b - a) / a
        gained += change < -args.margin
        lost += change > args.margin
        print(f"| `{case}` | {a:.2f} | {b:.2f} | {change * 100:+.1f}% |")
    print(f"\n{gained} gained and {lost} lost more than {args.margin * 100:.0f}%, of {compared} cases")


if __name__ == "__main__":
    main()
