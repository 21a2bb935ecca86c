# cli_vectors.sh — `cuzk vectors check` on the committed noble file and on
# altered copies: all cases pass (exit 0); one altered "out" gives exactly one
# failure (exit 1); malformed cases fail with a reason; malformed files exit 2;
# randomly corrupted files never crash the runner.
set -u
: "${CUZK:?}" "${SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok()  { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

FILE="$SRC/vectors/noble.json"
cp "$FILE" "$T/all.json"
n=$(grep -c '"op":' "$T/all.json")

# 1. the committed file passes in full
out=$("$CUZK" vectors check "$T/all.json"); rc=$?
tail -n 1 <<<"$out"
[ $rc -eq 0 ] && grep -qx "$n passed, 0 failed" <<<"$out" && ok "noble.json: $n passed" \
  || { bad "noble.json: rc=$rc, want '$n passed, 0 failed'"; grep FAIL <<<"$out" | head -20; }

# 2. one altered out: last hex digit of the first fp_mul / g1_add / g2_mul / fr_inv result
for op in fp_mul fr_inv g1_add g2_mul g1_decode; do
  line=$(grep -n "\"op\":\"$op\"" "$T/all.json" | head -n 1 | cut -d: -f1)
  [ -n "$line" ] || { bad "no $op case in noble.json"; continue; }
  last=$(sed -n "${line}p" "$T/all.json" | grep -o '"out":"[0-9a-fA-F]*"' | tail -c 3 | head -c 1)
  new=0; [ "$last" = 0 ] && new=1
  sed -E "${line}s/(\"out\":\"[0-9a-fA-F]*)[0-9a-fA-F]\"/\\1${new}\"/" "$T/all.json" > "$T/alt.json"
  cmp -s "$T/all.json" "$T/alt.json" && { bad "$op: alteration did not apply"; continue; }
  out=$("$CUZK" vectors check "$T/alt.json"); rc=$?
  [ $rc -eq 1 ] && grep -qx "$((n - 1)) passed, 1 failed" <<<"$out" && grep -q "^case .*($op, line $line): FAIL" <<<"$out" \
    && ok "$op altered: exit 1, 1 failed" || bad "$op altered: rc=$rc: $(tail -n 2 <<<"$out")"
done

# 3. a flipped boolean
line=$(grep -n '"op":"pairing_check".*"out":true' "$T/all.json" | head -n 1 | cut -d: -f1)
sed "${line}s/\"out\":true/\"out\":false/" "$T/all.json" > "$T/alt.json"
out=$("$CUZK" vectors check "$T/alt.json"); rc=$?
[ $rc -eq 1 ] && grep -qx "$((n - 1)) passed, 1 failed" <<<"$out" && ok "pairing_check flipped: 1 failed" \
  || bad "pairing_check flipped: rc=$rc"
line=$(grep -n '"op":"g2_decode".*"valid":false' "$T/all.json" | head -n 1 | cut -d: -f1)
sed "${line}s/\"valid\":false/\"valid\":true/" "$T/all.json" > "$T/alt.json"
out=$("$CUZK" vectors check "$T/alt.json"); rc=$?
[ $rc -eq 1 ] && grep -qx "$((n - 1)) passed, 1 failed" <<<"$out" && ok "g2_decode valid flipped: 1 failed" \
  || bad "g2_decode valid flipped: rc=$rc"

# 4. malformed cases and unknown ops count as failures, with a reason each
cat > "$T/cases.json" <<'J'
{"curve":"BLS12-381","extra":{"x":[1,2]},"cases":[
 {"op":"fp_add","a":"0X01","b":"2","out":"03","comment":"ignored"},
 {"op":"fr_mul","a":"2","b":"3","out":"0x000006"},
 {"op":"no_such_op","a":"1"},
 {"op":"fp_mul","a":"zz","b":"1","out":"00"},
 {"op":"fp_mul","a":"1","out":"01"},
 {"op":"fp_inv","a":"1","out":true},
 {"op":"fr_add","a":"1","b":"1","out":"2","out":"2"},
 {"a":"1"},
 42,
 {"op":"g1_decode","bytes":"abc","valid":false},
 {"op":"fp_add","a":"1","b":"1","out":"1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002"}
]}
J
out=$("$CUZK" vectors check "$T/cases.json"); rc=$?
echo "$out"
[ $rc -eq 1 ] && grep -qx "2 passed, 9 failed" <<<"$out" && ok "malformed cases: 2 passed, 9 failed" \
  || bad "malformed cases: rc=$rc"
for i in 2 3 4 5 6 7 8 9 10; do
  grep -q "^case $i " <<<"$out" || bad "no line for failing case $i"
