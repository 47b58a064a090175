set -u
export TUNE_ITERS=30
GPU_TEST_FILTER='Edges.*:Layouts.*:Large.LeanLookbackReachesItsWindowsBase:TunedPlans.*:Api.*:Cache.*:Shapes.*:Families/FlagMatrix.EveryOpDtypeAndFlagMatchesTheReference/*' GPU_TEST_TIMEOUT=400 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|tests ran|error:" | tail -30
compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/scanjit_gpu_tests --gtest_filter='Edges.ColumnOddCountsAndOffsets' --gtest_brief=1 2>&1 | tail -4
scripts/tune.sh build ";rows=32;rows=32,groups=4" "sum f32[4096,4097] dim=0" "sum f32[65536,333] dim=0" "sum f32[8192,4097] dim=0 mask" "sum f16[8192,4097] dim=0" "sum f32[16384,1001] dim=0@1" "sum f32[64,4096,255] dim=1"
