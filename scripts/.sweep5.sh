set -u
GPU_TEST_FILTER='SpecialValues.*:Large.SeedWorkloads32768Squared:Large.LongRowsAndFewColumns:CApi.*:FlagMatrix.OutputTypeOverrides:NoGpu.*' GPU_TEST_TIMEOUT=330 scripts/gpu-tests.sh build tests 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|tests ran|error:" | tail -20
for s in "sum f32[4001,1001] dim=0 mask" "sum f16[2001,333] dim=0 reverse exclusive" "sum f32[100003,2] dim=0" "sum f16[3,40001] dim=1 mask reverse" "sum f64[3,40001] dim=1 exclusive"; do
  echo "memcheck $s: $(compute-sanitizer --tool memcheck --error-exitcode 9 build/tools/scanjit run --iters=2 "$s" 2>&1 | grep -E 'ERROR SUMMARY|check:' | tr '\n' ' ')"
done
NCU_SPECS="sum f32[4096,4096] dim=0;sum f32[4096,4097] dim=0;sum f16[8192,4097] dim=0" scripts/gpu-tests.sh build ncu 2>&1 | tail -30
for n in 1 2 3; do grep -E "Duration|Throughput|Occupancy|Registers|Warp Cycles|Stall|Block Limit|Eligible|Issued" $OUT/ncu-$n.txt | head -30; echo ----; done
build/bench/scanjit_bench --iters 30 --spec "sum f16[8192,4096] dim=0" --spec "sum f16[8192,4097] dim=0" --spec "sum f32[4096,4096] dim=0 mask" --spec "sum f32[4096,4097] dim=0 mask" 2>&1 | grep '^| custom'