done
grep -q "^case 2 .*unknown op" <<<"$out" || bad "case 2 should say unknown op"
grep -q "^case 4 .*missing \"b\"" <<<"$out" || bad "case 4 should say b is missing"

# 4b. liberal forms: BOM, pairs as objects, booleans as strings, points and
# results uncompressed, JSON-number scalars, short field values
G1=$(grep -o '"bytes":"[0-9a-f]*","valid":true,"out":"[0-9a-f]*","note":"valid compressed"' "$T/all.json" | head -n 1)
G1C=$(cut -d'"' -f4 <<<"$G1"); G1U=$(cut -d'"' -f10 <<<"$G1")
G2=$(grep '"op":"g2_decode"' "$T/all.json" | grep -o '"bytes":"[0-9a-f]*","valid":true,"out":"[0-9a-f]*","note":"valid compressed"' | head -n 1)
G2C=$(cut -d'"' -f4 <<<"$G2"); G2U=$(cut -d'"' -f10 <<<"$G2")
printf '\xef\xbb\xbf' > "$T/lib.json"
cat >> "$T/lib.json" <<J
{"curve":"bls12_381","cases":[
 {"op":"pairing_check","pairs":[{"g1":"$G1C","g2":"$G2C"},["$G1U","$G2U"]],"out":"FALSE"},
 {"op":"pairing_check","pairs":[],"out":"true"},
 {"op":"g1_add","p":"$G1U","q":"c0$(printf '0%.0s' $(seq 1 94))","out":"$G1U"},
 {"op":"g2_mul","p":"0x$G2C","k":1,"out":"$G2U"},
 {"op":"g1_mul","p":"$G1C","k":"0X0000000000000000000000000000000000000000000000000000000000000000000000000000001","out":"$G1C"},
 {"op":"g1_decode","bytes":"0x$G1U","valid":true,"out":"$G1C"},
 {"op":"g2_decode","bytes":"$G2C","valid":true},
 {"op":"fr_inv","a":"0","out":"0"},
 {"op":"fp_inv","a":"0x0","out":"00"},
 {"op":"fr_add","a":1,"b":"0x1","out":"2"}
]}
J
out=$("$CUZK" vectors check "$T/lib.json"); rc=$?
[ $rc -eq 0 ] && grep -qx "10 passed, 0 failed" <<<"$out" && ok "liberal forms: 10 passed" \
  || { bad "liberal forms: rc=$rc"; echo "$out"; }

# 5. malformed files: exit 2 with a message
check2() {
  printf '%s' "$2" > "$T/m.json"
  "$CUZK" vectors check "$T/m.json" > "$T/o" 2> "$T/e"; rc=$?
  [ $rc -eq 2 ] && [ -s "$T/e" ] && ok "$1: exit 2: $(head -c 120 "$T/e")" || bad "$1: rc=$rc"
}
check2 "bad JSON" '{"curve":"bls12-381","cases":[{"op":"fp_add",}]}'
check2 "truncated" '{"curve":"bls12-381","cases":['
check2 "no cases" '{"curve":"bls12-381"}'
check2 "cases not an array" '{"curve":"bls12-381","cases":{}}'
check2 "empty cases" '{"curve":"bls12-381","cases":[]}'
check2 "other curve" '{"curve":"bn254","cases":[{"op":"fp_add","a":"1","b":"1","out":"2"}]}'
check2 "no curve" '{"cases":[{"op":"fp_add","a":"1","b":"1","out":"2"}]}'
check2 "not an object" '[1,2]'
check2 "empty file" ''
"$CUZK" vectors check "$T/does-not-exist.json" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && ok "missing file: exit 2" || bad "missing file: rc=$rc"
"$CUZK" vectors 2>/dev/null; rc=$?
[ $rc -eq 2 ] && ok "no subcommand: exit 2" || bad "no subcommand: rc=$rc"

# 6. corrupted copies: any verdict, but never a crash (exit 0, 1 or 2 only)
size=$(wc -c < "$T/all.json")
chars='0123456789abcdef"{}[],:x \\'
for k in $(seq 1 25); do
  cp "$T/all.json" "$T/c.json"
  for j in 1 2 3; do
    off=$(( (RANDOM * 32768 + RANDOM) % size ))
    ch=${chars:$((RANDOM % ${#chars})):1}
    printf '%s' "$ch" | dd of="$T/c.json" bs=1 seek="$off" conv=notrunc status=none
  done
  "$CUZK" vectors check "$T/c.json" > /dev/null 2>&1; rc=$?
  [ $rc -le 2 ] || { bad "corrupted copy $k: rc=$rc"; cp "$T/c.json" "${BUILD:-/tmp}/cli_vectors_crash_$k.json"; }
done
ok "25 corrupted copies ran without a crash"

echo "cli_vectors: $fails failed"
[ $fails -eq 0 ]
