#!/usr/bin/env bash
# gpu-daemon-bench.sh — the daemon's throughput on one GPU, end to end:
# synthetic partitions through cuzk-daemon (CUDA backend), the TIMELINE
# waterfall of the run, and the GPU's share of the wall time.
#
#   scripts/gpu-daemon-bench.sh BUILD_DIR [LOG2] [PROOFS] [PARTITIONS] [JOBS]
#                                          defaults 26     10       10       4
#
# Steps:
#  1. checks that BUILD_DIR/bin/cuzk-daemon and cuzk-bench find their shared
#     libraries (gRPC, protobuf-c, ssl): where they are not installed, put
#     copies of what `ldd` names in a folder and pass it in LD_LIBRARY_PATH;
#  2. starts cuzk-daemon with backend cuda on a temporary unix socket,
#     state_dir = "" (no journal), its log (TIMELINE lines) in OUT/daemon.log;
#  3. preloads synth-LOG2-PARTITIONS (`cuzk-bench preload`: the circuit is
#     synthesized and its key made on the GPU, no host copy of its points);
#  4. runs `cuzk-bench batch -t synth --circuit-id synth-LOG2-PARTITIONS
#     -c PROOFS -j JOBS` (every proof verified by the daemon), then stops the
#     daemon with SIGTERM;
#  5. `cuzk-bench waterfall` on the log: OUT/waterfall.svg, its table in
#     OUT/waterfall.txt, OUT/waterfall.json;
#  6. prints the GPU busy % (the waterfall's, over the busy window), the
#     stage p50s, and the sum of the device times (each partition's GPU_END
#     device_ms, the device's wall; where it has none, spmv + ntt + every
#     MSM; upload excluded: it overlaps on its own stream) per proof against
#     the wall time per proof of the batch; the
#     ratio wall / GPU sum is what "throughput within 10 % of the sum of the
#     GPU stage times" reads (<= 1.10).
#
# Environment (all optional):
#   OUT                 where the files go (default BUILD_DIR/gpu-daemon-bench)
#   DEVICE              CUDA device (default 0)
#   DEVICES             the TOML list's items for [gpus] devices, e.g. "0, 1"
#                       (default DEVICE): every listed GPU proves
#   DEVICE_COPIES       [gpus] device_copies (default 1): each device opened
#                       as that many device slots (the multi-device paths
#                       on one GPU; they share its memory)
#   SYNTH_CONCURRENCY   synthesis workers ([pipeline] synthesis_concurrency,
#                       default 8: one 2^26 witness takes a core several
#                       times as long as its partition takes the GPU)
#   GPU_WORKERS         proving workers ([gpus] gpu_workers_per_device, default 2)
#   QUEUE_DEPTH         [pipeline] max_gpu_queue_depth (default 0: the daemon's)
#   BUDGET              [memory] total_budget (default "auto")
#   SYNTH_CPU_SETUP=1   the key from the CPU setup instead (minutes at 2^26)
#   BACKEND             [gpus] backend (default cuda; cpu with a small LOG2
#                       tries the script itself on a machine without a GPU)
# Exit status: 0 when every proof completed and the daemon stopped cleanly;
# 1 otherwise; 2 for bad arguments or missing binaries.
set -u
BUILD=${1:-}
LOG2=${2:-26}
PROOFS=${3:-10}
PARTS=${4:-10}
JOBS=${5:-4}
if [ -z "$BUILD" ] || [ "$#" -gt 5 ]; then
    echo "usage: $0 BUILD_DIR [LOG2 26] [PROOFS 10] [PARTITIONS 10] [JOBS 4]" >&2
    exit 2
fi
for v in "$LOG2" "$PROOFS" "$PARTS" "$JOBS"; do
    case "$v" in '' | *[!0-9]*) echo "$0: '$v' is not a positive integer" >&2; exit 2 ;; esac
