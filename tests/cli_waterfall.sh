#!/usr/bin/env bash
# cli_waterfall.sh — `cuzk-bench waterfall` on logs whose statistics were
# worked out by hand (tests/data/waterfall/crafted.log and a log of two
# devices: the expected values are derived in the comments below), on a log
# of malformed lines, on a big generated log, and on bad invocations. The SVG must be well-formed XML with
# one bar per stage of each partition.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data="$SRC/tests/data/waterfall"
wfb() { "$CUZK_BENCH" waterfall "$@"; }

wfb "$data/crafted.log" --svg "$tmp/w.svg" --json "$tmp/w.json" >"$tmp/out" 2>&1 \
    || { echo "waterfall failed on crafted.log"; cat "$tmp/out"; fail=1; }

# crafted.log, by hand: synthesis 100 (A0), 200 (A1), 300 (B0), 230 (B1);
# queue wait 10, 0, 50, 180; gpu prep 10, 0, 10, 10; gpu 100, 100, 100, 200.
# Nearest rank over 4 values: p50 = 2nd, p90 = p99 = 4th smallest.
# Busy window 120..820 = 700 ms. Worker 0: [120,220] [460,560] = 200 ms
# (28.571 %), one gap of 240. Worker 1: [200,300] [620,820] = 300 ms
# (42.857 %), one gap of 320. Union: [120,300] [460,560] [620,820] = 480 ms
# (68.571 %), gaps 160 + 60. Queue: [100,110) [400,450) [430,610) (A1 is
# picked up at once): max 2, mean (10 + 50 + 180) / 820 = 0.293.
# Two proofs done (job-c never finishes) by 820 ms: 146.341 proofs/min.
check() { grep -qF -- "$1" "${2:-$tmp/out}" || { echo "report lacks: $1"; fail=1; }; }
check "synthesis                   4        200        300        300    207.500        300"
check "queue wait                  4         10        180        180         60        180"
check "gpu                         4        100        200        200        125        200"
check "gpu.ntt_ms                  2         30         40         40         35         40"
check "worker 0      2 partitions, busy 200 ms (28.6%), gaps 1 (total 240 ms, largest 240 ms)"
check "worker 1      2 partitions, busy 300 ms (42.9%), gaps 1 (total 320 ms, largest 320 ms)"
check "overall    busy 480 ms (68.6%)"
check "idle gaps (no worker busy): 2, total 220 ms, largest 160 ms"
check "queue depth: max 2, mean 0.293"
check "throughput: 2 proofs, 4 partitions in 820 ms: 146.341 proofs/min (0.410 s/proof)"
check "malformed: 0, unknown events: 1"
check "jobs: 3, partitions finished: 4, unfinished: 1, GPU workers: 2, synthesis slots: 2"
# no line has device=: no device table
grep -q device "$tmp/out" && { echo "crafted.log: a device table without device="; fail=1; }

if command -v python3 >/dev/null; then
  python3 - "$tmp/w.json" "$tmp/w.svg" <<'PY' || fail=1
import json, sys, xml.dom.minidom
d = json.load(open(sys.argv[1]))
s = d["stages"]
assert (s["synthesis"]["p50"], s["synthesis"]["p90"], s["synthesis"]["p99"]) == (200, 300, 300), s
assert (s["queue wait"]["p50"], s["queue wait"]["p90"]) == (10, 180), s
assert (s["gpu prep"]["p50"], s["gpu"]["p50"], s["gpu"]["p90"]) == (10, 100, 200), s
assert (s["gpu.msm_ms"]["p50"], s["gpu.msm_ms"]["n"]) == (50, 2), s
g = d["gpu"]
assert g["window_ms"] == [120, 820] and g["busy_ms"] == 480 and g["busy_pct"] == 68.571, g
assert g["gaps"] == {"count": 2, "total_ms": 220, "largest_ms": 160}, g
w = {x["worker"]: x for x in g["workers"]}
assert w[0]["busy_pct"] == 28.571 and w[1]["busy_pct"] == 42.857, w
assert w[0]["gaps"]["count"] == 1 and w[1]["gaps"]["largest_ms"] == 320, w
q = d["queue_depth"]
assert q["max"] == 2 and q["mean"] == 0.293, q
assert q["series"] == [[100, 1], [110, 0], [400, 1], [430, 2], [450, 1], [610, 0]], q
t = d["throughput"]
assert (t["proofs"], t["partitions"], t["span_ms"], t["proofs_per_min"]) == (2, 4, 820, 146.341), t
assert d["synthesis_slots"] == 2 and d["malformed"] == 0 and d["unknown_events"] == 1, d
assert d["devices"] == [], d["devices"]
svg = xml.dom.minidom.parse(sys.argv[2])
rects = svg.getElementsByTagName("rect")
bars = [r for r in rects if r.getElementsByTagName("title")]
assert len(bars) == 8, len(bars)  # 4 GPU bars + 4 synthesis bars
titles = sorted(b.getElementsByTagName("title")[0].firstChild.data for b in bars)
assert "job-b partition 1 gpu 200 ms" in titles, titles
assert "job-b partition 1 synthesis 230 ms" in titles, titles
PY
else
  [ "$(grep -c '<title>' "$tmp/w.svg")" = 8 ] || { echo "svg: expected 8 bars"; fail=1; }
  tail -n 1 "$tmp/w.svg" | grep -q '</svg>' || { echo "svg not closed"; fail=1; }
