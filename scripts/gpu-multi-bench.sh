#!/usr/bin/env bash
# gpu-multi-bench.sh — the daemon on several GPUs of one host: throughput per
# GPU count, GPU busy % per device, every proof verified.
#
#   scripts/gpu-multi-bench.sh BUILD_DIR [LOG2 26] [PARTITIONS 10]
#
# For each device count k of COUNTS, runs scripts/gpu-daemon-bench.sh with
# [gpus] devices = [0 .. k-1] (one daemon per count, its own key copy on
# every device), PROOFS_PER_DEVICE * k proofs of PARTITIONS synthetic 2^LOG2
# partitions, 2k of them in flight, synthesis sized to k; every proof is
# verified by the daemon before it is returned (a proof that fails is a
# failed job, counted below). Then one table: devices, proofs completed,
# wall seconds per proof, proofs per minute, the speedup over one device
# (when COUNTS has 1),
# and each device's busy % of the busy window (the waterfall's device
# table, from the TIMELINE's GPU_START/GPU_END and GPU_END's device=). Goals:
# 2 devices >= 1.9x one, 4 devices >= 3.7x.
#
# Environment (all optional):
#   COUNTS             device counts to run (default: 1 2 4 8, those up to
#                      the GPUs that nvidia-smi lists)
#   SIM=1              one GPU opened as k device slots ([gpus]
#                      device_copies = k on device 0): runs the multi-device
#                      code paths where only one GPU exists; the slots share
#                      the GPU, so no speedup is expected (COUNTS default 1 2)
#   PROOFS_PER_DEVICE  proofs per device count and device (default 5)
#   GPU_WORKERS        proving workers per device slot (default 2; 1 with SIM)
#   OUT                where the files go (default BUILD_DIR/gpu-multi-bench),
#                      one folder per count (k1, k2, ...) and summary.txt
#   GPU_MULTI_DAEMON_BENCH  the script run for each count (default
#                      scripts/gpu-daemon-bench.sh; tests/cli_gpu_multi.sh
#                      gives a stand-in, to check this script's table)
# NCCL is not used (partitions are independent); NVLink multicast stays off.
# Exit status: 0 when every run completed all its proofs; 1 otherwise; 2 for
# bad arguments.
set -u
BUILD=${1:-}
LOG2=${2:-26}
PARTS=${3:-10}
if [ -z "$BUILD" ] || [ "$#" -gt 3 ]; then
    echo "usage: $0 BUILD_DIR [LOG2 26] [PARTITIONS 10]" >&2
    exit 2
fi
for v in "$LOG2" "$PARTS" "${PROOFS_PER_DEVICE:-5}"; do
    case "$v" in '' | *[!0-9]*) echo "$0: '$v' is not a positive integer" >&2; exit 2 ;; esac
done
export NCCL_NVLS_ENABLE=0
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$BUILD/gpu-multi-bench}
mkdir -p "$OUT" || exit 2
SIM=${SIM:-0}
ngpu=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU ')
if [ -z "${COUNTS:-}" ]; then
    if [ "$SIM" = 1 ]; then
        COUNTS="1 2"
    else
        COUNTS=""
        for k in 1 2 4 8; do [ "$k" -le "${ngpu:-0}" ] && COUNTS="$COUNTS $k"; done
    fi
fi
[ -n "${COUNTS// /}" ] || { echo "$0: no GPU found (nvidia-smi lists none); SIM=1 runs on one" >&2; exit 2; }
echo "== gpu-multi-bench: 2^$LOG2 x $PARTS partitions a proof, counts:$COUNTS, ${ngpu:-0} GPU(s) found$([ "$SIM" = 1 ] && echo ", SIM: one GPU as k slots")"
nproc_=$(nproc)
rc=0
rows=""
base=""
for k in $COUNTS; do
    proofs=$(( ${PROOFS_PER_DEVICE:-5} * k ))
    synth=$(( 8 * k < nproc_ ? 8 * k : nproc_ ))
    if [ "$SIM" = 1 ]; then
        devices=0
        copies=$k
        workers=${GPU_WORKERS:-1}
    else
        devices=$(seq -s ', ' 0 $((k - 1)))
        copies=1
        workers=${GPU_WORKERS:-2}
    fi
    dir="$OUT/k$k"
    mkdir -p "$dir"
    echo "== $k device(s): devices = [$devices], device_copies = $copies, $proofs proofs, -j $((2 * k))"
    OUT="$dir" DEVICES="$devices" DEVICE_COPIES="$copies" GPU_WORKERS="$workers" SYNTH_CONCURRENCY="$synth" \
        "${GPU_MULTI_DAEMON_BENCH:-$HERE/gpu-daemon-bench.sh}" "$BUILD" "$LOG2" "$proofs" "$PARTS" $((2 * k)) \
        > "$dir/run.txt" 2>&1 || rc=1
    grep -E '^(proofs completed|GPU busy|device slot|wall|device stages)' "$dir/run.txt" | sed 's/^/   /'
    completed=$(sed -n 's/^proofs completed: *\([0-9]*\) of.*/\1/p' "$dir/run.txt")
    wall=$(sed -n 's/^wall (cuzk-bench batch): *\([0-9.]*\) s per proof/\1/p' "$dir/run.txt")
    busy=$(awk '/^device slot/ { for (i = 1; i <= NF; i++) if ($i == "busy") b = b (b ? " / " : "") $(i + 1) }
                END { print b }' "$dir/run.txt")
    [ "${completed:-0}" = "$proofs" ] || rc=1
    if [ -n "$wall" ]; then
        [ "$k" = 1 ] && base=$(awk -v w="$wall" 'BEGIN { printf "%.6f", 60 / w }') # the speedups' reference
        rows="$rows$k ${completed:-0} $proofs $wall ${base:-0} ${busy:-?}"$'\n'
    else
        rows="$rows$k ${completed:-0} $proofs - - -"$'\n'
    fi
done
{
    echo "== summary (2^$LOG2 x $PARTS partitions a proof$([ "$SIM" = 1 ] && echo "; SIM: one GPU as k slots, no speedup expected"))"
    printf "%-8s %-12s %-12s %-12s %-9s %-6s %s\n" devices completed "s / proof" "proofs/min" speedup goal "busy % per device"
    printf '%s' "$rows" | while read -r k done_ all wall b busy; do
        [ -n "$k" ] || continue
        if [ "$wall" = - ]; then
            printf "%-8s %-12s %-12s %-12s %-9s %-6s %s\n" "$k" "$done_/$all" - - - - -
            continue
        fi
        awk -v k="$k" -v d="$done_/$all" -v w="$wall" -v b="$b" -v busy="$busy" 'BEGIN {
            t = 60 / w; s = b > 0 ? t / b : 0
            g = k == 2 ? "1.9x" : k == 4 ? "3.7x" : "-"
            ok = b <= 0 ? "" : k == 2 ? (s >= 1.9 ? " met" : " missed") : k == 4 ? (s >= 3.7 ? " met" : " missed") : ""
            sp = "-"
            if (b > 0) sp = sprintf("%.2fx", s)
            printf "%-8s %-12s %-12.2f %-12.2f %-9s %-6s %s\n", k, d, w, t, sp, g ok, busy }'
    done
} | tee "$OUT/summary.txt"
exit $rc
