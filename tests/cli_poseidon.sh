#!/usr/bin/env bash
# cli_poseidon.sh — `cuzk hash poseidon`: the known answers (hash of
# [0, 1, .., N-1] for N = 2, 8, 11, neptune's values as decimals), hex input
# equal to decimal, a custom tag changes the hash, and bad usage exits 2;
# `cuzk gadget count` for poseidon-2/8/11 and PoR shapes.
set -u
CUZK=${CUZK:-build/bin/cuzk}
fail=0
bad() { echo "FAIL: $*"; fail=1; }

want() { # expected description args...
    local exp=$1 what=$2; shift 2
    local got
    got=$("$CUZK" hash poseidon "$@" 2>&1)
    local rc=$?
    [ "$rc" = 0 ] || bad "$what: exit $rc ($got)"
    [ "$got" = "$exp" ] || bad "$what: got '$got', want '$exp'"
}
rc_is() { # rc description args...
    local exp=$1 what=$2; shift 2
    "$CUZK" hash poseidon "$@" >/dev/null 2>&1
    local rc=$?
    [ "$rc" = "$exp" ] || bad "$what: exit $rc, want $exp"
}

# LE limbs 2e203c369a02e7ff a6fba9339d05a69d 739e0fd902efe161 396508d75e76a56b
A2=25960344943096272337012716175477212322269168030767257784864432061935954094079
# 2a9934f56d38a5e6 4b682e9d9cc4aed9 1201004211677077 2394611da3a5de55
A8=16093113334469754385105857631436294260170029445672335083607636744820563158502
# cee3bbc32b693163 09f3dcd8ccb08fc1 6ca537e232ebe87a 0c0fc1b2e5227f28
A11=5455593749017015672764991119231833921228649300710382709100793734650370011491

want "$A2" "arity 2" --arity 2 0 1
want "$A8" "arity 8" --arity 8 0 1 2 3 4 5 6 7
want "$A11" "arity 11" --arity 11 0 1 2 3 4 5 6 7 8 9 10
want "$A2" "hex values" --arity 2 0x0 0x01
want "$A2" "explicit Merkle tag" --arity 2 --tag 3 0 1
want "$A8" "options after values" 0 1 2 3 4 5 6 7 --arity 8

t=$("$CUZK" hash poseidon --arity 2 --tag 0x10000000000 0 1)
[ -n "$t" ] && [ "$t" != "$A2" ] || bad "custom tag 2^40 gives '$t'"
t2=$("$CUZK" hash poseidon --arity 2 --tag 1099511627776 0 1)
[ "$t" = "$t2" ] || bad "tag hex vs decimal: '$t' vs '$t2'"

rc_is 2 "no arity" 0 1
rc_is 2 "too few values" --arity 2 0
rc_is 2 "too many values" --arity 2 0 1 2
rc_is 2 "value >= r" --arity 2 0 52435875175126190479447740508185965837690552500527637822603658699938581184513
rc_is 2 "not a number" --arity 2 0 x1
rc_is 2 "arity 0" --arity 0
rc_is 2 "unknown option" --arity 2 --bogus 0 1
rc_is 0 "help" --help

# cuzk gadget count: the legacy circuit and PoR counts
count() { "$CUZK" gadget count "$@" | awk '$1 == "constraints" { print $2 }'; }
inputs() { "$CUZK" gadget count "$@" | awk '$1 == "inputs" { print $2 }'; }
[ "$(count poseidon-2)" = 311 ] || bad "poseidon-2: $(count poseidon-2)"
[ "$(count poseidon-8)" = 505 ] || bad "poseidon-8: $(count poseidon-8)"
[ "$(count poseidon-11)" = 598 ] || bad "poseidon-11: $(count poseidon-11)"
[ "$(count poseidon-2 --tag 1)" = 311 ] || bad "poseidon-2 custom tag: $(count poseidon-2 --tag 1)"
[ "$(count por)" = 1063 ] || bad "por base-8: $(count por)"
[ "$(inputs por)" = 3 ] || bad "por inputs: $(inputs por)"
[ "$(count por --private 1)" = 1062 ] || bad "por private: $(count por --private 1)"
[ "$(count por --arity 2 --levels 6)" = 1887 ] || bad "por base-2: $(count por --arity 2 --levels 6)"
[ "$(count por --sub 8)" = 1593 ] || bad "por 8-8: $(count por --sub 8)"
[ "$(count por --sub 8 --top 2)" = 1907 ] || bad "por 8-8-2: $(count por --sub 8 --top 2)"
[ "$(count por --levels 9 --sub 8)" = 5303 ] || bad "por 32 GiB: $(count por --levels 9 --sub 8)"
"$CUZK" gadget count por --arity 3 >/dev/null 2>&1; [ $? = 2 ] || bad "por --arity 3 should exit 2"
"$CUZK" gadget count poseidon-8 --bogus 1 >/dev/null 2>&1; [ $? = 2 ] || bad "unknown key should exit 2"

[ $fail = 0 ] && echo "cli_poseidon: ok"
exit $fail
