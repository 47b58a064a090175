set -u
export TUNE_ITERS=30
GPU_TEST_FILTER='Edges.ColumnOddCountsAndOffsets:Layouts.*' GPU_TEST_TIMEOUT=300 scripts/gpu-tests.sh build tests 2>&1 | grep -E "OK|FAILED|PASSED|Failure|error|tests ran" | tail -30
build/bench/scanjit_bench --iters 30 --spec "sum f32[4096,4096] dim=0" --spec "sum f32[4096,4097] dim=0" --spec "sum f32[65536,333] dim=0" --spec "sum f32[65536,333] dim=0@1" --spec "sum f32[1048576,2] dim=0" --spec "sum f16[8192,4097] dim=0" --spec "sum f32[16384,1001] dim=0 mask" --spec "sum f32[32768,32768] dim=0" --spec "sum f32[64,4096,256] dim=1" 2>&1 | grep '^| custom'
scripts/tune.sh build "evict_first=0;evict_first=0,blocks=264;evict_first=0,blocks=396;evict_first=0,blocks=528;evict_first=0,lookback=2;evict_first=0,blocks=396,lookback=2" \
  "sum f32[1048576] dim=0" "sum f32[2097152] dim=0" "sum f32[4194304] dim=0" "sum f32[8388608] dim=0" "sum f32[16777216] dim=0" "sum f32[4,4194304] dim=1" "sum f32[64,262144] dim=1"
scripts/tune.sh build ";threads=256,occupancy=2;threads=384,occupancy=2;threads=256,occupancy=3;threads=256,occupancy=2,evict_first=0" \
  "sum f16[16777217] dim=0 reverse@1" "sum f16[16777216] dim=0" "sum bf16[3,5000003] dim=1" "sum f64[4194305] dim=0@1" "sum f64[8388608] dim=0" "sum i32[16777216] dim=0" "max f64[4194304] dim=0" "sum f16[4194304] dim=0"
