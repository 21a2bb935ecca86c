#!/usr/bin/env bash
# gpu-copies-check.sh — checks and times window copies with fewer blocks
# than windows (docs/CUDA_MSM.md "Fewer copies than windows") in one device
# command: the MSM and prover tests that run them, the G1 MSM at 2^26 and
# 2^27 through the plan's fewest blocks (at most 4) beside the plain MSM,
# 2^27 held to c = 24, and the 2^26 partition without an H table
# (CZ_PROVER_H_COPIES=0) against the default (the fewest blocks that
# fit). About 5 minutes on an H100 or H200; prints what
# each step says and exits non-zero if a test failed.
#
#   scripts/gpu-copies-check.sh [BUILD_DIR [PARTITIONS]]
#       BUILD_DIR with tests/ and bin/ (default build-gpu: unpack a pack
#       there first, GPU_CHECK_UNPACK=FILE GPU_CHECK_UNPACK_ONLY=1
#       scripts/gpu-check.sh); PARTITIONS a run (default 6)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-gpu}
count=${2:-6}
status=0
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || true
for t in test_cuda_msm test_cuda_prover; do
    out=$("$build/tests/$t" 2>&1) || status=1
    grep -E "checks|CHECK failed|SKIP" <<<"$out" | tail -5
done
m="$build/bin/cuzk-cuda-msm-bench --fc-sizes none --g2-sizes none --reps 5"
echo "== G1 MSM, plain and through the plan's fewest blocks (at most 4)"
$m --sizes 26,27 --copies-sizes 26,27 --copies-max 4 2>&1 | grep -E "g1-|skipped"
echo "== G1 MSM at 2^27 through 2 blocks, c = 24"
CZ_MSM_COPIES_C=24 $m --sizes 27 --copies-sizes 27 --copies-max 2 2>&1 | grep -E "g1-|skipped"
for v in 0 default; do
    echo "== 2^26 partition, H table: $v"
    if [ "$v" = default ]; then env=""; else env="CZ_PROVER_H_COPIES=$v"; fi
    env $env "$build/bin/cuzk-bench" partition --log2 26 --count "$count" --backend cuda 2>&1 |
        grep -E "^(median|device busy|verified|H via)|window copies"
done
exit $status
