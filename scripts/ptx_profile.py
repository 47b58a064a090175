#!/usr/bin/env python3
"""Where a kernel's device code comes from: PTX instructions per template line.

NVRTC's optimizer and ptxas take time in proportion to the code a plan
instantiates (BENCHMARKS.md, cold compile), so this is where cold-compile
work looks first. No GPU needed:

    scripts/ptx_profile.py BUILD "logsumexp f64[4096,4096] dim=1" [--arch sm_90] [--top 25]

Compiles the spec's kernel with line info (SCANJIT_NVRTC_OPTIONS=-lineinfo,
the cache off) and counts each PTX instruction against its source line
(`self`) and against every call site it was inlined through (`inclusive`,
rebuilt from the `inlined_at` chains), so a call that expands into many
copies of a combine shows its whole cost on its own line.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

LOC = re.compile(r"\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:.*inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?")
FILE = re.compile(r'\.file\s+(\d+)\s+"([^"]+)"')


def ptx_of(build, spec, arch):
    env = dict(os.environ, SCANJIT_CACHE="off", SCANJIT_NVRTC_OPTIONS="-lineinfo")
    out = subprocess.run([f"{build}/tools/scanjit", "inspect", spec, "--emit", "ptx", "--arch", arch],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(out.stderr.strip())
    return out.stdout


def is_instruction(text):
    return bool(text) and not text.startswith((".", "//", "{", "}", "$", ")", "(")) and not text.endswith(":")


def profile(ptx):
    files = {m.group(1): os.path.basename(m.group(2)) for m in FILE.finditer(ptx)}
    parent = {}  # a location -> the call site it was inlined at (last seen)
    here = None
    own, inclusive = collections.Counter(), collections.Counter()
    total = 0
    for line in ptx.splitlines():
        text = line.strip()
        m = LOC.match(text)
        if m:
            here = (m.group(1), int(m.group(2)), int(m.group(3)))
            if m.group(4):
                parent[here] = (m.group(4), int(m.group(5)), int(m.group(6)))
            continue
        if here is None or not is_instruction(text):
            continue
        total += 1
        own[here[:2]] += 1
        seen, at = set(), here
        while at is not None and at[:2] not in seen:  # each line once, even through recursion
            seen.add(at[:2])
            inclusive[at[:2]] += 1
            at = parent.get(at)
    name = lambda key: (files.get(key[0], key[0]), key[1])
    return total, {name(k): v for k, v in own.items()}, {name(k): v for k, v in inclusive.items()}


def source_line(templates, file, line):
    path = os.path.join(templates, "scanjit", file)
    if not os.path.exists(path):
        return ""
    lines = open(path).read().splitlines()
    return lines[line - 1].strip()[:80] if 0 < line <= len(lines) else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("spec")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--templates", default=os.path.join(os.path.dirname(__file__), "..", "templates"))
    args = parser.parse_args()
    total, own, inclusive = profile(ptx_of(args.build, args.spec, args.arch))
    by_file = collections.Counter()
    for (file, _), n in own.items():
        by_file[file] += n
    print(f"{args.spec} ({args.arch}): {total} PTX instructions")
    print("\n| self | file |\n|---|---|")
    for file, n in by_file.most_common():
        print(f"| {n} | {file} |")
    print("\n| inclusive | self | line | source |\n|---|---|---|---|")
    for (file, line), n in sorted(inclusive.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"| {n} | {own.get((file, line), 0)} | {file}:{line} | `{source_line(args.templates, file, line)}` |")


if __name__ == "__main__":
    main()
