#!/usr/bin/env bash
# cli_zkey.sh — the snarkjs-compatible commands on the committed snarkjs
# files (tests/data/snarkjs; no node needed): cuzk groth16 prove / verify
# with snarkjs's positional arguments, both directions (our proof against
# snarkjs's verification key, snarkjs's proof against our verifier), the
# exit codes (0 OK!, 1 invalid proof, 2 unreadable or bad input), refused
# witnesses (unsatisfying with and without --r1cs, wrong length), the
# backend choice (--backend cpu, a bad choice, cuda where it cannot open),
# cuzk zkey export-params followed by the bellperson-format prove / verify,
# and cuzk zkey setup (an insecure key made from the .r1cs).
set -u
CUZK=${CUZK:-build/bin/cuzk}
SRC=${SRC:-.}
D="$SRC/tests/data/snarkjs"
T=$(mktemp -d /tmp/cuzk_cli_zkey.XXXXXX)
trap 'rm -rf "$T"' EXIT
export CUZK_CACHE_DIR="$T/cache"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect_rc() { # want_rc description command...
    local want=$1 what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ "$rc" = "$want" ] || { bad "$what: exit $rc, want $want"; tail -5 "$T/out" "$T/err"; }
}

# snarkjs's proof verifies with cuzk
expect_rc 0 "verify snarkjs proof" "$CUZK" groth16 verify "$D/verification_key.json" "$D/public.json" "$D/proof.json"
grep -qx "OK!" "$T/out" || bad "verify did not print OK!"

# cuzk proves; the proof verifies against snarkjs's key; public.json is byte-identical to snarkjs's
expect_rc 0 "prove" "$CUZK" groth16 prove "$D/chain.zkey" "$D/chain.wtns" "$T/proof.json" "$T/public.json"
cmp -s "$T/public.json" "$D/public.json" || bad "public.json differs from snarkjs's"
expect_rc 0 "verify our proof" "$CUZK" groth16 verify "$D/verification_key.json" "$T/public.json" "$T/proof.json"
expect_rc 0 "prove --r1cs" "$CUZK" groth16 prove "$D/chain.zkey" "$D/chain.wtns" "$T/p2.json" "$T/pub2.json" --r1cs "$D/chain.r1cs" --seed 7
grep -q "check witness" "$T/out" || bad "--r1cs did not check the witness"
# same layout as snarkjs's proof.json (numbers aside)
diff <(sed 's/[0-9]\{5,\}/N/g' "$D/proof.json") <(sed 's/[0-9]\{5,\}/N/g' "$T/proof.json") >/dev/null || bad "proof.json layout differs from snarkjs's"

# the backend choice: --backend cpu gives the same fixed-seed files as the
# default (auto, the CPU where there is no device), names its backend; a bad
# choice and a cuda backend that cannot open are clear errors (exit 2)
expect_rc 0 "prove --backend cpu" "$CUZK" groth16 prove "$D/chain.zkey" "$D/chain.wtns" "$T/p3.json" "$T/pub3.json" --seed 7 --backend cpu --threads 1
grep -q "backend: cpu" "$T/out" || bad "groth16 prove --backend cpu does not name its backend"
if grep -q "backend: cpu" <("$CUZK" groth16 prove "$D/chain.zkey" "$D/chain.wtns" "$T/p4.json" "$T/pub4.json" --seed 7 2>&1); then
    cmp -s "$T/p3.json" "$T/p4.json" || bad "--backend cpu and the default prove other fixed-seed proofs"