done
DAEMON="$BUILD/bin/cuzk-daemon"
BENCH="$BUILD/bin/cuzk-bench"
for b in "$DAEMON" "$BENCH"; do
    [ -x "$b" ] || { echo "$0: $b not found (build cuzk-daemon and cuzk-bench in $BUILD)" >&2; exit 2; }
    if command -v ldd > /dev/null && missing=$(ldd "$b" 2>&1 | grep "not found"); then
        echo "$0: $b cannot find its shared libraries:" >&2
        echo "$missing" >&2
        echo "copy them (ldd on the build machine names them) into a folder and run with" \
             "LD_LIBRARY_PATH=/that/folder (now: '${LD_LIBRARY_PATH:-}')" >&2
        exit 2
    fi
done
CID="synth-$LOG2-$PARTS"
OUT=${OUT:-$BUILD/gpu-daemon-bench}
mkdir -p "$OUT" || exit 2
LOG="$OUT/daemon.log"
TMP=$(mktemp -d /tmp/cuzk-gpu-bench.XXXXXX) || exit 2
SOCK="$TMP/cuzk.sock"
ADDR="unix://$SOCK"
cat > "$TMP/cuzk.toml" <<EOF
[daemon]
listen = "$ADDR"
state_dir = ""
shutdown_timeout = "120s"
[srs]
param_cache = "$TMP"
[memory]
total_budget = "${BUDGET:-auto}"
[gpus]
backend = "${BACKEND:-cuda}"
devices = [${DEVICES:-${DEVICE:-0}}]
device_copies = ${DEVICE_COPIES:-1}
gpu_workers_per_device = ${GPU_WORKERS:-2}
synth_cpu_setup = $([ "${SYNTH_CPU_SETUP:-0}" = 1 ] && echo true || echo false)
[pipeline]
synthesis_concurrency = ${SYNTH_CONCURRENCY:-8}
max_gpu_queue_depth = ${QUEUE_DEPTH:-0}
EOF
echo "== gpu-daemon-bench: $PROOFS proofs of $PARTS partitions of 2^$LOG2 ($CID), -j $JOBS; files in $OUT"
echo "== config ($TMP/cuzk.toml):"
sed 's/^/   /' "$TMP/cuzk.toml"
command -v nvidia-smi > /dev/null &&
    nvidia-smi --query-gpu=name,clocks.sm,memory.total,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/   GPU: /'
git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null | sed 's/^/   commit: /'

"$DAEMON" -c "$TMP/cuzk.toml" > "$TMP/ready" 2> "$LOG" &
PID=$!
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    kill -TERM "$PID" 2> /dev/null && wait "$PID" 2> /dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
for _ in $(seq 600); do
    grep -q ready "$TMP/ready" 2> /dev/null && break
    if ! kill -0 "$PID" 2> /dev/null; then
        echo "== cuzk-daemon did not start; its log:" >&2
        tail -n 30 "$LOG" >&2
        exit 1
    fi
    sleep 0.1
done
grep -q ready "$TMP/ready" || { echo "== cuzk-daemon not ready after 60 s" >&2; tail -n 30 "$LOG" >&2; exit 1; }
sed 's/^/   /' "$TMP/ready"
rc=0

echo "== preload $CID (synthesis of the circuit, then its key)"
t0=$(date +%s%N)
"$BENCH" preload -a "$ADDR" "$CID" || { echo "== preload failed; the daemon's log:" >&2; tail -n 30 "$LOG" >&2; exit 1; }
echo "   preload wall: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
grep -E "key made on|key copied|no CPU fallback|warning" "$LOG" | grep -v '^TIMELINE' | sed 's/^/   daemon: /'

echo "== cuzk-bench batch -t synth --circuit-id $CID -c $PROOFS -j $JOBS"
"$BENCH" batch -a "$ADDR" -t synth --circuit-id "$CID" -c "$PROOFS" -j "$JOBS" | tee "$OUT/batch.txt" || rc=1
"$BENCH" status -a "$ADDR" > "$OUT/status.txt" 2>&1 || true
kill -TERM "$PID"
if wait "$PID"; then
    echo "== cuzk-daemon stopped (exit 0); $(grep -c 'TIMELINE,' "$LOG") TIMELINE lines in $LOG"
else
    echo "== cuzk-daemon exited with an error"
    rc=1
fi
trap - EXIT
rm -rf "$TMP"