fi

# two devices, two workers each (worker numbers unique across devices). By
# hand: window = first GPU_START 100 .. last GPU_END 1300 = 1200 ms (job-b
# p3 never ends, so it has no bar). Device 0 (workers 0, 1): [100,400] and
# [300,600] overlap and merge into [100,600], plus [900,1300]: 500 + 400 =
# 900 ms = 0.900 s, 75.000 %, 3 partitions. Device 1 (workers 2, 3):
# [150,250] [200,350] [350,400] merge into [150,400] = 250 ms = 0.250 s,
# 20.833 %, idle from 400 to the window's end; 3 partitions (p2's GPU_END
# has no device=, its GPU_START's counts; p3 is unfinished and not one).
# Lines 17 and 18 have a device= that is not a non-negative integer.
cat >"$tmp/dev.log" <<'EOF'
TIMELINE,90,GPU_QUEUE,job-a,partition=0
TIMELINE,95,GPU_PICKUP,job-a,worker=0,device=0,partition=0
TIMELINE,100,GPU_START,job-a,worker=0,device=0,partition=0
TIMELINE,400,GPU_END,job-a,worker=0,device=0,partition=0,gpu_ms=300
TIMELINE,300,GPU_START,job-a,worker=1,device=0,partition=1
TIMELINE,600,GPU_END,job-a,worker=1,device=0,partition=1,gpu_ms=300
TIMELINE,900,GPU_START,job-a,worker=0,device=0,partition=2
TIMELINE,1300,GPU_END,job-a,worker=0,device=0,partition=2,gpu_ms=400
TIMELINE,150,GPU_START,job-b,worker=2,device=1,partition=0
TIMELINE,250,GPU_END,job-b,worker=2,device=1,partition=0,gpu_ms=100
TIMELINE,200,GPU_START,job-b,worker=3,device=1,partition=1
TIMELINE,350,GPU_END,job-b,worker=3,device=1,partition=1,gpu_ms=150
TIMELINE,345,GPU_PICKUP,job-b,worker=2,device=1,partition=2
TIMELINE,350,GPU_START,job-b,worker=2,device=1,partition=2
TIMELINE,400,GPU_END,job-b,worker=2,partition=2,gpu_ms=50
TIMELINE,700,GPU_START,job-b,worker=3,device=1,partition=3
TIMELINE,500,GPU_START,job-c,worker=3,device=x,partition=0
TIMELINE,500,GPU_END,job-c,worker=3,device=-1,partition=0
EOF
wfb "$tmp/dev.log" --svg "$tmp/dev.svg" --json "$tmp/dev.json" >"$tmp/dout" 2>&1 \
    || { echo "waterfall failed on dev.log"; cat "$tmp/dout"; fail=1; }
check "GPU busy window: 100 .. 1300 ms (1200 ms)" "$tmp/dout"
check "  device workers partitions   busy s  busy %" "$tmp/dout"
check "       0       2          3    0.900   75.0%" "$tmp/dout"
check "       1       2          3    0.250   20.8%" "$tmp/dout"
check "malformed: 2," "$tmp/dout"
check "malformed line 17: device is not a non-negative integer" "$tmp/dout"
check "malformed line 18: device is not a non-negative integer" "$tmp/dout"
check "jobs: 2, partitions finished: 6, unfinished: 1, GPU workers: 4" "$tmp/dout"
grep -q ">dev 1 worker 3<" "$tmp/dev.svg" || { echo "dev.svg: worker row without its device"; fail=1; }
if command -v python3 >/dev/null; then
  python3 - "$tmp/dev.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["devices"] == [
    {"device": 0, "workers": 2, "partitions": 3, "busy_s": 0.9, "busy_pct": 75.0},
    {"device": 1, "workers": 2, "partitions": 3, "busy_s": 0.25, "busy_pct": 20.833},
], d["devices"]
assert d["malformed"] == 2 and d["gpu"]["window_ms"] == [100, 1300], d
PY
else
  grep -qF '{"device": 1, "workers": 2, "partitions": 3, "busy_s": 0.25, "busy_pct": 20.833}' \
      "$tmp/dev.json" || { echo "dev.json: device 1 wrong"; fail=1; }
fi

# malformed lines: counted, reported with line numbers, and the rest still used
wfb "$data/malformed.log" --json "$tmp/m.json" >"$tmp/mout" 2>&1 \
    || { echo "waterfall failed on malformed.log"; cat "$tmp/mout"; fail=1; }
