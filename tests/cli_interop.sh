# cli_interop.sh — cuzk against circom + snarkjs (BLS12-381), the independent
# oracle for the whole prover. For the circuits in tests/circuits/ (built and
# cached by scripts/interop-prepare) and one random circuit generated fresh
# on every run (tests/interop_fresh.mjs; CZ_INTEROP_SEED replays one):
#   - cuzk groth16 prove  -> snarkjs groth16 verify and cuzk groth16 verify
#   - snarkjs groth16 prove -> cuzk groth16 verify; public.json byte-equal
#   - cuzk zkey export verificationkey byte-equal to snarkjs's
#   - a tampered proof and a wrong public input are rejected by both
#   - cuzk zkey export-params -> cuzk prove (the bellperson-format path) ->
#     snarkjs verify
#   - the fresh circuit again with an INSECURE cuzk test key (cuzk zkey
#     setup, as CUZK_INTEROP_TEST_KEY makes them): both tools prove with it
#     and verify each other's proofs
# and the bad inputs: zkey/wtns pairs whose sizes or curve disagree, a BN254
# key, a witness that breaks a constraint (cuzk must name the same one as
# snarkjs), truncated files, files with their sections reordered (must still
# work), malformed or off-curve JSON proofs. A bad input must give exit 1 or
# 2 and a message, never a crash.
# Skips (exit 0, a SKIP line) when node or the npm tools are missing, or when
# this cuzk has no `groth16` command.
set -u
: "${CUZK:?}" "${SRC:?}"
. "$SRC/scripts/interop-lib.sh"
if ! why=$(il_tools_ok); then echo "SKIP: $why"; exit 0; fi
if "$CUZK" groth16 2>&1 | grep -q "unknown command"; then
    echo "SKIP: $CUZK has no 'groth16' command"
    exit 0
fi
TAMPER="$SRC/tests/interop_tamper.mjs"
T=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait; rm -rf "$T"' EXIT
t_start=$(date +%s)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

prep=$("$SRC/scripts/interop-prepare"); rc=$?
[ $rc -eq 3 ] && { echo "SKIP: npm tools unusable"; exit 0; }
[ $rc -eq 0 ] || { echo "FAIL: scripts/interop-prepare exit $rc"; exit 1; }
declare -A DIR
while read -r n d; do DIR[$n]=$d; done <<<"$prep"
echo "prepared in $(($(date +%s) - t_start)) s"

# run NAME cmd...: runs cmd, output in $T/NAME.out / $T/NAME.err, sets RC
run() {
    local name=$1; shift
    "$@" >"$T/$name.out" 2>"$T/$name.err"
    RC=$?
}
crashed() { # a signal, a sanitizer report or a core: never acceptable
    [ "$RC" -ge 128 ] || grep -qE "AddressSanitizer|runtime error|Segmentation|core dumped" "$T/$1.err"
}
accepted() { [ "$RC" -eq 0 ] && grep -q "OK!" "$T/$1.out" "$T/$1.err"; }

