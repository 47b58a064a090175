set -u
GPU_TEST_FILTER='Edges.*:Layouts.*:Shapes.*:Families/FlagMatrix.EveryOpDtypeAndFlagMatchesTheReference/*' GPU_TEST_TIMEOUT=400 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|tests ran|error:" | tail -20
for s in "sum f32[300001,2] dim=0" "sum u8[500000,1] dim=0 strides=[7,1]"; do
  echo "memcheck $s: $(compute-sanitizer --tool memcheck --error-exitcode 9 build/tools/scanjit run --iters=2 "$s" 2>&1 | grep -E 'ERROR SUMMARY|check:' | tr '\n' ' ')"
done
build/bench/scanjit_bench --iters 30 --spec "sum f32[1048576,2] dim=0" --spec "sum f32[8388608,2] dim=0" --spec "sum f32[4194304,4] dim=0" --spec "sum f16[8388608,2] dim=0" --spec "sum f32[4194304] dim=0 strides=[2]" --spec "sum f32[2097152,8] dim=0 strides=[8,1]@1" --spec "sum f32[2048,2,2048] dim=0" 2>&1 | grep '^| custom'
