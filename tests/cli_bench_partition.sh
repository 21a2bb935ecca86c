#!/usr/bin/env bash
# cli_bench_partition.sh — `cuzk-bench partition` on the CPU: 3 partitions of
# the 2^10 synthetic circuit; the table has every stage column, one row per
# partition and the medians, the summary lines are there, every proof
# verified; the JSON parses and holds the same facts (positive times that
# add up, 3 partitions, 3 verified; the witness sent as bits, smaller than
# the full one, and --witness full sends the full one); several workers and
# witness makers each prove every partition once; bad arguments are clear errors with
# exit 2, and a cuda backend that cannot open is one too.
set -u
CUZK_BENCH=${CUZK_BENCH:-build/bin/cuzk-bench}
T=$(mktemp -d /tmp/cuzk_cli_bp.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect_rc() { # want_rc description command...
    local want=$1 what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ "$rc" = "$want" ] || { bad "$what: exit $rc, want $want"; tail -n 5 "$T/out" "$T/err"; }
}

expect_rc 0 "partition K=10 N=3" "$CUZK_BENCH" partition --log2 10 --count 3 --backend cpu --threads 2 --json "$T/p.json" --seed 5
cp "$T/out" "$T/table"
grep -q "backend cpu, circuit 2^10 (1020 constraints" "$T/table" || bad "no header line: $(head -n 2 "$T/table")"
for col in part wall witness upload spmv ntt msm_h msm_l msm_hl msm_a msm_b1 msm_b2 total verify h2d_bytes \
           staged_bytes stage cpu; do
    head -n 2 "$T/table" | tail -n 1 | tr -s ' ' '\n' | grep -qx "$col" || bad "table lacks column $col"
done
for r in 0 1 2 median; do grep -q "^$r " "$T/table" || bad "table lacks row $r"; done
grep -q "^3 " "$T/table" && bad "table has a fourth partition"
for l in "synthesis:" "setup:" "load into backend:" "loop wall:" "busy:" "host->device:" "peak host RSS:" \
         "VRAM peak:" "CPU fallbacks:" "verified:           3 of 3 proofs" "witness:            bits, "; do
    grep -qF "$l" "$T/table" || bad "summary lacks '$l'"
done
grep -q "partition 3/3" "$T/err" || bad "no progress lines on stderr"

if [ -s "$T/p.json" ]; then
    python3 - "$T/p.json" <<'PY' || bad "the JSON does not hold what it should"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "cuzk-bench-partition/1", d["schema"]
assert d["backend"] == "cpu" and d["log2"] == 10 and d["count"] == 3 and d["seed"] == 5, d
assert d["constraints"] == 1020 and d["n_vars"] > 4 and d["verified"] == 3, d
for k in ("synthesis_ms", "setup_ms", "load_ms", "loop_wall_ms", "busy_pct", "peak_rss_bytes"):
    assert d[k] >= 0, k
assert d["setup_ms"] > 0 and d["loop_wall_ms"] > 0 and d["peak_rss_bytes"] > 0, d
assert 0 < d["busy_pct"] <= 100, d["busy_pct"]
assert d["vram_peak_bytes"] == 0 and d["h2d_bytes_per_partition"] == 0 and d["cpu_fallbacks"] == 0, d
parts = d["partitions"]
assert [p["index"] for p in parts] == [0, 1, 2], parts
stages = ["upload_ms", "spmv_ms", "ntt_ms", "msm_h_ms", "msm_l_ms", "msm_hl_ms", "msm_a_ms", "msm_b1_ms",
          "msm_b2_ms"]
for p in parts:
    assert p["on_cpu"] is False and p["h2d_bytes"] == 0, p
    assert p["stage"] == "-" and p["staged_bytes"] == 0, p
    assert p["total_ms"] > 0 and p["wall_ms"] >= p["total_ms"] * 0.99, p
    assert p["msm_hl_ms"] > 0 and p["ntt_ms"] > 0 and p["upload_ms"] == 0, p
    assert sum(p[s] for s in stages if s not in ("msm_h_ms", "msm_l_ms")) <= p["total_ms"] * 1.01, p
    assert p["witness_ms"] > 0 and p["verify_ms"] > 0, p
busy = sum(p["total_ms"] for p in parts) / d["loop_wall_ms"] * 100
assert abs(busy - d["busy_pct"]) < 0.1, (busy, d["busy_pct"])
dev = sum(sum(p[s] for s in stages if s not in ("upload_ms", "msm_h_ms", "msm_l_ms")) for p in parts)
assert abs(dev / d["loop_wall_ms"] * 100 - d["device_busy_pct"]) < 0.1, d["device_busy_pct"]
assert d["device_busy_pct"] <= d["device_busy_fed_pct"] <= 100, d["device_busy_fed_pct"]
assert d["workers"] == 1 and d["makers"] == 1 and d["setup"] == "cpu-insecure", d
# bits as bits by default: the compact witness is smaller than the full one
assert d["witness"] == "bits" and 0 < d["bit_vars"] < d["n_vars"], d
assert 0 < d["witness_bytes"] < d["full_witness_bytes"] == d["n_vars"] * 32, d
med = d["median"]
for k in ["wall_ms", "total_ms"] + stages:
    assert med[k] == sorted(p[k] for p in parts)[1], k
PY
else
    bad "no JSON written"
fi

