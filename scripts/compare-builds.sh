#!/usr/bin/env bash
# A/B on a GPU machine: the same benchmark cases timed with two or more build
# folders (say main and a branch, built here and carried together), one table
# row per (build, case).
#
#   scripts/compare-builds.sh "BUILD [BUILD...]" [scanjit_bench arguments]
#   e.g. scripts/compare-builds.sh "build build-branch" --suite seeds
#   (SPECS_FILE=<file>: its specs too, one a line, `@N` placements kept, as
#    scripts/plan_diff.py lists them; scripts/ab_table.py tabulates the output;
#    BENCH_TIMEOUT=<seconds> bounds each build's run, 300 unless told)
set -uo pipefail
cd "$(dirname "$0")/.."
builds=$1; shift
if [ -n "${SPECS_FILE:-}" ]; then
  while read -r s; do [ -n "$s" ] && set -- "$@" --spec "$s"; done < "$SPECS_FILE"
fi
echo "| build | suite | spec | family | ms | GB/s | copy ms | ratio | ratio range |"
echo "|---|---|---|---|---|---|---|---|---|"
for b in $builds; do
  # (a build's run past BENCH_TIMEOUT seconds, 300 unless told, is killed
  # and says so, and the next build runs: a hang costs one timeout)
  timeout "${BENCH_TIMEOUT:-300}" "$b/bench/scanjit_bench" "$@" 2>&1 | grep -E '^\| [a-z]+ \| `' | sed "s/^| /| $(basename "$b") | /"
  if [ "${PIPESTATUS[0]}" = 124 ]; then
    echo "| $(basename "$b") | (timed out after ${BENCH_TIMEOUT:-300} s: the spec after its last row never finished) |"
  fi
done
