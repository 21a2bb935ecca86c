#!/usr/bin/env bash
# cli_groth16.sh — the bellperson-format path from the command line:
# synth -> setup -> prove -> verify for every size 2^4 ... 2^18 (CUZK_MAX_LOG
# lowers the top for quick runs); then, on a small circuit: flipped proof bits
# and changed public inputs fail verification (exit 1), a witness that does
# not satisfy the circuit, a key for another circuit and truncated files are
# refused (exit 2), fixed-seed proofs repeat, and the parameter cache is used
# and checked; --backend cpu|auto prove the same proof, a bad --backend or
# --device and a cuda backend that cannot open are clear errors.
set -u
CUZK=${CUZK:-build/bin/cuzk}
MAXLOG=${CUZK_MAX_LOG:-18}
T=$(mktemp -d /tmp/cuzk_cli_g16.XXXXXX)
trap 'rm -rf "$T"' EXIT
export CUZK_CACHE_DIR="$T/cache"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect_rc() { # want_rc description command...
    local want=$1 what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ "$rc" = "$want" ] || { bad "$what: exit $rc, want $want"; tail -n 5 "$T/out" "$T/err"; }
}

for k in $(seq 4 "$MAXLOG"); do
    d="$T/c$k"
    expect_rc 0 "synth 2^$k" "$CUZK" synth --constraints "2^$k" --seed "$k" --out "$d"
    expect_rc 0 "setup 2^$k" "$CUZK" setup --pce "$d/circuit.pce" --out-params "$d/p.params" --out-vk "$d/p.vk" --seed "$k"
    expect_rc 0 "prove 2^$k" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$d/proof.bin"
    expect_rc 0 "verify 2^$k" "$CUZK" verify --vk "$d/p.vk" --public "$d/public.json" --proof "$d/proof.bin"
    grep -q "proof valid" "$T/out" || bad "verify 2^$k did not say valid"
    echo "2^$k: round trip ok"
    [ "$k" -gt 8 ] && [ "$k" -lt "$MAXLOG" ] && rm -rf "$d"
done

