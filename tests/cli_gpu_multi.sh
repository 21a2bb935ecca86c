#!/usr/bin/env bash
# cli_gpu_multi.sh — scripts/gpu-multi-bench.sh on a stand-in for
# gpu-daemon-bench.sh (no GPU, no daemon): each device count's run prints
# the summary lines the real script prints, and the table must hold the
# proofs completed, seconds a proof, the speedup over one device, the goal
# met or missed (2 devices >= 1.9x, 4 >= 3.7x) and every device's busy %;
# a count that completes fewer proofs than asked makes it exit 1, bad
# arguments exit 2.
set -u
SRC=${SRC:-.}
T=$(mktemp -d /tmp/cuzk_cli_gpu_multi.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# the stand-in: seconds a proof by device count from FAKE_WALL_<k>, the
# proofs completed short by FAKE_SHORT_<k>; devices from DEVICES (or
# DEVICE_COPIES slots of device 0, as SIM=1 asks)
cat >"$T/daemon-bench.sh" <<'EOF'
#!/usr/bin/env bash
proofs=$3
if [ "${DEVICES:-0}" = 0 ] && [ "${DEVICE_COPIES:-1}" -gt 1 ]; then k=$DEVICE_COPIES
else k=$(tr ',' '\n' <<<"$DEVICES" | grep -c .); fi
wall_var=FAKE_WALL_$k short_var=FAKE_SHORT_$k
done_=$((proofs - ${!short_var:-0}))
echo "== gpu-daemon-bench (stand-in): $proofs proofs, -j $5, devices [$DEVICES] x ${DEVICE_COPIES:-1}"
echo "proofs completed:        $done_ of $proofs ($((done_ * $4)) partitions with a GPU_END, 0 on the CPU)"
echo "GPU busy (waterfall):    99.0 % of the busy window (1000 ms), goal >= 90 %"
for ((d = 0; d < k; d++)); do
    printf "device slot %s:           %s partitions, busy %s of the window\n" "$d" $((done_ * $4 / k)) "9$((9 - d)).5%"
done
printf "wall (cuzk-bench batch):           %s s per proof\n" "${!wall_var}"
EOF
chmod +x "$T/daemon-bench.sh"

run() { # run OUTDIR [ENV...]: the script's summary into OUTDIR/summary.txt, its status echoed
    local out=$1
    shift
    env "$@" GPU_MULTI_DAEMON_BENCH="$T/daemon-bench.sh" OUT="$out" PROOFS_PER_DEVICE=3 \
        bash "$SRC/scripts/gpu-multi-bench.sh" "$T/build" 20 4 >"$out.log" 2>&1
    echo $?
}
row() { awk -v k="$2" '$1 == k' "$1/summary.txt"; }

# 1, 2 and 4 devices: 2.00, 1.00 and 0.5714 s a proof
rc=$(run "$T/a" COUNTS="1 2 4" FAKE_WALL_1=2.00 FAKE_WALL_2=1.00 FAKE_WALL_4=0.5714)
[ "$rc" = 0 ] || bad "every proof completed, yet exit $rc"
[ -s "$T/a/summary.txt" ] || bad "no summary.txt"
r1=$(row "$T/a" 1) r2=$(row "$T/a" 2) r4=$(row "$T/a" 4)
grep -q '^1 *3/3 *2.00 *30.00 *1.00x *- *99.5%$' <<<"$r1" || bad "1-device row: '$r1'"
grep -q '^2 *6/6 *1.00 *60.00 *2.00x *1.9x met *99.5% / 98.5%$' <<<"$r2" || bad "2-device row: '$r2'"
grep -q '^4 *12/12 *0.57 *105.0[0-9] *3.50x *3.7x missed *99.5% / 98.5% / 97.5% / 96.5%$' <<<"$r4" ||
    bad "4-device row: '$r4'"
# each count ran with its own device list, jobs and proofs
grep -q 'devices \[0, 1, 2, 3\] x 1' "$T/a/k4/run.txt" || bad "k4 did not get devices 0..3: $(head -1 "$T/a/k4/run.txt")"
grep -q '12 proofs, -j 8' "$T/a/k4/run.txt" || bad "k4 did not get 12 proofs and -j 8"

# a count short of proofs: exit 1, the row says so
rc=$(run "$T/b" COUNTS="1 2" FAKE_WALL_1=2.00 FAKE_WALL_2=1.10 FAKE_SHORT_2=1)
[ "$rc" = 1 ] || bad "a proof missing, yet exit $rc"
grep -q '^2 *5/6 *1.10 *54.55 *1.82x *1.9x missed' <<<"$(row "$T/b" 2)" || bad "short 2-device row: '$(row "$T/b" 2)'"

# SIM=1: one GPU as k slots (device_copies), no goal verdict expected to be met
rc=$(run "$T/c" SIM=1 COUNTS="1 2" FAKE_WALL_1=2.00 FAKE_WALL_2=2.00)
[ "$rc" = 0 ] || bad "SIM run exit $rc"
grep -q 'devices \[0\] x 2' "$T/c/k2/run.txt" || bad "SIM k2 did not get two copies of device 0"
grep -q '^2 *6/6 *2.00 *30.00 *1.00x *1.9x missed' <<<"$(row "$T/c" 2)" || bad "SIM 2-slot row: '$(row "$T/c" 2)'"

# bad arguments
bash "$SRC/scripts/gpu-multi-bench.sh" >/dev/null 2>&1
[ $? = 2 ] || bad "no build dir should exit 2"
bash "$SRC/scripts/gpu-multi-bench.sh" "$T/build" 2x >/dev/null 2>&1
[ $? = 2 ] || bad "LOG2 2x should exit 2"

if [ "$fail" = 0 ]; then echo "cli_gpu_multi: ok"; else cat "$T"/*.log; exit 1; fi
