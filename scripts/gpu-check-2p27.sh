#!/usr/bin/env bash
# gpu-check-2p27.sh — the 2^27 partition run on a GPU machine (the size of a
# 32 GiB PoRep partition): the Filecoin-shaped synthetic circuit of 2^27
# constraints, its key made on the GPU, N partitions (default 10) proved
# back to back on the CUDA backend, each verified; the table and JSON of
# cuzk-bench partition. Needs about 80 GiB of device memory and 40 GiB of
# host memory; takes a few minutes (synthesis and setup included).
#
#   scripts/gpu-check-2p27.sh [BUILD_DIR [COUNT [JSON]]]
#       BUILD_DIR with bin/cuzk-bench (default: configure and build
#       build-gpu for sm_90)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}
if [ -z "$build" ]; then
    build=$here/build-gpu
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA_ARCHS=90 -DCUZK_GMP_TESTS=OFF >/dev/null &&
        cmake --build "$build" --target cuzk-bench || { echo "gpu-check-2p27: build failed"; exit 1; }
fi
# a build unpacked from a pack (scripts/gpu-check.sh) names its commit
[ -f "$build/COMMIT" ] && export CUZK_COMMIT=${CUZK_COMMIT:-$(cat "$build/COMMIT")}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>/dev/null || true
exec "$build/bin/cuzk-bench" partition --log2 27 --count "${2:-10}" --backend cuda --json "${3:-/tmp/gpu-check-2p27.json}"
