# cli_vectors_fresh.sh — generates a FRESH vector file with @noble/curves and a
# random seed (so the runner meets cases nobody has seen) and checks that
# `cuzk vectors check` passes all of it. Skips (exit 0, a SKIP line) when node
# or the npm package is missing. CZ_VECTORS_SEED replays a given seed.
set -u
: "${CUZK:?}" "${SRC:?}"
NOBLE="$SRC/.npm-local/node_modules/@noble/curves"
if ! command -v node >/dev/null 2>&1; then echo "SKIP: node not found"; exit 0; fi
if [ ! -f "$NOBLE/package.json" ]; then echo "SKIP: $NOBLE missing (run scripts/bootstrap)"; exit 0; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
seed=${CZ_VECTORS_SEED:-fresh-$(date +%s)-$RANDOM$RANDOM}
echo "cli_vectors_fresh: seed $seed (set CZ_VECTORS_SEED to replay)"
node "$SRC/scripts/gen-vectors.mjs" --seed "$seed" --random 6 --pairings 2 --out "$T/fresh.json" || { echo "FAIL: generator"; exit 1; }
n=$(grep -c '"op":' "$T/fresh.json")
out=$("$CUZK" vectors check "$T/fresh.json"); rc=$?
echo "$out" | tail -n 30
if [ $rc -eq 0 ] && grep -qx "$n passed, 0 failed" <<<"$out"; then
  echo "cli_vectors_fresh: ok ($n cases)"
else
  cp "$T/fresh.json" "${BUILD:-/tmp}/vectors_fresh_failed.json"
  echo "FAIL: rc=$rc, want '$n passed, 0 failed'; file kept at ${BUILD:-/tmp}/vectors_fresh_failed.json"
  exit 1
fi