# Verifications. cuzk's run at once; snarkjs's are collected (sj_want) and
# run in one Node process at the end (tests/interop_snarkjs.mjs), which saves
# its start-up per call; one call goes through the snarkjs CLI itself.
: >"$T/sj_jobs"
declare -A SJ_WANT SJ_SEEN
sj_want() { # LABEL valid|invalid VK PUBLIC PROOF
    printf '%s\t%s\t%s\t%s\n' "$1" "$3" "$4" "$5" >>"$T/sj_jobs"
    SJ_WANT[$1]=$2
}
cz_want() { # LABEL valid|invalid VK PUBLIC PROOF; invalid = exit 1, no OK!
    run cv "$CUZK" groth16 verify "$3" "$4" "$5"
    if [ "$2" = valid ]; then
        if accepted cv; then ok "$1: cuzk accepts"; else fail "$1: cuzk rejects (rc $RC): $(cat "$T/cv.err")"; fi
    elif crashed cv; then fail "$1: cuzk crashed (rc $RC): $(head -c 400 "$T/cv.err")"
    elif [ $RC -eq 1 ] && ! grep -q "OK!" "$T/cv.out"; then ok "$1: cuzk rejects (rc 1)"
    else fail "$1: cuzk rc $RC, want 1: $(cat "$T/cv.out" "$T/cv.err" | head -c 400)"; fi
}
both_want() { sj_want "$@"; cz_want "$@"; }
# want_error LABEL NAME [REGEX]: run NAME failed cleanly with exit 1 or 2 and
# a message (matching REGEX, case-insensitive, when given)
want_error() {
    local l=$1 n=$2 re=${3:-}
    if crashed "$n"; then fail "$l: crashed (rc $RC): $(head -c 400 "$T/$n.err")"; return; fi
    if [ $RC -ne 1 ] && [ $RC -ne 2 ]; then fail "$l: rc $RC, want 1 or 2"; return; fi
    if [ ! -s "$T/$n.err" ]; then fail "$l: rc $RC but no message on stderr"; return; fi
    if [ -n "$re" ] && ! grep -qiE "$re" "$T/$n.err"; then
        fail "$l: message does not match /$re/: $(head -c 300 "$T/$n.err")"; return
    fi
    ok "$l: rc $RC: $(head -n 1 "$T/$n.err" | cut -c1-150)"
}
# shape FILE: the JSON with every number replaced, to compare layouts
shape() { sed -E 's/"[0-9]+"/"N"/g' "$1"; }

# snarkjs's own proofs come from its CLI, started in the background now (and
# the fresh circuit is built meanwhile): $T/NAME/sj_proof.json, sj_public.json
sj_prove() { # NAME DIR
    mkdir -p "$T/$1"
    snarkjs groth16 prove "$2/circuit.zkey" "$2/witness.wtns" "$T/$1/sj_proof.json" "$T/$1/sj_public.json" \
        >"$T/$1/sj_prove.log" 2>&1
}
seed=${CZ_INTEROP_SEED:-fresh-$(date +%s)-$RANDOM}
echo "fresh circuit seed $seed (set CZ_INTEROP_SEED to replay)"
mkdir -p "$T/fresh_src" "$T/fresh_build"
(
    node "$SRC/tests/interop_fresh.mjs" --seed "$seed" --out "$T/fresh_src" >&2 &&
        il_build "$T/fresh_src" fresh "$T/fresh_build" 10 2>/dev/null &&
        sj_prove fresh "$T/fresh_build"
) &
fresh_pid=$!
( for c in mulchain manypub hashes nopub gadgets; do sj_prove "$c" "${DIR[$c]}"; done ) &
sj_pid=$!

# ---- 1. round trips -------------------------------------------------------
cz_prove() { # NAME DIR: cuzk's proof in $T/NAME/cz_proof.json, cz_public.json
    mkdir -p "$T/$1"
    run cp_$1 "$CUZK" groth16 prove "$2/circuit.zkey" "$2/witness.wtns" "$T/$1/cz_proof.json" \
        "$T/$1/cz_public.json" --r1cs "$2/circuit.r1cs"
    if [ $RC -ne 0 ]; then fail "$1: cuzk groth16 prove rc $RC: $(head -c 400 "$T/cp_$1.err")"; return 1; fi
    ok "$1: cuzk proves ($(grep -m1 -iE "total" "$T/cp_$1.out" | tr -s ' ' | cut -c1-60))"
}
round_trip() { # NAME DIR, after cz_prove and sj_prove
    local c=$1 d=$2 w="$T/$1"
    run vx "$CUZK" zkey export verificationkey "$d/circuit.zkey" "$w/cz_vk.json"
    if [ $RC -eq 0 ] && cmp -s "$w/cz_vk.json" "$d/vk.json"; then ok "$c: zkey export verificationkey identical to snarkjs's"
    else fail "$c: zkey export verificationkey rc $RC or differs from snarkjs's: $(head -c 300 "$T/vx.err")"; fi
    if [ -f "$w/cz_proof.json" ]; then
        both_want "$c: cuzk proof" valid "$d/vk.json" "$w/cz_public.json" "$w/cz_proof.json"
    fi
    if [ ! -s "$w/sj_proof.json" ]; then fail "$c: snarkjs groth16 prove failed: $(tail -n 5 "$w/sj_prove.log")"; return; fi
    cz_want "$c: snarkjs proof" valid "$d/vk.json" "$w/sj_public.json" "$w/sj_proof.json"
    [ -f "$w/cz_proof.json" ] || return
    if cmp -s "$w/cz_public.json" "$w/sj_public.json"; then ok "$c: public.json identical to snarkjs's"
    else fail "$c: public.json differs from snarkjs's: $(diff "$w/cz_public.json" "$w/sj_public.json" | head -n 6)"; fi
    if [ "$(shape "$w/cz_proof.json")" = "$(shape "$w/sj_proof.json")" ]; then ok "$c: proof.json laid out as snarkjs's"
    else fail "$c: proof.json layout differs: $(diff <(shape "$w/cz_proof.json") <(shape "$w/sj_proof.json") | head -n 6)"; fi
}
for c in mulchain manypub hashes nopub gadgets; do cz_prove "$c" "${DIR[$c]}"; done
wait $sj_pid
for c in mulchain manypub hashes nopub gadgets; do round_trip "$c" "${DIR[$c]}"; done

