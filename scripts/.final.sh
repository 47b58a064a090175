set -u
GPU_TEST_FILTER='Edges.*:Layouts.*:Large.LeanLookbackReachesItsWindowsBase:TunedPlans.*:Api.*:Cache.*:Shapes.*:Families/FlagMatrix.EveryOpDtypeAndFlagMatchesTheReference/*' GPU_TEST_TIMEOUT=500 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|tests ran|error:|^\[==========\]" | tail -20