fi
cmp -s "$T/p2.json" "$T/p3.json" || bad "--backend cpu proves another fixed-seed proof than --r1cs's run"
cmp -s "$T/pub3.json" "$D/public.json" || bad "--backend cpu: public.json differs from snarkjs's"
expect_rc 2 "prove --backend opencl" "$CUZK" groth16 prove "$D/chain.zkey" "$D/chain.wtns" "$T/x.json" "$T/xp.json" --backend opencl
grep -q "expected cpu, cuda or auto" "$T/err" || bad "--backend opencl: $(cat "$T/err")"
"$CUZK" groth16 prove "$D/chain.zkey" "$D/chain.wtns" "$T/x.json" "$T/xp.json" --backend cuda >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" != 0 ]; then
    [ "$rc" = 2 ] && grep -q "backend cuda" "$T/err" || bad "--backend cuda that cannot open: exit $rc, $(cat "$T/err")"
    [ -e "$T/x.json" ] && bad "--backend cuda failed and still wrote a proof"
else
    expect_rc 0 "verify the cuda proof" "$CUZK" groth16 verify "$D/verification_key.json" "$T/xp.json" "$T/x.json"
fi

# the verification key, byte-identical to snarkjs's export
expect_rc 0 "export verificationkey" "$CUZK" zkey export verificationkey "$D/chain.zkey" "$T/vk.json"
cmp -s "$T/vk.json" "$D/verification_key.json" || bad "verification_key.json differs from snarkjs's"

# invalid proofs: exit 1 with snarkjs's words
sed 's/"12345678901234567890"/"12345678901234567891"/' "$D/public.json" > "$T/wrongpub.json"
expect_rc 1 "wrong public input" "$CUZK" groth16 verify "$D/verification_key.json" "$T/wrongpub.json" "$D/proof.json"
grep -q "Invalid proof" "$T/err" || bad "no 'Invalid proof' message"
python3 - "$D/proof.json" "$T/proof.json" "$T/mixed.json" <<'PY' || bad "python3 failed"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
a["pi_c"] = b["pi_c"]  # valid points from two different proofs
json.dump(a, open(sys.argv[3], "w"))
PY
expect_rc 1 "mixed proof" "$CUZK" groth16 verify "$D/verification_key.json" "$D/public.json" "$T/mixed.json"
X=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['pi_a'][0])" "$D/proof.json")
sed "s/\"$X\"/\"1$X\"/" "$D/proof.json" > "$T/big.json"      # not below p
expect_rc 1 "coordinate >= p" "$CUZK" groth16 verify "$D/verification_key.json" "$D/public.json" "$T/big.json"
grep -q "not below the field modulus" "$T/err" || bad "no message for a coordinate >= p"
sed "s/\"$X\"/\"4\"/" "$D/proof.json" > "$T/off.json"        # off the curve
expect_rc 1 "point off the curve" "$CUZK" groth16 verify "$D/verification_key.json" "$D/public.json" "$T/off.json"
grep -q "not on the" "$T/err" || bad "no message for a point off the curve"
head -c 300 "$D/proof.json" > "$T/cut.json"
expect_rc 2 "truncated proof.json" "$CUZK" groth16 verify "$D/verification_key.json" "$D/public.json" "$T/cut.json"
expect_rc 2 "missing vk" "$CUZK" groth16 verify "$T/nope.json" "$D/public.json" "$D/proof.json"
sed 's/"bls12381"/"bn128"/' "$D/verification_key.json" > "$T/bn.json"
expect_rc 2 "BN254 vk" "$CUZK" groth16 verify "$T/bn.json" "$D/public.json" "$D/proof.json"
grep -q "BN254" "$T/err" || bad "BN254 not named"
expect_rc 2 "usage" "$CUZK" groth16 verify "$D/verification_key.json" "$D/public.json"