# one verification through the snarkjs command line itself
d=${DIR[mulchain]} w="$T/mulchain"
if [ -f "$w/cz_proof.json" ]; then
    run sv snarkjs groth16 verify "$d/vk.json" "$w/cz_public.json" "$w/cz_proof.json"
    if accepted sv; then ok "mulchain: cuzk proof: snarkjs CLI says OK!"
    else fail "mulchain: cuzk proof: snarkjs CLI rc $RC: $(tail -n 3 "$T/sv.out" "$T/sv.err")"; fi
    # two proofs of the same statement differ (fresh randomness r, s)
    run cp2 "$CUZK" groth16 prove "$d/circuit.zkey" "$d/witness.wtns" "$w/cz_proof2.json" "$w/cz_public2.json"
    if [ $RC -eq 0 ] && ! cmp -s "$w/cz_proof.json" "$w/cz_proof2.json"; then ok "mulchain: a second proof differs"
    else fail "mulchain: second prove rc $RC or identical proof"; fi
fi

# ---- 2. tampered proofs and wrong public inputs: both reject -------------
for c in mulchain manypub; do
    d=${DIR[$c]} w="$T/$c"
    [ -f "$w/cz_proof.json" ] && [ -f "$w/sj_proof.json" ] || continue
    node "$TAMPER" proof "$w/cz_proof.json" "$w/t_swap.json" swap-a "$w/sj_proof.json"
    both_want "$c: cuzk proof with A of the snarkjs proof" invalid "$d/vk.json" "$w/cz_public.json" "$w/t_swap.json"
    last=$(($(grep -c '"' "$w/cz_public.json") - 1))
    node "$TAMPER" public "$w/cz_public.json" "$w/t_pub.json" "$last"
    both_want "$c: wrong public input [$last]" invalid "$d/vk.json" "$w/t_pub.json" "$w/cz_proof.json"
    node "$TAMPER" public "$w/sj_public.json" "$w/t_pub0.json" 0
    both_want "$c: snarkjs proof, wrong public signal [0]" invalid "$d/vk.json" "$w/t_pub0.json" "$w/sj_proof.json"
    node "$TAMPER" proof "$w/sj_proof.json" "$w/t_neg.json" neg-a
    both_want "$c: snarkjs proof with -A" invalid "$d/vk.json" "$w/sj_public.json" "$w/t_neg.json"
done