echo "== cuzk-bench waterfall"
if ! "$BENCH" waterfall "$LOG" --svg "$OUT/waterfall.svg" --json "$OUT/waterfall.json" > "$OUT/waterfall.txt" 2>&1; then
    echo "== waterfall failed:" >&2
    cat "$OUT/waterfall.txt" >&2
    exit 1
fi
cat "$OUT/waterfall.txt"

echo "== summary"
busy=$(sed -n 's/^  overall    busy .*(\([0-9.]*\)%).*/\1/p' "$OUT/waterfall.txt")
window=$(sed -n 's/^GPU busy window: .*(\([0-9.]*\) ms)$/\1/p' "$OUT/waterfall.txt")
wall=$(sed -n 's/^throughput: .*(\([0-9.]*\) s\/proof)$/\1/p' "$OUT/batch.txt")
completed=$(sed -n 's/^total: .* completed \([0-9]*\), failed.*/\1/p' "$OUT/batch.txt")
# the device time of every partition, from its GPU_END (ms): its device_ms
# (the device's wall, first kernel to last sum) where it has one above 0,
# else the sum of its spmv, ntt and MSM stages (the same on one stream)
read -r nparts dev_ms total_ms cpu_parts < <(awk '
    /TIMELINE,/ && /,GPU_END,/ {
        n++; d = 0; w = 0; t = 0; c = 0
        k = split($0, f, ",")
        for (i = 1; i <= k; i++) {
            split(f[i], kv, "=")
            if (kv[1] == "spmv_ms" || kv[1] == "ntt_ms" || kv[1] == "msm_ms") d += kv[2]
            if (kv[1] == "device_ms") w = kv[2]
            if (kv[1] == "total_ms") t += kv[2]
            if (kv[1] == "cpu" && kv[2] == 1) c = 1
        }
        D += w > 0 ? w : d; T += t; C += c
    }
    END { printf "%d %.0f %.0f %d\n", n, D, T, C }' "$LOG")
echo "proofs completed:        ${completed:-0} of $PROOFS ($nparts partitions with a GPU_END, $cpu_parts on the CPU)"
echo "GPU busy (waterfall):    ${busy:-?} % of the busy window (${window:-?} ms), goal >= 90 %"
# per device slot (the waterfall's device table): partitions and busy %
awk '/^  device workers partitions/ { on = 1; next }
     on && /^  +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+%$/ {
         printf "device slot %s:           %s partitions, busy %s of the window\n", $1, $3, $5; next }
     { on = 0 }' "$OUT/waterfall.txt"
echo "stage p50s (ms):"
grep -E '^(synthesis|queue wait|gpu prep|gpu|gpu\.(upload|spmv|ntt|msm|msm_h|msm_l|msm_hl|msm_a|msm_b1|msm_b2|total|verify|device)_ms) ' \
    "$OUT/waterfall.txt" | awk '{ name = $1; for (i = 2; i < NF - 5; i++) name = name " " $i; printf "   %-20s %s\n", name, $(NF - 4) }'
if [ -n "$wall" ] && [ "${completed:-0}" -gt 0 ] && [ "$nparts" -gt 0 ]; then
    awk -v dev="$dev_ms" -v tot="$total_ms" -v n="$nparts" -v proofs="$completed" -v wall="$wall" -v win="${window:-0}" '
    BEGIN {
        g = dev / 1000 / proofs
        printf "device time (device_ms, else stages): %.0f ms over %d partitions = %.2f s per proof (%.1f ms a partition)\n", dev, n, g, dev / n
        printf "backend total_ms:                  %.0f ms = %.2f s per proof\n", tot, tot / 1000 / proofs
        if (win > 0) printf "device time over the busy window:   %.1f %%\n", 100 * dev / win
        printf "wall (cuzk-bench batch):           %.2f s per proof\n", wall
        r = wall / g
        printf "wall / device time:                %.3f (goal <= 1.10: %s)\n", r, r <= 1.10 ? "met" : "missed"
    }'
else
    echo "no throughput to compare (no proof completed)"
    rc=1
fi
echo "== files: $OUT/waterfall.svg (copy it to docs/), waterfall.txt, waterfall.json, batch.txt, status.txt, daemon.log"
exit $rc
