#!/usr/bin/env bash
# cli_synth.sh — `cuzk synth`: a small circuit lands as three well-formed
# files (same seed -> same bytes, other seed -> other bytes); bad arguments
# and an unwritable directory exit 2.
set -u
CUZK=${CUZK:-build/bin/cuzk}
T=$(mktemp -d /tmp/cuzk_cli_synth.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

expect_rc() { # want_rc description command...
    local want=$1 what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ "$rc" = "$want" ] || { bad "$what: exit $rc, want $want"; cat "$T/out" "$T/err"; }
}

expect_rc 0 "small circuit" "$CUZK" synth --constraints 1000 --seed 5 --out "$T/a/b" --verify
for f in circuit.pce witness.bin public.json; do
    [ -s "$T/a/b/$f" ] || bad "missing $f"
done
grep -q "1000 constraints" "$T/out" || bad "summary does not name the constraint count"
head -c 8 "$T/a/b/circuit.pce" | grep -q "CUZKPCE" || bad "circuit.pce magic"
head -c 8 "$T/a/b/witness.bin" | grep -q "CUZKWIT" || bad "witness.bin magic"
# 3 public inputs by default: a JSON array of three decimal strings
grep -Eq '^\["(0|[1-9][0-9]*)","(0|[1-9][0-9]*)","(0|[1-9][0-9]*)"\]$' "$T/a/b/public.json" || bad "public.json shape: $(cat "$T/a/b/public.json")"
# witness size: 40 + 32 * n_vars, n_vars from the header (u64 LE at 16)
nv=$(od -An -t u8 -j 16 -N 8 "$T/a/b/witness.bin" | tr -d ' ')
[ "$(stat -c %s "$T/a/b/witness.bin")" = $((40 + 32 * nv)) ] || bad "witness size vs n_vars $nv"

expect_rc 0 "same seed" "$CUZK" synth --seed 5 --out "$T/c" --constraints 1000
expect_rc 0 "other seed" "$CUZK" synth --constraints 1000 --seed 6 --out "$T/d"
for f in circuit.pce witness.bin public.json; do
    cmp -s "$T/a/b/$f" "$T/c/$f" || bad "$f differs for the same seed"
done
cmp -s "$T/a/b/witness.bin" "$T/d/witness.bin" && bad "witness.bin same for another seed"
expect_rc 0 "2^k notation" "$CUZK" synth --constraints '2^4' --out "$T/e"
expect_rc 0 "no public inputs" "$CUZK" synth --constraints 64 --public 0 --out "$T/f"
[ "$(cat "$T/f/public.json")" = "[]" ] || bad "empty public.json"
expect_rc 0 "help" "$CUZK" synth --help

expect_rc 2 "N below 2^4" "$CUZK" synth --constraints 15 --out "$T/x"
expect_rc 2 "N above 2^27" "$CUZK" synth --constraints '2^28' --out "$T/x"
expect_rc 2 "N not a number" "$CUZK" synth --constraints abc --out "$T/x"
expect_rc 2 "N negative" "$CUZK" synth --constraints -5 --out "$T/x"
expect_rc 2 "N with junk" "$CUZK" synth --constraints 100k --out "$T/x"
expect_rc 2 "bad 2^k" "$CUZK" synth --constraints '3^5' --out "$T/x"
expect_rc 2 "missing N" "$CUZK" synth --out "$T/x"
expect_rc 2 "missing --out" "$CUZK" synth --constraints 100
expect_rc 2 "N without value" "$CUZK" synth --out "$T/x" --constraints
expect_rc 2 "bad seed" "$CUZK" synth --constraints 100 --seed x1 --out "$T/x"
expect_rc 2 "unknown option" "$CUZK" synth --constraints 100 --out "$T/x" --frob
expect_rc 2 "repeated option" "$CUZK" synth --constraints 100 --constraints 200 --out "$T/x"
expect_rc 2 "stray argument" "$CUZK" synth 100 --out "$T/x"
[ -e "$T/x" ] && bad "a refused run created its output directory"
touch "$T/file"
expect_rc 2 "out is a file" "$CUZK" synth --constraints 100 --out "$T/file"
expect_rc 2 "out under a file" "$CUZK" synth --constraints 100 --out "$T/file/sub"
mkdir -p "$T/ro"
chmod 500 "$T/ro"
if [ ! -w "$T/ro" ]; then # (root can write anywhere)
    expect_rc 2 "unwritable dir" "$CUZK" synth --constraints 100 --out "$T/ro/sub"
fi
expect_rc 2 "unwritable dir (/proc)" "$CUZK" synth --constraints 100 --out /proc/cuzk_synth_test

[ $fail = 0 ] && echo "cli_synth: ok"
exit $fail