# ---- 3. malformed JSON: cuzk refuses cleanly ----------------------------
d=${DIR[mulchain]} w="$T/mulchain"
if [ -f "$w/cz_proof.json" ]; then
    for m in offcurve-c offcurve-b subgroup-a noncanon-a huge-c leading-zero-a hex-a negative-a \
        empty-a junk-a number-a short-b missing-c protocol curve; do
        node "$TAMPER" proof "$w/cz_proof.json" "$w/m_$m.json" "$m"
        run mj "$CUZK" groth16 verify "$d/vk.json" "$w/cz_public.json" "$w/m_$m.json"
        if grep -q "OK!" "$T/mj.out"; then fail "proof $m: cuzk accepts it"; else want_error "proof $m" mj; fi
    done
    # snarkjs must reject the ones that are wrong for it too
    for m in offcurve-c offcurve-b subgroup-a; do
        sj_want "proof $m" invalid "$d/vk.json" "$w/cz_public.json" "$w/m_$m.json"
    done
    # public.json: a value + r (non-canonical), one value too few, one too many
    node -e 'const f=require("fs"),a=JSON.parse(f.readFileSync(process.argv[1]));
        const r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
        f.writeFileSync(process.argv[2]+"_noncanon.json",JSON.stringify([(BigInt(a[0])+r).toString(),...a.slice(1)]));
        f.writeFileSync(process.argv[2]+"_short.json",JSON.stringify(a.slice(1)));
        f.writeFileSync(process.argv[2]+"_long.json",JSON.stringify([...a,"1"]));' "$w/cz_public.json" "$w/pub"
    for m in noncanon short long; do
        run mj "$CUZK" groth16 verify "$d/vk.json" "$w/pub_$m.json" "$w/cz_proof.json"
        if grep -q "OK!" "$T/mj.out"; then fail "public.json $m: cuzk accepts it"; else want_error "public.json $m" mj; fi
    done
    run mj "$CUZK" groth16 verify "${DIR[manypub]}/vk.json" "$w/cz_public.json" "$w/cz_proof.json"
    want_error "verification key of another circuit" mj
    node -e 'const f=require("fs"),v=JSON.parse(f.readFileSync(process.argv[1]));
        v.vk_alpha_1[1]=(BigInt(v.vk_alpha_1[1])+1n).toString(); f.writeFileSync(process.argv[2],JSON.stringify(v));' \
        "$d/vk.json" "$w/vk_offcurve.json"
    run mj "$CUZK" groth16 verify "$w/vk_offcurve.json" "$w/cz_public.json" "$w/cz_proof.json"
    if grep -q "OK!" "$T/mj.out"; then fail "vk alpha off the curve: cuzk accepts"; else want_error "vk alpha off the curve" mj; fi
fi

# ---- 4. bad prove inputs --------------------------------------------------
d=${DIR[mulchain]} w="$T/bad"
mkdir -p "$w"
# prove_bad LABEL REGEX zkey wtns [extra...]: must fail cleanly, write no proof
prove_bad() {
    local l=$1 re=$2; shift 2
    rm -f "$w/p.json" "$w/pub.json"
    run pb "$CUZK" groth16 prove "$1" "$2" "$w/p.json" "$w/pub.json" "${@:3}"
    want_error "$l" pb "$re"
    [ -s "$w/p.json" ] && fail "$l: a proof file was written anyway"
}
prove_bad "zkey/wtns of different circuits" "" "$d/circuit.zkey" "${DIR[manypub]}/witness.wtns"
prove_bad "BLS12-381 zkey, BN254 wtns" "prime|curve|bn|field" "$d/circuit.zkey" "${DIR[tiny_bn128]}/witness.wtns"
prove_bad "BN254 zkey and wtns" "bn254|bn128|curve|prime" "${DIR[tiny_bn128]}/circuit.zkey" "${DIR[tiny_bn128]}/witness.wtns"
prove_bad "missing zkey" "" "$w/nonexistent.zkey" "$d/witness.wtns"

# a witness that breaks a constraint: cuzk must name the one snarkjs names
n=$(node "$TAMPER" wtns-count "$d/witness.wtns")
k=$((n / 2 + 17))
node "$TAMPER" wtns "$d/witness.wtns" "$w/bad.wtns" "$k"
want_c=$(snarkjs wtns check "$d/circuit.r1cs" "$w/bad.wtns" 2>&1 | sed -n 's/.*checking process at constraint \([0-9]*\).*/\1/p')
echo "witness[$k] + 1: snarkjs says constraint ${want_c:-?} fails"
prove_bad "unsatisfied witness, --r1cs" "constraint" "$d/circuit.zkey" "$w/bad.wtns" --r1cs "$d/circuit.r1cs"
if [ -z "$want_c" ]; then
    fail "snarkjs wtns check did not name a failing constraint"