d="$T/c$(( MAXLOG < 8 ? MAXLOG : 8 ))"
# the second prove with the same parameters maps the cache
expect_rc 0 "prove from cache" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$d/proof2.bin"
grep -q "parameters from cache" "$T/out" || bad "second prove did not use the cache"
# a corrupted cache is not used (checksum) and the proof is still right
for c in "$T"/cache/*.pkc; do printf '\x55' | dd of="$c" bs=1 seek=5000 conv=notrunc status=none; done
expect_rc 0 "prove with corrupt cache" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$d/proof3.bin"
grep -q "parameters from cache" "$T/out" && bad "a corrupt cache was used"
expect_rc 0 "verify after corrupt cache" "$CUZK" verify --vk "$d/p.vk" --public "$d/public.json" --proof "$d/proof3.bin"

# fixed seed: same proof twice; default: fresh randomness each time
"$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/s1.bin" --seed 9 >/dev/null
"$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/s2.bin" --seed 9 >/dev/null
cmp -s "$T/s1.bin" "$T/s2.bin" || bad "fixed-seed proofs differ"
cmp -s "$d/proof.bin" "$d/proof2.bin" && bad "two default proofs are identical (no randomness?)"

# the backend choice: cpu and auto prove the same fixed-seed proof and name
# the backend; a bad choice or --device is an error naming it (exit 2); cuda
# where it cannot open (no CUDA build, no device) is an error, never a proof
"$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/b1.bin" --seed 9 --backend cpu --threads 1 >"$T/bo" 2>&1 \
    || bad "prove --backend cpu failed: $(tail -n 3 "$T/bo")"
grep -q "backend: cpu" "$T/bo" || bad "prove --backend cpu does not name its backend"
cmp -s "$T/s1.bin" "$T/b1.bin" || bad "--backend cpu --threads 1 proves another fixed-seed proof"
expect_rc 0 "prove --backend auto" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/b2.bin" --seed 9 --backend auto
grep -q "backend: " "$T/out" || bad "prove --backend auto does not name its backend"
grep -q "backend: cpu" "$T/out" && { cmp -s "$T/s1.bin" "$T/b2.bin" || bad "--backend auto (cpu) proves another fixed-seed proof"; }
expect_rc 2 "prove --backend gpu" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/x.bin" --backend gpu
grep -q "expected cpu, cuda or auto" "$T/err" || bad "--backend gpu: $(cat "$T/err")"
expect_rc 2 "prove --device -1" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/x.bin" --device -1
grep -q -- "--device" "$T/err" || bad "--device -1: $(cat "$T/err")"
"$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/x.bin" --backend cuda >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" != 0 ]; then
    [ "$rc" = 2 ] || bad "--backend cuda that cannot open: exit $rc, want 2"
    grep -q "backend cuda" "$T/err" || bad "--backend cuda: no clear message: $(cat "$T/err")"
    [ -e "$T/x.bin" ] && bad "--backend cuda failed and still wrote a proof"
    echo "--backend cuda here: $(cat "$T/err")"
else
    grep -q "backend: cuda" "$T/out" || bad "--backend cuda proved without naming a cuda backend"
    expect_rc 0 "verify the cuda proof" "$CUZK" verify --vk "$d/p.vk" --public "$d/public.json" --proof "$T/x.bin"
fi
rm -f "$T/x.bin"

# an output that cannot be written is refused before any work: no key
# generated, no proof made, nothing created
expect_rc 2 "prove into a missing folder" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/nodir/x.bin"
grep -q "cannot write $T/nodir/x.bin" "$T/err" || bad "prove into a missing folder: $(cat "$T/err")"
grep -q "prove: total" "$T/out" && bad "prove into a missing folder proved first"
expect_rc 2 "prove into a folder" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T"
grep -q "is a folder" "$T/err" || bad "prove into a folder: $(cat "$T/err")"
expect_rc 2 "setup into a missing folder" "$CUZK" setup --pce "$d/circuit.pce" --out-params "$T/p2.params" --out-vk "$T/nodir/p2.vk"
grep -q "cannot write $T/nodir/p2.vk" "$T/err" || bad "setup into a missing folder: $(cat "$T/err")"
grep -q "generate keys" "$T/out" && bad "setup into a missing folder generated keys first"
[ -e "$T/nodir" ] || [ -e "$T/p2.params" ] && bad "a refused run created its outputs"

# every 5th bit of the proof flipped: never valid (exit 1)
for bit in $(seq 0 5 1535); do
    cp "$d/proof.bin" "$T/m.bin"
    byte=$((bit / 8)); mask=$((1 << (bit % 8)))
    orig=$(od -An -t u1 -j "$byte" -N 1 "$T/m.bin" | tr -d ' ')
    printf "$(printf '\\%03o' $((orig ^ mask)))" | dd of="$T/m.bin" bs=1 seek="$byte" conv=notrunc status=none
    "$CUZK" verify --vk "$d/p.vk" --public "$d/public.json" --proof "$T/m.bin" >/dev/null 2>&1
    rc=$?
    [ "$rc" = 1 ] || { bad "proof bit $bit flipped: exit $rc, want 1"; break; }
done

# each public input changed in its last digit: invalid (exit 1)
n_pub=$(tr ',' '\n' <"$d/public.json" | grep -c '"')
for i in $(seq 1 "$n_pub"); do
    perl -e '
        my ($f, $i, $out) = @ARGV; open my $h, "<", $f or die; local $/; my $s = <$h>;
        my @v = ($s =~ /"(\d+)"/g); my $x = $v[$i - 1];
        my $last = substr($x, -1); substr($x, -1) = $last eq "0" ? "1" : $last - 1;
        $v[$i - 1] = $x; open my $o, ">", $out or die; print $o "[" . join(",", map { "\"$_\"" } @v) . "]";
    ' "$d/public.json" "$i" "$T/pub.json"
    expect_rc 1 "public input $i changed" "$CUZK" verify --vk "$d/p.vk" --public "$T/pub.json" --proof "$d/proof.bin"
done
# wrong number of public inputs: error (exit 2)
echo '["1"]' >"$T/pub1.json"
expect_rc 2 "wrong input count" "$CUZK" verify --vk "$d/p.vk" --public "$T/pub1.json" --proof "$d/proof.bin"

# a witness that does not satisfy the circuit: one value changed, checksum
# recomputed (XXH64 of everything before the 8-byte trailer), refused (exit 2)
size=$(stat -c %s "$d/witness.bin")
cp "$d/witness.bin" "$T/w.bin"
off=$((size - 8 - 32))
orig=$(od -An -t u1 -j "$off" -N 1 "$T/w.bin" | tr -d ' ')
printf "$(printf '\\%03o' $(( (orig + 1) & 255 )))" | dd of="$T/w.bin" bs=1 seek="$off" conv=notrunc status=none
if command -v xxhsum >/dev/null; then
    head -c $((size - 8)) "$T/w.bin" >"$T/wbody"
    h=$(xxhsum -H1 "$T/wbody" 2>/dev/null | cut -d' ' -f1)
    le=""; for i in 7 6 5 4 3 2 1 0; do le="$le\\x${h:$((2 * i)):2}"; done
    printf "$le" | dd of="$T/w.bin" bs=1 seek=$((size - 8)) conv=notrunc status=none
    expect_rc 2 "unsatisfying witness" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$T/w.bin" --out "$T/x.bin"
    grep -q "does not satisfy constraint" "$T/err" || bad "unsatisfying witness: no constraint named: $(cat "$T/err")"
else
    echo "SKIP unsatisfying-witness case: xxhsum not installed"
fi
[ -e "$T/x.bin" ] && bad "a proof was written for a bad witness"
# the same edit without fixing the checksum: refused as corrupt
cp "$d/witness.bin" "$T/w2.bin"
printf '\x07' | dd of="$T/w2.bin" bs=1 seek="$off" conv=notrunc status=none
expect_rc 2 "corrupt witness" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$T/w2.bin" --out "$T/x.bin"

# a key for another circuit, a witness for another circuit
expect_rc 2 "key of another circuit" "$CUZK" prove --params "$T/c4/p.params" --pce "$d/circuit.pce" --witness "$d/witness.bin" --out "$T/x.bin" --no-cache
expect_rc 2 "witness of another circuit" "$CUZK" prove --params "$d/p.params" --pce "$d/circuit.pce" --witness "$T/c4/witness.bin" --out "$T/x.bin"
# truncated files
for f in p.params circuit.pce witness.bin; do
    s=$(stat -c %s "$d/$f")
    for cut in 0 1 100 $((s / 2)) $((s - 1)); do
        cp -r "$d" "$T/t"; head -c "$cut" "$d/$f" >"$T/t/$f"
        expect_rc 2 "$f truncated to $cut" "$CUZK" prove --params "$T/t/p.params" --pce "$T/t/circuit.pce" --witness "$T/t/witness.bin" --out "$T/x.bin" --no-cache
        rm -rf "$T/t"
    done
done
head -c 100 "$d/p.vk" >"$T/short.vk"
expect_rc 2 "truncated vk" "$CUZK" verify --vk "$T/short.vk" --public "$d/public.json" --proof "$d/proof.bin"
head -c 191 "$d/proof.bin" >"$T/short.bin"
expect_rc 1 "truncated proof" "$CUZK" verify --vk "$d/p.vk" --public "$d/public.json" --proof "$T/short.bin"
expect_rc 2 "missing file" "$CUZK" verify --vk "$T/nope.vk" --public "$d/public.json" --proof "$d/proof.bin"
expect_rc 2 "unknown option" "$CUZK" prove --bogus 1
expect_rc 2 "missing option" "$CUZK" setup --pce "$d/circuit.pce"

[ "$fail" = 0 ] && echo "cli_groth16: all passed"
exit "$fail"
