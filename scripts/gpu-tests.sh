#!/usr/bin/env bash
# Runs the GPU suite on a GPU machine from a build folder made elsewhere
# (binaries link NVRTC dynamically, LLVM Support and GoogleTest statically,
# and open libcuda.so.1 themselves).
#
#   scripts/gpu-tests.sh [BUILD_DIR] [all|tests|demo|bench|cub|torch|examples|sanitize|ncu]...
#   (GPU_TEST_FILTER=<gtest filter>, GPU_TEST_TIMEOUT=<seconds> narrow the tests step;
#    GPU_TEST_SHARD=1|2|3 runs one of three shards that together are the whole
#    suite, each a few minutes on an H100, so that each fits one device call;
#    BENCH_ARGS=<scanjit_bench arguments> the bench step, NCU_SPECS="spec;spec" the
#    ncu step, which `all` leaves out)
#
# Logs go to $OUT (or ./gpu-logs) when set. Build here first:
#   cmake -S . -B build -G Ninja && cmake --build build
# then carry `build` to the GPU machine and run this script there.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}; shift || true
steps=("${@:-all}")
logs=${OUT:-gpu-logs}
mkdir -p "$logs"

# NVRTC: the toolkit's, else the one PyTorch's CUDA wheels ship.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
         $(python3 -c 'import nvidia, os; print(" ".join(os.path.join(p, "cu13/lib") for p in nvidia.__path__))' 2>/dev/null); do
  if [ -e "$d/libnvrtc.so.13" ]; then
    export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    break
  fi
done
echo "NVRTC from ${LD_LIBRARY_PATH%%:*}"
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/gpu.txt"
fi

status=0
want() { [[ " ${steps[*]} " == *" all "* || " ${steps[*]} " == *" $1 "* ]]; }

# The suite in three shards (H200, the three at once: 356 s for all on
# cd99c63, with the tests' kernels compiled in parallel first; 449, 412 and
# 432 s on 6d7c434 before that; 319, 303 and 418 s on 44f9585, so the third's
# largest, Edges.NarrowColumnsPackedIntoOneRow at 37 s, moved to the first;
# 357, 381 and 380 s on 96db65a; 422, 437 and past 480 s on 4c2517a's
# candidate, whose policy-sized one-block cases then became small tuned ones
# in shard 2; the same shards ran 50 s apart from one run to the next, so
# GPU_TEST_TIMEOUT=530 leaves room, and a device call of 600 s still
# returns the logs of a hang; on 334d402 the tests alone summed 310 s in
# shard 1 and over 376 and 361 s in shards 2 and 3, cut at 380 s; 376, 423 and
# 518 s on 2c7e206, so shard 3's two longest lane tests moved to shard 1 and a
# column test to shard 2: 396, 421 and 417 s on 6db35ba; 436, 458 and past
# 470 s on c4470ae, so its two new shifted-lane tests moved to shard 1). Every test is in
# exactly one; `scripts/gpu-tests.sh BUILD shards` checks that against the
# binary's own list.
edges_in_other_shards='Edges.TwoByteLaneWordsOfFourInShiftedStages:Edges.WideLanesInShiftedStagesAsItems:Edges.WideLanesInUnevenParts:Edges.ByteLanesAsWords:Edges.ColumnsTakeOnePanelFittedToThem:Edges.NarrowColumnsPackedIntoOneRow:Edges.TallPanelsByWholeRowTiles:Edges.MiddleSizedScansHoldTheirShares:Edges.ColumnPanelsReadTheirRowsAhead:Edges.LongColumnScansStreamTheirPiecesTwice:Edges.ColumnStagesByWordsOrBulkCopies:Edges.ColumnWordPipelineOfSm80:Edges.LookbackTilesFinishedTwoLate:Edges.ColumnRegisterPiecesOfSm75:Edges.RowRunsByLanesOfSm80:Edges.LookbackLaneRunsOfSm80:Edges.RunsOnTheGridByLanesOfSm80:Edges.PackedLanesWithoutStagesOfSm80:Edges.RereadSharesOfSm80:Edges.TilesRereadFromTheirStages:Edges.PackedLanesInOneBlockOfMoreItems:Edges.WholeRowTilesLookBackOverSpanTotals'
shard_filters=(
  'SpecialValues.*:Families/FlagMatrix.*:LseMath.*:Edges.NarrowColumnsPackedIntoOneRow:Edges.TallPanelsByWholeRowTiles:Edges.ColumnStagesByWordsOrBulkCopies:Edges.ColumnWordPipelineOfSm80:Edges.RowRunsByLanesOfSm80:Edges.MiddleSizedScansHoldTheirShares:Edges.WideLanesInUnevenParts:Edges.ByteLanesAsWords:Edges.TwoByteLaneWordsOfFourInShiftedStages:Edges.WideLanesInShiftedStagesAsItems'
  'Large.*:Indices.*:Ladder.*:Api.*:Cache.*:CApi.*:NoGpu.*:Random.*:Edges.ColumnPanelsReadTheirRowsAhead:Edges.LongColumnScansStreamTheirPiecesTwice:Edges.LookbackTilesFinishedTwoLate:Edges.ColumnRegisterPiecesOfSm75:Edges.LookbackLaneRunsOfSm80:Edges.RunsOnTheGridByLanesOfSm80:Edges.PackedLanesWithoutStagesOfSm80:Edges.RereadSharesOfSm80:Edges.TilesRereadFromTheirStages:Edges.PackedLanesInOneBlockOfMoreItems:Edges.WholeRowTilesLookBackOverSpanTotals:Edges.ColumnsTakeOnePanelFittedToThem'
  "Shapes.*:Layouts.*:TunedPlans.*:FlagMatrix.*:Edges.*-$edges_in_other_shards"
)
if [ -n "${GPU_TEST_SHARD:-}" ] && [ -z "${GPU_TEST_FILTER:-}" ]; then
  GPU_TEST_FILTER=${shard_filters[$((GPU_TEST_SHARD - 1))]}