elif ! grep -qw "constraint $want_c" "$T/pb.err"; then
    fail "unsatisfied witness: cuzk does not name constraint $want_c (0-based, as snarkjs): $(head -c 300 "$T/pb.err")"
fi
prove_bad "unsatisfied witness, no --r1cs" "" "$d/circuit.zkey" "$w/bad.wtns"
# a key point on the curve but outside G1 (the reader checks only the curve;
# the proof must then fail the self-check, and the message blame the key)
for sec in 5 9; do
    node "$TAMPER" zkey-nonsub "$d/circuit.zkey" "$w/nonsub.zkey" "$sec"
    prove_bad "zkey section $sec point outside G1, --r1cs" "zkey is damaged" "$w/nonsub.zkey" "$d/witness.wtns" \
        --r1cs "$d/circuit.r1cs"
done
prove_bad "zkey point outside G1, no --r1cs" "damaged" "$w/nonsub.zkey" "$d/witness.wtns"

# truncated files
zs=$(stat -c %s "$d/circuit.zkey") ws=$(stat -c %s "$d/witness.wtns") rs=$(stat -c %s "$d/circuit.r1cs")
for cut in 3 12 40 200 $((zs / 3)) $((zs - 1)); do
    head -c "$cut" "$d/circuit.zkey" >"$w/trunc.zkey"
    prove_bad "zkey cut to $cut of $zs bytes" "" "$w/trunc.zkey" "$d/witness.wtns"
done
for cut in 12 50 $((ws - 1)); do
    head -c "$cut" "$d/witness.wtns" >"$w/trunc.wtns"
    prove_bad "wtns cut to $cut of $ws bytes" "" "$d/circuit.zkey" "$w/trunc.wtns"
done
head -c $((rs / 2)) "$d/circuit.r1cs" >"$w/trunc.r1cs"
prove_bad "r1cs cut to half" "" "$d/circuit.zkey" "$d/witness.wtns" --r1cs "$w/trunc.r1cs"
prove_bad "r1cs of another circuit" "" "$d/circuit.zkey" "$d/witness.wtns" --r1cs "${DIR[manypub]}/circuit.r1cs"
# cuzk inspect knows the three files, and says what is wrong with a cut one
for f in circuit.zkey witness.wtns circuit.r1cs; do
    run in "$CUZK" inspect "$d/$f"
    if [ $RC -eq 0 ] && [ -s "$T/in.out" ]; then ok "inspect $f: $(head -n 1 "$T/in.out" | sed 's/^[^:]*: //' | cut -c1-90)"
    else fail "inspect $f: rc $RC: $(head -c 300 "$T/in.err")"; fi
done
head -c $((zs / 3)) "$d/circuit.zkey" >"$w/trunc.zkey"
run in "$CUZK" inspect "$w/trunc.zkey"
want_error "inspect a cut zkey" in

# sections in another order: still valid (readers find sections by id)
node "$TAMPER" reorder "$d/circuit.zkey" "$w/reorder.zkey"
node "$TAMPER" reorder "$d/witness.wtns" "$w/reorder.wtns"
node "$TAMPER" reorder "$d/circuit.r1cs" "$w/reorder.r1cs"
run ro "$CUZK" groth16 prove "$w/reorder.zkey" "$w/reorder.wtns" "$w/ro_proof.json" "$w/ro_public.json" --r1cs "$w/reorder.r1cs"
if [ $RC -eq 0 ]; then
    sj_want "sections reordered" valid "$d/vk.json" "$w/ro_public.json" "$w/ro_proof.json"
else
    fail "sections reordered: cuzk prove rc $RC: $(head -c 300 "$T/ro.err")"
fi

