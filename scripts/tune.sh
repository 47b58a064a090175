#!/usr/bin/env bash
# Tuning sweep on a GPU machine: runs scanjit_bench once per plan tuning
# (SCANJIT_PLAN_TUNE, see compiler/PlanTuning.h) on the given specs and
# prints one table row per (tuning, spec). Used to fill the policy tables in
# compiler/PlannerPolicy.h; BENCHMARKS.md records the sweeps.
#
#   scripts/tune.sh BUILD_DIR "tuning;tuning;..." "spec" ["spec"...]
#   scripts/tune.sh BUILD_DIR --pairs "tuning|spec" ["tuning|spec"...]
#   (an empty tuning is the policy's own choice; --pairs times each spec under
#    its own tuning, e.g. "|spec" "threads=128|spec" side by side; TUNE_CHECK=1
#    also checks each tuned kernel against the float64 reference with
#    `scanjit run`, since the benchmark itself does not check results;
#    TUNE_TIMEOUT=<seconds> bounds each benchmark run, 120 unless told)
set -uo pipefail
cd "$(dirname "$0")/.."
build=$1 tunings=$2; shift 2
# bench TUNING SPEC...: the benchmark's rows for the specs under the tuning.
# A run past TUNE_TIMEOUT seconds (120 unless told) is killed, since a tuned
# kernel that never finishes would otherwise hold the whole device call: the
# first spec without a row (rows come in the specs' order, each flushed) is
# named as timed out, and the specs after it run on.
bench() {
  local t=$1; shift
  local args=() log rc rows
  for s in "$@"; do args+=(--spec "$s"); done
  log=$(mktemp)
  SCANJIT_PLAN_TUNE="$t" timeout "${TUNE_TIMEOUT:-120}" "$build/bench/scanjit_bench" --iters "${TUNE_ITERS:-20}" \
    "${args[@]}" > "$log" 2>&1
  rc=$?
  grep '^| custom' "$log" | sed "s/^| custom /| ${t:-policy} /"
  rows=$(grep -c '^| custom' "$log")
  rm -f "$log"
  if [ "$rc" = 124 ] && [ "$rows" -lt $# ]; then
    shift "$rows"
    echo "| ${t:-policy} | \`$1\` | timed out after ${TUNE_TIMEOUT:-120} s | | | | | |"
    shift
    [ $# -gt 0 ] && bench "$t" "$@"
  fi
  return 0
}
# check TUNING SPEC: with TUNE_CHECK=1, the tuned kernel against the reference
# (`scanjit run` places its buffers itself: a spec's `@N` is dropped).
check() {
  [ "${TUNE_CHECK:-0}" = 1 ] || return 0
  local result
  result=$(SCANJIT_PLAN_TUNE="$1" "$build/tools/scanjit" run --iters 1 --check-lines 2 "${2%@*}" 2>&1 | grep -E '^check:|error' | head -1)
  echo "|   check ${1:-policy} | \`$2\` | ${result:-no result} |"
}
echo "| tuning | spec | family | ms | GB/s | copy ms | ratio | ratio range |"
echo "|---|---|---|---|---|---|---|---|"
if [ "$tunings" = --pairs ]; then
  for pair in "$@"; do
    t=${pair%%|*} s=${pair#*|}
    bench "$t" "$s"
    check "$t" "$s"
  done
  exit 0
fi
IFS=';' read -r -a list <<< "$tunings"
for t in "${list[@]}"; do
  bench "$t" "$@"
  for s in "$@"; do check "$t" "$s"; done
done
