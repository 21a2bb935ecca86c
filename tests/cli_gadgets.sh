#!/usr/bin/env bash
# cli_gadgets.sh — `cuzk hash sha256` (hex, file, stdin; FIPS 180-4 answers,
# and sha256sum where it exists) and `cuzk gadget count` (the published SHA-256,
# PoR, PoSt and label counts; bad names and parameters exit 2).
set -u
CUZK=${CUZK:-build/bin/cuzk}
T=$(mktemp -d /tmp/cuzk_cli_gadgets.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

expect_rc() { # want_rc description command...
    local want=$1 what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ "$rc" = "$want" ] || { bad "$what: exit $rc, want $want"; cat "$T/out" "$T/err"; }
}

ABC=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
EMPTY=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
expect_rc 0 "hex abc" "$CUZK" hash sha256 --hex 616263
[ "$(cat "$T/out")" = "$ABC" ] || bad "sha256 abc: $(cat "$T/out")"
expect_rc 0 "hex empty" "$CUZK" hash sha256 --hex ""
[ "$(cat "$T/out")" = "$EMPTY" ] || bad "sha256 empty: $(cat "$T/out")"
printf abc >"$T/abc"
expect_rc 0 "file" "$CUZK" hash sha256 "$T/abc"
[ "$(cat "$T/out")" = "$ABC" ] || bad "sha256 file: $(cat "$T/out")"
[ "$(printf abc | "$CUZK" hash sha256 -)" = "$ABC" ] || bad "sha256 stdin"
head -c 100000 /dev/urandom >"$T/rand"
if command -v sha256sum >/dev/null; then
    [ "$("$CUZK" hash sha256 "$T/rand")" = "$(sha256sum "$T/rand" | cut -d' ' -f1)" ] || bad "sha256 vs sha256sum"
fi
expect_rc 2 "odd hex" "$CUZK" hash sha256 --hex 616
expect_rc 2 "missing file" "$CUZK" hash sha256 "$T/nope"
grep -q "cannot open $T/nope: No such file" "$T/err" || bad "missing file: $(cat "$T/err")"
expect_rc 2 "a folder" "$CUZK" hash sha256 "$T"
grep -q "cannot read $T: Is a directory" "$T/err" || bad "a folder: $(cat "$T/err")"
expect_rc 2 "unknown algo" "$CUZK" hash md5 x

count() { "$CUZK" gadget count "$@" | awk '$1 == "constraints" { print $2 }'; }
[ "$(count sha256-compress)" = $((25840 + 512)) ] || bad "sha256-compress: $(count sha256-compress)"
[ "$(count sha256 --bytes 64)" = $((44874 + 512)) ] || bad "sha256 64 bytes: $(count sha256 --bytes 64)"
[ "$(count sha256-node)" = 45387 ] || bad "sha256-node: $(count sha256-node)"
[ "$(count sha256 --bytes 64 --alloc 0)" = 0 ] || bad "constant message folds to nothing"
# the Filecoin pieces (storage-proofs por_circuit.rs, fallback_circuit.rs,
# create_label.rs; filecoin-proofs PR #1325)
[ "$(count por --sha256 1 --arity 2 --levels 6)" = 272295 ] || bad "sha256 base-2 por: $(count por --sha256 1 --arity 2 --levels 6)"
[ "$(count por --sha256 1 --arity 8 --levels 2)" = 250987 ] || bad "sha256 base-8 por: $(count por --sha256 1 --arity 8 --levels 2)"
[ "$(count por --levels 9 --sub 8 --private 1)" = 5302 ] || bad "32 GiB por: $(count por --levels 9 --sub 8 --private 1)"
[ "$(count comm-r)" = 313 ] || bad "comm-r: $(count comm-r)"
[ "$(count post)" = 53333 ] || bad "WindowPoSt sector: $(count post)"
[ "$(count post --sectors 66 --challenges 1)" = 370590 ] || bad "WinningPoSt: $(count post --sectors 66 --challenges 1)"
[ "$(count post --sectors 3 --challenges 5 --levels 2 --sub 0)" = 16869 ] || bad "PoSt base-8: $(count post --sectors 3 --challenges 5 --levels 2 --sub 0)"
expect_rc 0 "winning inputs" "$CUZK" gadget count post --sectors 66 --challenges 1
grep -q "^inputs  *133$" "$T/out" || bad "WinningPoSt has 133 inputs: $(cat "$T/out")"
[ "$(count label)" = 532025 ] || bad "label: $(count label)"
expect_rc 2 "bad tree hash" "$CUZK" gadget count por --sha256 2
expect_rc 2 "bad post shape" "$CUZK" gadget count post --arity 3
expect_rc 2 "no sectors" "$CUZK" gadget count post --sectors 0
expect_rc 2 "label layer too big" "$CUZK" gadget count label --layer 0x100000000
expect_rc 0 "count output" "$CUZK" gadget count sha256 --bytes 10
for k in constraints inputs aux nnz_a nnz_b nnz_c; do grep -q "^$k " "$T/out" || bad "count prints $k"; done
expect_rc 0 "list" "$CUZK" gadget list
grep -q sha256-node "$T/out" || bad "list names sha256-node"
expect_rc 2 "unknown gadget" "$CUZK" gadget count nope
expect_rc 2 "unknown param" "$CUZK" gadget count sha256 --nope 1
expect_rc 2 "bad number" "$CUZK" gadget count sha256 --bytes x
expect_rc 2 "dangling key" "$CUZK" gadget count sha256 --bytes

[ $fail = 0 ] && echo "cli_gadgets: ok"
exit $fail
