#!/usr/bin/env bash
# cli_gadgets.sh — `cuzk hash sha256` (hex, file, stdin; FIPS 180-4 answers,
# and sha256sum where it exists) and `cuzk gadget count` (the published SHA-256
# counts; bad names and parameters exit 2).
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
expect_rc 2 "unknown algo" "$CUZK" hash md5 x

count() { "$CUZK" gadget count "$@" | awk '$1 == "constraints" { print $2 }'; }
[ "$(count sha256-compress)" = $((25840 + 512)) ] || bad "sha256-compress: $(count sha256-compress)"
[ "$(count sha256 --bytes 64)" = $((44874 + 512)) ] || bad "sha256 64 bytes: $(count sha256 --bytes 64)"
[ "$(count sha256-node)" = 45387 ] || bad "sha256-node: $(count sha256-node)"
[ "$(count sha256 --bytes 64 --alloc 0)" = 0 ] || bad "constant message folds to nothing"
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
