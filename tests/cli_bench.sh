#!/usr/bin/env bash
# cli_bench.sh — cuzk-bench smoke test: a quick filtered run must print the
# table, write well-formed JSON with the run context and one positive timing
# per selected op, and fail on a filter that selects nothing.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$CUZK_BENCH" --quick --batches 3 --filter ff/fp_ --json "$tmp/b.json" >"$tmp/out" 2>&1 \
    || { echo "cuzk-bench failed"; cat "$tmp/out"; fail=1; }
grep -q "fp_mul" "$tmp/out" || { echo "table lacks fp_mul"; fail=1; }
if grep -q "fr_mul" "$tmp/out"; then echo "filter ff/fp_ let fr_mul through"; fail=1; fi

if [ -s "$tmp/b.json" ]; then
  if command -v python3 >/dev/null; then
    python3 - "$tmp/b.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ops = {r["op"]: r for r in d["results"]}
for key in ("commit", "cpu", "cores", "cpu_has_adx", "adx_path"):
    assert key in d, "missing " + key
for op in ("fp_add", "fp_mul", "fp_sqr", "fp_inv"):
    assert op in ops, "missing op " + op
    r = ops[op]
    assert 0 < r["ns_min"] <= r["ns_median"] <= r["ns_max"], r
    assert r["iterations"] >= r["batches"] == 3, r
assert "fr_mul" not in ops
PY
  else
    grep -q '"op": "fp_mul"' "$tmp/b.json" || { echo "json lacks fp_mul"; fail=1; }
  fi
else
  echo "no JSON written"; fail=1
fi

# one-shot ops (msm, ntt): per-run rows marked "mode": "once"
"$CUZK_BENCH" --quick --reps 2 --filter _2^16_ --json "$tmp/o.json" >"$tmp/once" 2>&1 \
    || { echo "cuzk-bench one-shot run failed"; cat "$tmp/once"; fail=1; }
if [ -s "$tmp/o.json" ] && command -v python3 >/dev/null; then
  python3 - "$tmp/o.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ops = {r["group"] + "/" + r["op"]: r for r in d["results"]}
for op in ("msm/g1_2^16_rand_t1", "msm/g1_2^16_bits_t2", "msm/g2_2^16_rand_t2",
           "ntt/ntt_2^16_fwd_t1", "ntt/ntt_2^16_coset_t2"):
    assert op in ops, "missing op " + op
    r = ops[op]
    assert r["mode"] == "once", r
    assert 0 < r["ns_min"] <= r["ns_median"] <= r["ns_max"], r
    assert r["batches"] >= 2 and r["iterations"] == r["batches"], r
assert not any("2^18" in k for k in ops), "filter _2^16_ let 2^18 through"
PY
fi
cat "$tmp/once" >>"$tmp/grp"

# every group present must run, and its built-in consistency check must pass
for f in _add_mixed pairing/pairing spmv/; do
  "$CUZK_BENCH" --quick --batches 1 --filter "$f" >>"$tmp/grp" 2>&1 \
      || { echo "cuzk-bench --filter $f failed"; cat "$tmp/grp"; fail=1; }
done
if grep -q WARNING "$tmp/grp"; then echo "consistency check failed:"; grep WARNING "$tmp/grp"; fail=1; fi

if "$CUZK_BENCH" --quick --filter no-such-op >/dev/null 2>&1; then
  echo "an empty selection should fail"; fail=1
fi
if "$CUZK_BENCH" --bogus >/dev/null 2>&1; then
  echo "an unknown option should fail"; fail=1
fi
# a --json that cannot be written fails before any benchmark runs
"$CUZK_BENCH" --quick --batches 1 --filter ff/fp_ --json "$tmp/nodir/b.json" >"$tmp/nj" 2>&1
rc=$?
if [ "$rc" != 2 ] || ! grep -q "cannot write $tmp/nodir/b.json" "$tmp/nj" || grep -q "fp_mul" "$tmp/nj"; then
  echo "--json into a missing folder: exit $rc, want 2 before any run:"; cat "$tmp/nj"; fail=1
fi
[ $fail = 0 ] && echo "cli_bench: ok"
exit $fail
