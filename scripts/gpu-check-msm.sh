#!/bin/bash
# gpu-check-msm.sh — the MSM part of the H200 check: builds the CUDA target,
# runs test_cuda_msm and cuzk-cuda-msm-bench, and prints the bench table last.
# Meant to be called from scripts/gpu-check.sh or on its own, from the
# repository root, on a machine with a GPU:
#   scripts/gpu-check-msm.sh [BUILD_DIR]
# SPPARK_LIB=path/to/libsppark_msm.so adds the side-by-side sppark column
# (a harness built outside the repository; with SPPARK_PRELOAD naming the
# library that holds sppark's gpu_props/select_gpu when they are separate).
# BENCH_ARGS passes options to the bench (default: every size, 7 reps).
set -euo pipefail
build=${1:-build-gpu}
cmake -S . -B "$build" -G Ninja -DCUZK_SANITIZED_TESTS=OFF >/dev/null
cmake --build "$build" --target test_cuda_msm cuzk-cuda-msm-bench
"$build/tests/test_cuda_msm"
args=(--json "$build/cuda-msm-bench.json" ${BENCH_ARGS:---reps 7})
if [ -n "${SPPARK_LIB:-}" ]; then args+=(--sppark "$SPPARK_LIB"); fi
LD_PRELOAD=${SPPARK_PRELOAD:-} "$build/bin/cuzk-cuda-msm-bench" "${args[@]}"
