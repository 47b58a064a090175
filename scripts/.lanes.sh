set -u
GPU_TEST_FILTER='Edges.NarrowColumnsAreLinesOfTheLookback:Layouts.*:Shapes.*' GPU_TEST_TIMEOUT=200 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|error:|case" | tail -8
for tool in memcheck racecheck; do for s in "sum f32[300001,2] dim=0" "sum f16[200003,3] dim=0 mask reverse"; do
  echo "$tool $s: $(compute-sanitizer --tool $tool --error-exitcode 9 build/tools/scanjit run --iters=2 "$s" 2>&1 | grep -E 'SUMMARY|check:' | tr '\n' ' ')"
done; done
build/bench/scanjit_bench --iters 30 --placements 1 --spec "sum f32[1048576,2] dim=0" --spec "sum f32[8388608,2] dim=0" --spec "sum f32[4194304,4] dim=0" --spec "sum f16[8388608,2] dim=0" --spec "sum f32[1048576,3] dim=0@1" --spec "sum f32[2097152,8] dim=0 strides=[8,1]" --spec "sum f16[4194304,8] dim=0" --spec "sum f32[1048576,16] dim=0" --spec "sum f32[1048576,17] dim=0" --spec "sum f32[8192,4096] dim=0" 2>&1 | grep '^| custom'
