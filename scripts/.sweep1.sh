set -u
nvidia-smi --query-gpu=name --format=csv,noheader
export TUNE_ITERS=30
scripts/tune.sh build ";blocks=264;blocks=396;blocks=528;stages=2;stages=4;items=16;threads=256;threads=1024,occupancy=1;lookback=2;evict_first=0;threads=256,items=16,occupancy=2;occupancy=2;occupancy=4,threads=256" \
  "sum f32[1048576] dim=0" "sum f32[4194304] dim=0" "sum f32[16777216] dim=0" "sum f32[4,4194304] dim=1" "sum f32[32,524288] dim=1"
scripts/tune.sh build ";threads=384,occupancy=2;threads=256,occupancy=2;threads=256,occupancy=3;items=8;items=8,threads=384,occupancy=2;items=8,occupancy=2;stages=2;threads=1024,occupancy=1" \
  "sum f16[16777217] dim=0 reverse@1" "sum f16[16777216] dim=0 reverse" "sum bf16[3,5000003] dim=1" "sum f64[4194305] dim=0@1"
