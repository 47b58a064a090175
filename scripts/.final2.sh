set -u
GPU_TEST_FILTER='SpecialValues.*:Large.SeedWorkloads32768Squared:Large.LongRowsAndFewColumns:CApi.*:FlagMatrix.OutputTypeOverrides:NoGpu.*' GPU_TEST_TIMEOUT=330 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|tests ran|error:|^\[==========\]" | tail -20
build/tests/scanjit_gpu_tests --gtest_list_tests | grep -c "^  "
scripts/gpu-tests.sh build sanitize 2>&1 | grep -E "compute-sanitizer|failed on" | tail -10