# several workers and witness makers: every partition made, proved once
# and verified, whichever thread got it (fewer makers than workers, more,
# and more partitions than the buffers)
for wm in "3 1" "1 3" "2 4"; do
    set -- $wm
    expect_rc 0 "partition K=9 N=7 on $1 workers, $2 makers" "$CUZK_BENCH" partition --log2 9 --count 7 --backend cpu \
        --threads 1 --workers "$1" --makers "$2" --json "$T/w.json"
    grep -qF "verified:           7 of 7 proofs" "$T/out" || bad "$1 workers, $2 makers: not 7 of 7 verified"
    grep -qF "$2 witness makers, $1 proving workers, $(($1 + $2)) witness buffers" "$T/err" ||
        bad "$1 workers, $2 makers: no loop line: $(grep makers "$T/err")"
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); w, m = int(sys.argv[2]), int(sys.argv[3]); \
        assert d["workers"] == w and d["makers"] == m and d["verified"] == 7, d; \
        assert sorted(p["index"] for p in d["partitions"]) == list(range(7)), d; \
        assert all(p["witness_ms"] > 0 and p["total_ms"] > 0 for p in d["partitions"]), d' "$T/w.json" "$1" "$2" ||
        bad "$1 workers, $2 makers: JSON"
done
expect_rc 2 "--workers 0" "$CUZK_BENCH" partition --log2 10 --count 1 --workers 0
grep -q "bad --workers '0'" "$T/err" || bad "--workers 0: $(cat "$T/err")"
expect_rc 2 "--makers 0" "$CUZK_BENCH" partition --log2 10 --count 1 --makers 0
grep -q "bad --makers '0'" "$T/err" || bad "--makers 0: $(cat "$T/err")"
expect_rc 2 "--makers 17" "$CUZK_BENCH" partition --log2 10 --count 1 --makers 17
grep -q "bad --makers '17'" "$T/err" || bad "--makers 17: $(cat "$T/err")"
expect_rc 2 "--setup x" "$CUZK_BENCH" partition --log2 10 --count 1 --setup x
grep -q "bad --setup 'x'" "$T/err" || bad "--setup x: $(cat "$T/err")"

# --witness full: the full Fr witness, the same proofs verified
expect_rc 0 "partition K=9 N=2 --witness full" "$CUZK_BENCH" partition --log2 9 --count 2 --backend cpu --threads 1 \
    --witness full --json "$T/f.json"
grep -qF "verified:           2 of 2 proofs" "$T/out" || bad "--witness full: not 2 of 2 verified"
grep -q "^witness: *full" "$T/out" || bad "--witness full: no witness line"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["witness"] == "full" and d["bit_vars"] == 0 and \
    d["witness_bytes"] == d["full_witness_bytes"] == d["n_vars"] * 32, d' "$T/f.json" || bad "--witness full: JSON"
expect_rc 2 "--witness x" "$CUZK_BENCH" partition --log2 10 --count 1 --witness x
grep -q "bad --witness 'x'" "$T/err" || bad "--witness x: $(cat "$T/err")"

# bad arguments: a message naming the problem, exit 2
expect_rc 2 "no --log2" "$CUZK_BENCH" partition --count 3
grep -q -- "--log2 K is required" "$T/err" || bad "missing --log2: $(cat "$T/err")"
expect_rc 2 "no --count" "$CUZK_BENCH" partition --log2 10
grep -q -- "--count N is required" "$T/err" || bad "missing --count: $(cat "$T/err")"
expect_rc 2 "--log2 x" "$CUZK_BENCH" partition --log2 x --count 3
grep -q "bad --log2 'x'" "$T/err" || bad "--log2 x: $(cat "$T/err")"
expect_rc 2 "--log2 4" "$CUZK_BENCH" partition --log2 4 --count 3
grep -q "bad --log2 '4'" "$T/err" || bad "--log2 4: $(cat "$T/err")"
expect_rc 2 "--count 0" "$CUZK_BENCH" partition --log2 10 --count 0
grep -q "bad --count '0'" "$T/err" || bad "--count 0: $(cat "$T/err")"
expect_rc 2 "--backend gpu" "$CUZK_BENCH" partition --log2 10 --count 1 --backend gpu
grep -q "expected cpu, cuda or auto" "$T/err" || bad "--backend gpu: $(cat "$T/err")"
expect_rc 2 "unknown option" "$CUZK_BENCH" partition --log2 10 --count 1 --bogus
grep -q "unknown argument '--bogus'" "$T/err" || bad "--bogus: $(cat "$T/err")"
expect_rc 2 "value missing" "$CUZK_BENCH" partition --log2 10 --count
grep -q -- "--count needs a value" "$T/err" || bad "--count without a value: $(cat "$T/err")"
# a JSON that cannot be written is refused before the work (exit 2)
expect_rc 2 "unwritable JSON" "$CUZK_BENCH" partition --log2 6 --count 1 --backend cpu --json "$T/no/such/dir/p.json"
grep -q "cannot write $T/no/such/dir/p.json" "$T/err" || bad "unwritable JSON: $(cat "$T/err")"
grep -q "median" "$T/out" && bad "unwritable JSON: proved first"
# cuda: proves where a device is, else a clear error
"$CUZK_BENCH" partition --log2 8 --count 1 --backend cuda >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" != 0 ]; then
    [ "$rc" = 2 ] && grep -q "backend cuda" "$T/err" || bad "--backend cuda that cannot open: exit $rc, $(cat "$T/err")"
    echo "--backend cuda here: $(tail -n 1 "$T/err")"
fi

[ "$fail" = 0 ] && echo "cli_bench_partition: all passed"
exit "$fail"
