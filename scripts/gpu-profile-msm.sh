#!/bin/bash
# gpu-profile-msm.sh — where one device MSM's time goes, kernel by kernel:
# Nsight Compute times every kernel of cuzk-cuda-msm-bench at one size
# (one warm-up call and REPS timed calls, nothing else on the device: the
# bench makes its bases on the host), and the table sums them by kernel
# and divides by the calls.
#
#   scripts/gpu-profile-msm.sh BUILD_DIR g1|fc|g2 LOG2 [REPS]
#
# g1: random scalars, fc: Filecoin-shaped (G1), g2: random scalars on G2.
# REPS (default 1) timed calls after the warm-up. Prints, per kernel (its
# name without template arguments or parameters), the launches a call, the
# ms a call and the share of the total, largest first, then the total
# against the bench's own median from a run without ncu (ncu runs the
# kernels one at a time, with nothing overlapping, so the sum can exceed
# that wall).
#
# ncu reads kernel times only where the machine lets it read the GPU's
# counters (docs/GPU_PROVER.md, "How to debug"); it runs with
# --clock-control none, so the clocks are the ones the benchmarks see.
# The table is parsed from `ncu --import REPORT --csv --page raw` by
# scripts/ncu-kernels.py, which tests/cli_ncu_kernels.sh checks on CSVs
# in that layout (header row, units row, a row a kernel launch).
set -uo pipefail
build=${1:?usage: gpu-profile-msm.sh BUILD_DIR g1|fc|g2 LOG2 [REPS]}
what=${2:?usage: gpu-profile-msm.sh BUILD_DIR g1|fc|g2 LOG2 [REPS]}
lg=${3:?usage: gpu-profile-msm.sh BUILD_DIR g1|fc|g2 LOG2 [REPS]}
reps=${4:-1}
here=$(cd "$(dirname "$0")" && pwd)
case "$what" in
    g1) args=(--sizes "$lg" --fc-sizes none --g2-sizes none) ;;
    fc) args=(--sizes none --fc-sizes "$lg" --g2-sizes none) ;;
    g2) args=(--sizes none --fc-sizes none --g2-sizes "$lg") ;;
    *) echo "gpu-profile-msm.sh: what is g1, fc or g2, not '$what'" >&2; exit 2 ;;
esac
[[ "$lg" =~ ^[0-9]+$ && "$reps" =~ ^[0-9]+$ && "$reps" -ge 1 ]] ||
    { echo "gpu-profile-msm.sh: LOG2 and REPS are numbers (REPS >= 1)" >&2; exit 2; }
bench=$build/bin/cuzk-cuda-msm-bench
[ -x "$bench" ] || { echo "gpu-profile-msm.sh: no $bench (build it first)" >&2; exit 2; }
command -v ncu >/dev/null || { echo "gpu-profile-msm.sh: ncu (Nsight Compute) is not on the PATH" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the bench's own median from a run without the profiler (under ncu every
# kernel is replayed and serialised, so its wall means nothing)
"$bench" "${args[@]}" --reps 3 >"$tmp/plain.out" 2>&1 ||
    { echo "gpu-profile-msm.sh: the bench failed:"; tail -5 "$tmp/plain.out"; exit 1; }
ncu --clock-control none --metrics gpu__time_duration.sum -f -o "$tmp/report" \
    "$bench" "${args[@]}" --reps "$reps" >"$tmp/bench.out" 2>"$tmp/ncu.err" ||
    { echo "gpu-profile-msm.sh: ncu failed:"; tail -20 "$tmp/ncu.err"; tail -5 "$tmp/bench.out"; exit 1; }
ncu --import "$tmp/report.ncu-rep" --csv --page raw --print-units base >"$tmp/report.csv" 2>"$tmp/imp.err" ||
    { echo "gpu-profile-msm.sh: ncu --import failed:"; tail -20 "$tmp/imp.err"; exit 1; }
median=$(awk '/^msm +n +ms/ { t = 1; next } t && NF >= 3 { print $3; exit }' "$tmp/plain.out")
echo "== one $what MSM of 2^$lg, kernel by kernel (ncu, $((reps + 1)) calls; the bench's own median ${median:-?} ms)"
python3 "$here/ncu-kernels.py" "$tmp/report.csv" $((reps + 1)) "${median:-0}"
