set -u
export TUNE_ITERS=30
scripts/tune.sh build ";vector=1;rows=32;stages=4;occupancy=3" "sum f32[4096,4097] dim=0" "sum f32[65536,333] dim=0" "sum f32[8192,4097] dim=0 mask" "sum f16[8192,4097] dim=0" "sum f32[16384,1001] dim=0@1" "sum f32[1024,16411] dim=0" "sum f32[64,4096,255] dim=1"
build/bench/scanjit_bench --iters 30 --spec "sum f32[4096,4096] dim=0" --spec "sum f32[32768,32768] dim=0" --spec "sum f32[64,4096,256] dim=1" --spec "sum f16[16777216] dim=0" --spec "sum f16[16777217] dim=0 reverse@1" --spec "sum i32[16777216] dim=0" --spec "sum f64[8388608] dim=0" --spec "sum f32[1048576] dim=0" --spec "sum f32[4194304] dim=0" --spec "sum f32[8,16777216] dim=1" --spec "sum f32[64,4194304] dim=1"  2>&1 | grep '^| custom'
