set -u
GPU_TEST_FILTER='Edges.ColumnOddCountsAndOffsets:Layouts.*' GPU_TEST_TIMEOUT=200 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|error:" | tail -5
for tool in racecheck memcheck synccheck; do for s in "sum f32[4001,1001] dim=0 mask" "sum f16[2001,333] dim=0 reverse exclusive" "max i32[3001,77] dim=0 mask reverse"; do
  echo "$tool $s: $(compute-sanitizer --tool $tool --error-exitcode 9 build/tools/scanjit run --iters=2 "$s" 2>&1 | grep -E 'SUMMARY|check:' | tr '\n' ' ')"
done; done
build/bench/scanjit_bench --iters 30 --placements 1 --spec "sum f32[4096,4097] dim=0" --spec "sum f32[65536,333] dim=0" --spec "sum f16[8192,4097] dim=0" --spec "sum f32[8192,4097] dim=0 mask" 2>&1 | grep '^| custom'