# ---- 5. zkey -> bellperson .params -> cuzk prove (bellperson path) -------
# The proof.bin is turned into snarkjs JSON by @noble/curves and checked by
# snarkjs against the zkey's own verification key.
d=${DIR[hashes]} w="$T/bp"
mkdir -p "$w"
run ex "$CUZK" zkey export-params "$d/circuit.zkey" "$w/c.params" --r1cs "$d/circuit.r1cs" --pce "$w/c.pce"
if [ $RC -ne 0 ]; then
    fail "zkey export-params rc $RC: $(head -c 300 "$T/ex.err")"
else
    ok "zkey export-params: $(cd "$w" && ls | tr '\n' ' ')"
    run bpp "$CUZK" prove --params "$w/c.params" --pce "$w/c.pce" --witness "$d/witness.wtns" \
        --out "$w/proof.bin" --no-cache
    if [ $RC -ne 0 ]; then
        fail "cuzk prove with the exported params rc $RC: $(head -c 300 "$T/bpp.err")"
    elif node "$TAMPER" bellproof "$w/proof.bin" "$w/proof.json" 2>"$T/bpj.err"; then
        ok "cuzk prove with the exported params ($(grep -m1 'prove: total' "$T/bpp.out" | tr -s ' '))"
        [ -f "$T/hashes/cz_public.json" ] &&
            sj_want "bellperson path proof" valid "$d/vk.json" "$T/hashes/cz_public.json" "$w/proof.json"
    else
        fail "bellperson proof does not decode: $(cat "$T/bpj.err" | head -c 300)"
    fi
fi

# ---- 6. the fresh circuit ----------------------------------------------
if wait $fresh_pid; then
    cat "$T/fresh_build/info.txt" | tr '\n' ' '; echo
    cz_prove fresh "$T/fresh_build" && round_trip fresh "$T/fresh_build"
else
    fail "fresh circuit (seed $seed) did not build: $(tail -n 20 "$T/fresh_build/build.log" 2>/dev/null)"
fi

# ---- 6b. the fresh circuit with an INSECURE cuzk test key --------------
# (CUZK_INTEROP_TEST_KEY's way, scripts/interop-lib.sh): both tools prove
# with it, each verifies the other's proof (section 7 collects snarkjs's)
if [ -f "$T/fresh_src/fresh.circom" ]; then
    mkdir -p "$T/fresh_tk"
    if ( IL_TESTKEY=7 IL_CUZK=$CUZK; il_build "$T/fresh_src" fresh "$T/fresh_tk" 10 2>/dev/null ) &&
        grep -q '^ptau none (cuzk zkey setup --seed 7, INSECURE test key)$' "$T/fresh_tk/info.txt"; then
        ok "fresh circuit with a cuzk test key: $(grep -E '^(constraints|setup_s)' "$T/fresh_tk/info.txt" | tr '\n' ' ')"
        sj_prove fresh_tk "$T/fresh_tk"
        cz_prove fresh_tk "$T/fresh_tk" && round_trip fresh_tk "$T/fresh_tk"
    else
        fail "fresh circuit with a cuzk test key did not build: $(tail -n 20 "$T/fresh_tk/build.log" 2>/dev/null)"
    fi
fi

# ---- 7. the collected snarkjs verifications -------------------------------
node "$SRC/tests/interop_snarkjs.mjs" "$T/sj_jobs" >"$T/sj_results" 2>"$T/sj_results.err" ||
    fail "interop_snarkjs.mjs: $(head -c 300 "$T/sj_results.err")"
while IFS=$'\t' read -r label res why; do
    want=${SJ_WANT[$label]:-}
    if [ "$want" = valid ] && [ "$res" = OK ]; then ok "$label: snarkjs accepts"
    elif [ "$want" = invalid ] && [ "$res" = INVALID ]; then ok "$label: snarkjs rejects ($why)"
    else fail "$label: snarkjs says $res ${why:-} (want $want)"; fi
    SJ_SEEN[$label]=1
done <"$T/sj_results"
for label in "${!SJ_WANT[@]}"; do [ -n "${SJ_SEEN[$label]:-}" ] || fail "$label: no snarkjs result"; done

echo "cli_interop: $(($(date +%s) - t_start)) s"
if [ $fails -ne 0 ]; then echo "cli_interop: $fails failure(s)"; exit 1; fi
echo "cli_interop: all passed"
