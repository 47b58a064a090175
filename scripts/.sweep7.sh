set -u
GPU_TEST_FILTER='Edges.NarrowColumnsAreLinesOfTheLookback:Layouts.*' GPU_TEST_TIMEOUT=200 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|tests ran|error:" | tail -20
export TUNE_ITERS=30
scripts/tune.sh build ";items=4;threads=256,occupancy=4;items=16,occupancy=2" "sum f32[1048576,2] dim=0" "sum f32[8388608,2] dim=0" "sum f32[4194304,4] dim=0" "sum f16[8388608,2] dim=0" "sum f32[4194304] dim=0 strides=[2]" "sum f32[1048576,3] dim=0@1"