grep -q "malformed: 16" "$tmp/mout" || { echo "malformed count wrong"; cat "$tmp/mout"; fail=1; }
grep -q "malformed line 4: the time is not a number" "$tmp/mout" || { echo "no line 4 report"; fail=1; }
grep -q "and 6 more malformed lines" "$tmp/mout" || { echo "no overflow note"; fail=1; }
grep -q "partitions finished: 1" "$tmp/mout" || { echo "good lines lost"; fail=1; }
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["malformed"]==16 and len(d["malformed_lines"])==10, d' "$tmp/m.json" || fail=1
fi

# a big generated log: 200 jobs x 10 partitions, 2 workers, finishes quickly
awk 'BEGIN { srand(7); t = 0;
  for (j = 0; j < 200; j++) for (p = 0; p < 10; p++) {
    s = t + int(rand() * 50); e = s + 100 + int(rand() * 100);
    w = (j * 10 + p) % 2; g = e + int(rand() * 20); h = g + 5; x = h + 30 + int(rand() * 10);
    printf "TIMELINE,%d,SYNTH_START,j%d,partition=%d\n", s, j, p;
    printf "TIMELINE,%d,SYNTH_END,j%d,partition=%d,synth_ms=%d\n", e, j, p, e - s;
    printf "TIMELINE,%d,GPU_QUEUE,j%d,partition=%d\n", e, j, p;
    printf "TIMELINE,%d,GPU_PICKUP,j%d,worker=%d,partition=%d\n", g, j, w, p;
    printf "TIMELINE,%d,GPU_START,j%d,worker=%d,partition=%d\n", h, j, w, p;
    printf "TIMELINE,%d,GPU_END,j%d,worker=%d,partition=%d,gpu_ms=%d\n", x, j, w, p, x - h;
    t += 20 } }' >"$tmp/big.log"
wfb "$tmp/big.log" --svg "$tmp/big.svg" --json "$tmp/big.json" >"$tmp/bout" 2>&1 \
    || { echo "waterfall failed on big.log"; tail "$tmp/bout"; fail=1; }
grep -q "jobs: 200, partitions finished: 2000, unfinished: 0, GPU workers: 2" "$tmp/bout" \
    || { echo "big.log summary wrong"; head "$tmp/bout"; fail=1; }
grep -q "throughput: 200 proofs" "$tmp/bout" || { echo "big.log throughput wrong"; fail=1; }
if command -v python3 >/dev/null; then
  python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$tmp/big.svg" \
      || { echo "big.svg is not well-formed"; fail=1; }
fi

# job ids with markup and bytes that are not UTF-8 still give well-formed output
printf 'TIMELINE,0,SYNTH_START,<j&"\xff\xc3>,partition=0\nTIMELINE,5,SYNTH_END,<j&"\xff\xc3>,partition=0\n' >"$tmp/ids.log"
printf 'TIMELINE,5,GPU_START,<j&"\xff\xc3>,worker=0,partition=0\nTIMELINE,9,GPU_END,<j&"\xff\xc3>,worker=0,partition=0\n' >>"$tmp/ids.log"
wfb "$tmp/ids.log" --svg "$tmp/ids.svg" --json "$tmp/ids.json" >/dev/null 2>&1 || { echo "ids.log failed"; fail=1; }
if command -v python3 >/dev/null; then
  python3 -c 'import xml.dom.minidom,json,sys; xml.dom.minidom.parse(sys.argv[1]); json.load(open(sys.argv[2],encoding="utf-8"))' \
      "$tmp/ids.svg" "$tmp/ids.json" || { echo "odd job ids break the SVG or JSON"; fail=1; }
fi

# binary noise is not a crash
head -c 20000 "$CUZK_BENCH" >"$tmp/noise.log"
printf 'TIMELINE,1,GPU_END,x,worker=0,partition=0,gpu_ms=1\n' >>"$tmp/noise.log"
wfb "$tmp/noise.log" >/dev/null 2>&1; rc=$?
[ $rc -le 1 ] || { echo "noise log: exit $rc"; fail=1; }

# bad invocations
: >"$tmp/empty.log"
wfb "$tmp/empty.log" >"$tmp/e" 2>&1 && { echo "an empty log should fail"; fail=1; }
grep -q "no usable TIMELINE events" "$tmp/e" || { echo "empty log: no message"; fail=1; }
wfb "$tmp/nonexistent.log" >/dev/null 2>&1; [ $? = 1 ] || { echo "missing log: want exit 1"; fail=1; }
wfb >/dev/null 2>&1; [ $? = 2 ] || { echo "no LOG: want exit 2"; fail=1; }
wfb "$data/crafted.log" --bogus >/dev/null 2>&1; [ $? = 2 ] || { echo "bad option: want exit 2"; fail=1; }
wfb "$data/crafted.log" --svg "$tmp/no/such/dir/x.svg" >/dev/null 2>&1 \
    && { echo "unwritable svg should fail"; fail=1; }

[ $fail = 0 ] && echo "cli_waterfall: ok"
exit $fail