# refused witnesses
python3 - "$D/chain.wtns" "$T" <<'PY' || bad "python3 failed"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
o = 12 + 12 + 40 + 12            # section 2 data (after section 1: n8, r, count)
d2 = bytearray(d); d2[o + 32 * 20] ^= 1
open(sys.argv[2] + "/unsat.wtns", "wb").write(d2)
# one value fewer: fix the count and both sizes
d3 = bytearray(d[:-32]); struct.pack_into("<I", d3, 12 + 12 + 4 + 32, 44); struct.pack_into("<Q", d3, o - 8, 44 * 32)
open(sys.argv[2] + "/short.wtns", "wb").write(d3)
d4 = bytearray(d[:-7]); open(sys.argv[2] + "/cut.wtns", "wb").write(d4)
PY
expect_rc 2 "unsatisfying witness" "$CUZK" groth16 prove "$D/chain.zkey" "$T/unsat.wtns" "$T/x.json" "$T/y.json"
grep -q "does not satisfy" "$T/err" || bad "unsatisfying witness: no message"
expect_rc 2 "unsatisfying witness --r1cs" "$CUZK" groth16 prove "$D/chain.zkey" "$T/unsat.wtns" "$T/x.json" "$T/y.json" --r1cs "$D/chain.r1cs"
grep -q "does not satisfy constraint [0-9]* of 42" "$T/err" || bad "unsatisfying witness: constraint not named"
[ -e "$T/x.json" ] && bad "a proof was written for an unsatisfying witness"
expect_rc 2 "short witness" "$CUZK" groth16 prove "$D/chain.zkey" "$T/short.wtns" "$T/x.json" "$T/y.json"
grep -q "invalid witness length" "$T/err" || bad "short witness: no message"
expect_rc 2 "truncated witness" "$CUZK" groth16 prove "$D/chain.zkey" "$T/cut.wtns" "$T/x.json" "$T/y.json"
head -c 20000 "$D/chain.zkey" > "$T/cut.zkey"
expect_rc 2 "truncated zkey" "$CUZK" groth16 prove "$T/cut.zkey" "$D/chain.wtns" "$T/x.json" "$T/y.json"
grep -q "truncated" "$T/err" || bad "truncated zkey: no message"

# zkey -> bellperson .params + .pce; prove and verify on the bellperson path
if "$CUZK" zkey export-params "$D/chain.zkey" "$T/chain.params" --r1cs "$D/chain.r1cs" >"$T/out" 2>"$T/err"; then
    expect_rc 0 "prove from exported params" "$CUZK" prove --params "$T/chain.params" --pce "$T/chain.pce" --witness "$D/chain.wtns" --out "$T/proof.bin"
    expect_rc 0 "verify exported-params proof" "$CUZK" verify --vk "$T/chain.params" --public "$D/public.json" --proof "$T/proof.bin"
else
    bad "zkey export-params failed"; cat "$T/err"
fi

# a synthetic (insecure) snarkjs workload: prove and verify, and export-params refuses it without an r1cs
expect_rc 0 "zkey synth" "$CUZK" zkey synth --constraints 100 --out "$T/syn" --seed 3
grep -q "INSECURE" "$T/out" || bad "zkey synth: no insecurity warning"
expect_rc 0 "prove synthetic" "$CUZK" groth16 prove "$T/syn/circuit.zkey" "$T/syn/witness.wtns" "$T/syn/proof.json" "$T/syn/pub.json"
cmp -s "$T/syn/pub.json" "$T/syn/public.json" || bad "synthetic public.json differs"
expect_rc 0 "verify synthetic" "$CUZK" groth16 verify "$T/syn/verification_key.json" "$T/syn/public.json" "$T/syn/proof.json"
expect_rc 1 "synthetic proof, other key" "$CUZK" groth16 verify "$D/verification_key.json" "$D/public.json" "$T/syn/proof.json"
expect_rc 2 "export-params without --r1cs" "$CUZK" zkey export-params "$T/syn/circuit.zkey" "$T/syn/x.params"