fi
# Whether test `$1` (Suite.Name) passes gtest filter `$2` (POSITIVE[-NEGATIVE],
# each a ':'-separated list of globs).
in_filter() {
  local name=$1 positive=${2%%-*} negative= p
  [[ "$2" == *-* ]] && negative=${2#*-}
  local hit=1
  IFS=: read -ra globs <<< "$positive"
  for p in "${globs[@]}"; do [[ "$name" == $p ]] && hit=0; done
  IFS=: read -ra globs <<< "$negative"
  for p in "${globs[@]}"; do [[ "$name" == $p ]] && hit=1; done
  return $hit
}
if [[ " ${steps[*]} " == *" shards "* ]]; then
  missing=0
  tests=$("$build/tests/scanjit_gpu_tests" --gtest_list_tests | awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }')
  [ -n "$tests" ] || { echo "no GPU tests listed by $build/tests/scanjit_gpu_tests"; missing=1; }
  for t in $tests; do
    n=0
    for f in "${shard_filters[@]}"; do in_filter "$t" "$f" && n=$((n + 1)); done
    [ "$n" -eq 1 ] || { echo "GPU test $t is in $n shards"; missing=1; }
  done
  [ $missing -eq 0 ] && echo "every GPU test is in exactly one shard ($(echo "$tests" | wc -l) tests)"
  status=$missing
fi
if want tests; then
  # Each case is named in the full log before it runs (a hang shows where);
  # the console gets failures and the summary.
  SCANJIT_GPU_TEST_TRACE=1 timeout "${GPU_TEST_TIMEOUT:-530}" "$build/tests/scanjit_gpu_tests" \
    ${GPU_TEST_FILTER:+--gtest_filter=$GPU_TEST_FILTER} > "$logs/gpu-tests.log" 2>&1
  rc=$?
  grep -v "^\[ case " "$logs/gpu-tests.log" | grep -E "Failure|FAILED|error|^\[==|PASSED|SKIPPED" | tail -40
  if [ $rc -ne 0 ]; then
    status=1
    # (Assertion failures print as they happen, above; a timeout also says
    # how far the run got, since gtest's summary never comes.)
    [ $rc -eq 124 ] && echo "GPU tests timed out after $(grep -c '^\[       OK \]' "$logs/gpu-tests.log") passed," \
      "$(grep -c '^\[  FAILED  \] [A-Za-z]' "$logs/gpu-tests.log") failed and $(grep -c '^\[  SKIPPED \] [A-Za-z]' \
      "$logs/gpu-tests.log") skipped; last case started: $(grep '^\[ case ' "$logs/gpu-tests.log" | tail -1)"
  fi
fi
if want demo; then
  "$build/examples/seed_workloads" 2>&1 | tee "$logs/seed-workloads.log" || status=1
fi
if want bench; then
  # BENCH_ARGS, e.g. '--suite seeds' or '--spec "sum f32[8,16777216] dim=1"', narrows it.
  eval "\"$build/bench/scanjit_bench\" ${BENCH_ARGS:-} --json \"$logs/bench.json\"" 2>&1 | tee "$logs/bench.md" || status=1
fi
if want cub; then
  # CUB's own scans on the seed and 1x1G, with their copy in the same run.
  "$build/bench/scanjit_cub_baseline" 2>&1 | tee "$logs/cub.md" || status=1
fi
if want torch; then
  python3 bench/torch_reference.py 2>&1 | tee "$logs/torch.txt" || status=1
fi
if [[ " ${steps[*]} " == *" ncu "* ]]; then
  # Nsight Compute on one launch of each spec's kernel (NCU_SPECS, separated
  # by ';'): speed of light, memory, warp stall reasons, occupancy. Clocks
  # are left as they are (--clock-control none); the source counters name
  # the instructions where warps stall most. Not part of `all`.
  IFS=';' read -r -a ncu_specs <<< "${NCU_SPECS:-sum f32[32768,32768] dim=1}"
  n=0
  for spec in "${ncu_specs[@]}"; do
    n=$((n + 1))
    ncu --clock-control none -k regex:scanjit_ --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
      --section SchedulerStats --section Occupancy --section LaunchStats --section SourceCounters \
      "$build/tools/scanjit" run --iters 3 "$spec" > "$logs/ncu-$n.txt" 2>&1 || status=1
    echo "ncu $n: $spec -> $logs/ncu-$n.txt"
    grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Warp Cycles Per Issued|Issued Warp" "$logs/ncu-$n.txt" | head -8
  done
fi
if want examples; then
  # The C/C++ examples against a fresh install, each run on the GPU: the
  # find_package host scans and checks, the C host prepares, the precompiled
  # host compiles nothing (no subproject build: it needs LLVM 14).
  SCANJIT_SUBPROJECT=0 scripts/install-tests.sh "$build" 2>&1 | tee "$logs/examples.txt" || status=1
fi
if want sanitize; then
  # A few GPU tests, then single kernels of each staged path (row, look-back,
  # segmented, column and its pieces, mask/reverse/exclusive, 2- and 8-byte types) run by the
  # CLI; "tuning|spec" runs a spec with that SCANJIT_PLAN_TUNE (the last: a
  # look-back of six stages, odd and off the grid, whose lazy start once hung).
  small='Api.PrepareOnceLaunchManyOnAStream:Api.ChainedKernelsLaunchAgainAndAgainOnAStream:FlagMatrix.OutputTypeOverrides:Layouts.PointersOffsetByOneElement:Ladder.*'
  specs=("sum f32[3,40000] dim=1 mask reverse" "logsumexp f64[3,40000] dim=1 exclusive"
         "sum f32[100003] dim=0" "sum f32[64,3008] dim=1 mask" "sum f16[256,32768] dim=1 exclusive"
         "sum i32[16,4096] dim=1" "max f32[300,700] dim=0 reverse" "sum f32[40,64,30] dim=1"
         "sum f32[8000,48] dim=1 mask reverse exclusive" "stages=8|sum f32[8000,48] dim=1 mask reverse exclusive"
         "sum f16[3001,32] dim=1 mask reverse exclusive" "logsumexp f32[300007] dim=0 reverse exclusive"
         "max f32[4,3000,96] dim=1 mask reverse exclusive" "pieces=5|logsumexp f64[3,2000,64] dim=1 exclusive"
         "sum f32[4,3000,64] dim=1 exclusive" "sum f32[2,300000] dim=1 reverse exclusive"
         "sum f32[2100,2048] dim=1 mask reverse exclusive" "sum f32[2100,1100] dim=1 reverse exclusive"
         "sum f32[4001,1001] dim=0 mask" "sum f16[2001,333] dim=0 reverse exclusive" "sum f32[100003,2] dim=0"
         "sum f16[3,40001] dim=1 mask reverse" "sum i32[2,300005] dim=1 exclusive"
         "sum f32[300001] dim=0 strides=[2] mask mask_strides=[2] reverse" "max f16[50001] dim=0 strides=[3] exclusive"
         "occupancy=1,stages=6|sum u8[1000003] dim=0 reverse")
  for tool in memcheck racecheck synccheck; do
    log="$logs/sanitize-$tool.log"
    : > "$log"
    bad=0
    compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/tests/scanjit_gpu_tests" \
      --gtest_filter="$small" --gtest_brief=1 >> "$log" 2>&1 || bad=1
    for entry in "${specs[@]}"; do
      spec=${entry#*|} tuning=""
      [ "$spec" != "$entry" ] && tuning=${entry%%|*}
      echo "== $entry" >> "$log"
      SCANJIT_PLAN_TUNE="$tuning" compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/tools/scanjit" run \
        --iters=2 "$spec" >> "$log" 2>&1 || { bad=1; echo "   $tool failed on: $entry"; }
    done
    echo "compute-sanitizer $tool: $([ $bad -eq 0 ] && echo clean || echo ERRORS) over the tests and ${#specs[@]} specs;" \
      "$(grep -cE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' "$log") clean summaries"
    [ $bad -eq 0 ] || status=1
  done
fi
exit $status
