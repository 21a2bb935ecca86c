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
assert ops["fp_inv"]["ns_median"] > ops["fp_mul"]["ns_median"], "inverse cheaper than mul?"
PY
  else
    grep -q '"op": "fp_mul"' "$tmp/b.json" || { echo "json lacks fp_mul"; fail=1; }
  fi
else
  echo "no JSON written"; fail=1
fi

# every group present must run, and its built-in consistency check must pass
for f in _add_mixed pairing/pairing; do
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
[ $fail = 0 ] && echo "cli_bench: ok"
exit $fail