# an insecure test key for the circom circuit itself (cuzk zkey setup): proofs
# with it verify against its own verification key, not against snarkjs's
expect_rc 0 "zkey setup" "$CUZK" zkey setup "$D/chain.r1cs" "$T/own.zkey" --vk "$T/own_vk.json" --seed 9
grep -q "INSECURE" "$T/out" || bad "zkey setup: no insecurity warning"
grep -q "42 constraints, 45 signals, domain 2^6" "$T/out" || bad "zkey setup: $(tail -n 1 "$T/out")"
expect_rc 0 "prove with own key" "$CUZK" groth16 prove "$T/own.zkey" "$D/chain.wtns" "$T/own_p.json" "$T/own_pub.json" --r1cs "$D/chain.r1cs"
cmp -s "$T/own_pub.json" "$D/public.json" || bad "own key: public.json differs from snarkjs's"
expect_rc 0 "verify with own vk" "$CUZK" groth16 verify "$T/own_vk.json" "$T/own_pub.json" "$T/own_p.json"
expect_rc 1 "own-key proof, snarkjs's vk" "$CUZK" groth16 verify "$D/verification_key.json" "$T/own_pub.json" "$T/own_p.json"
expect_rc 0 "zkey setup, same seed" "$CUZK" zkey setup "$D/chain.r1cs" "$T/own2.zkey" --seed 9
cmp -s "$T/own.zkey" "$T/own2.zkey" || bad "zkey setup: same seed, different key"
expect_rc 2 "zkey setup, no output" "$CUZK" zkey setup "$D/chain.r1cs"
expect_rc 2 "zkey setup, not an r1cs" "$CUZK" zkey setup "$D/chain.wtns" "$T/x.zkey"

# outputs that cannot be written are refused before the work, nothing made
expect_rc 2 "groth16 prove, public.json in a missing folder" "$CUZK" groth16 prove "$D/chain.zkey" "$D/chain.wtns" "$T/np.json" "$T/nodir/pub.json"
grep -q "cannot write $T/nodir/pub.json" "$T/err" || bad "groth16 prove into a missing folder: $(cat "$T/err")"
[ -e "$T/np.json" ] && bad "groth16 prove refused its public.json but wrote the proof"
expect_rc 2 "zkey setup into a missing folder" "$CUZK" zkey setup "$D/chain.r1cs" "$T/nodir/x.zkey"
grep -q "setup (insecure)" "$T/out" && bad "zkey setup into a missing folder ran the setup first"
expect_rc 2 "zkey export-params into a folder" "$CUZK" zkey export-params "$D/chain.zkey" "$T" --r1cs "$D/chain.r1cs"
grep -q "is a folder" "$T/err" || bad "zkey export-params into a folder: $(cat "$T/err")"
expect_rc 2 "zkey export verificationkey into a missing folder" "$CUZK" zkey export verificationkey "$D/chain.zkey" "$T/nodir/vk.json"
touch "$T/afile"
expect_rc 2 "zkey synth under a file" "$CUZK" zkey synth --constraints 100 --out "$T/afile/syn"
grep -q "cannot create directory" "$T/err" || bad "zkey synth under a file: $(cat "$T/err")"
grep -q "synthesize circuit" "$T/out" && bad "zkey synth under a file synthesized first"
[ -e "$T/nodir" ] && bad "a refused run created a folder"

# inspect knows the three circom/snarkjs files
expect_rc 0 "inspect zkey" "$CUZK" inspect "$D/chain.zkey"
grep -q "domain 2^6" "$T/out" || bad "inspect zkey: no domain"
expect_rc 0 "inspect wtns" "$CUZK" inspect "$D/chain.wtns"
expect_rc 0 "inspect r1cs" "$CUZK" inspect "$D/chain.r1cs"
grep -q "constraints 42" "$T/out" || bad "inspect r1cs: no constraint count"
expect_rc 2 "inspect truncated zkey" "$CUZK" inspect "$T/cut.zkey"
expect_rc 2 "inspect a missing file" "$CUZK" inspect "$T/nope.zkey"
grep -q "^cuzk inspect: cannot open $T/nope.zkey: No such file" "$T/err" || bad "inspect a missing file: $(cat "$T/err")"
expect_rc 2 "inspect a folder" "$CUZK" inspect "$T"
grep -q "not a regular file" "$T/err" || bad "inspect a folder: $(cat "$T/err")"

[ "$fail" = 0 ] && echo "cli_zkey: all passed"
exit $fail
