# interop-lib.sh — shell functions shared by scripts/interop-prepare,
# scripts/interop-bench-prepare, scripts/bench-snarkjs and tests/cli_interop.sh
# (sourced, not run). They drive the npm tools that scripts/bootstrap puts in
# .npm-local/ (circom2 = the wasm build of circom, snarkjs, circomlib) and keep
# everything they produce in a cache folder OUTSIDE the repository:
#
#   $CACHE/ptau/<curve>_p<P>_<tools>.ptau       prepared powers of tau
#   $CACHE/circuits/<name>-<key>/               one folder per circuit
#       circuit.r1cs  circuit.wasm  circuit.zkey  vk.json  input.json
#       witness.wtns  public.json  info.txt (constraints, power, timings)
#
# <key> hashes the circuit source, its input, every circomlib file and the
# tool versions, so editing a circuit or changing a pin makes a new entry and
# a second run finds the old one. Every entry is built in a temporary folder
# and renamed into place when complete, under a lock (flock), so an
# interrupted run leaves nothing half-made and parallel runs do not collide.
# The ceremony is a test ceremony: one contribution with fixed entropy, no
# beacon. Its keys are fine for tests and benchmarks and for nothing else.
#
# Environment: CUZK_INTEROP_CACHE (default ~/.cache/cuzk/interop; when that
# cannot be written, /tmp/cuzk-interop-<uid>). To start afresh, delete it.
#
# CUZK_INTEROP_TEST_KEY=SEED: instead of the ceremony (ptau, snarkjs groth16
# setup, one contribution), make each key with `cuzk zkey setup circuit.r1cs
# circuit.zkey --vk vk.json --seed SEED`: an INSECURE test key (the toxic
# waste comes from the seed) of the same layout and size, made in seconds
# where a power-14 ceremony takes ~50 minutes on 2 cores. Both tools prove
# with it and snarkjs verifies the proofs. The seed is part of the cache
# key, so test keys and ceremony keys never stand in for each other; info.txt
# says which it is. The cuzk binary is $CUZK (default build/bin/cuzk). For
# benchmarks only.

IL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IL_NPM="$IL_ROOT/.npm-local/node_modules"
IL_CACHE=${CUZK_INTEROP_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/cuzk/interop}
if ! mkdir -p "$IL_CACHE" 2>/dev/null || [ ! -w "$IL_CACHE" ]; then
    IL_CACHE=${TMPDIR:-/tmp}/cuzk-interop-$(id -u) # a read-only home (some CI)
    mkdir -p "$IL_CACHE"
fi
IL_CURVE=bls12381   # default curve; names ending in _bn128 use BN254
IL_TESTKEY=${CUZK_INTEROP_TEST_KEY:-}
if [ -n "$IL_TESTKEY" ] && ! [[ "$IL_TESTKEY" =~ ^[0-9]+$ ]]; then
    echo "interop-lib: CUZK_INTEROP_TEST_KEY must be a number (a seed), not '$IL_TESTKEY'" >&2
    exit 2
fi
IL_CUZK=${CUZK:-$IL_ROOT/build/bin/cuzk}

il_log() { echo "[interop $(date -u +%H:%M:%S)] $*" >&2; }

# il_tools_ok: 0 when node, snarkjs, circom2 and circomlib are usable; else
# prints why on stdout and returns 1.
il_tools_ok() {
    command -v node >/dev/null 2>&1 || { echo "node not found"; return 1; }
    local p
    for p in snarkjs/build/cli.cjs circom2/cli.js circomlib/circuits/poseidon.circom; do
        [ -f "$IL_NPM/$p" ] || { echo "$IL_NPM/$p missing (run scripts/bootstrap)"; return 1; }
    done
}

il_version() { sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$IL_NPM/$1/package.json" | head -1; }
IL_TOOLS="snarkjs-$(il_version snarkjs 2>/dev/null)_circom2-$(il_version circom2 2>/dev/null)"

snarkjs() { node "$IL_NPM/snarkjs/build/cli.cjs" "$@"; }
circom2() { node "$IL_NPM/circom2/cli.js" "$@"; }

# il_time VAR cmd...: runs cmd with its output appended to $IL_LOG (default
# stderr), stores the seconds it took in VAR
il_time() {
    local __v=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >>"${IL_LOG:-/dev/stderr}" 2>&1 || return 1
    t1=$(date +%s.%N)
    printf -v "$__v" '%s' "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')"
}

# il_lock FILE: takes an exclusive lock on fd 9 (released when the shell or
# subshell that took it ends).
il_lock() { mkdir -p "$(dirname "$1")"; exec 9>"$1"; flock 9; }

# il_ptau CURVE POWER -> prints the path of a prepared ptau for CURVE of at
# least POWER, making one of exactly POWER when none is cached.
il_ptau() {
    local curve=$1 want=$2 p f
    for p in $(seq "$want" 28); do
        f="$IL_CACHE/ptau/${curve}_p${p}_$IL_TOOLS.ptau"
        [ -f "$f" ] && { echo "$f"; return 0; }
    done
    f="$IL_CACHE/ptau/${curve}_p${want}_$IL_TOOLS.ptau"
    (
        il_lock "$IL_CACHE/ptau/.lock-$curve-p$want"
        [ -f "$f" ] && exit 0
        local T s1 s2 s3
        T=$(mktemp -d "$IL_CACHE/ptau/tmp.XXXXXX")
        trap 'rm -rf "$T"' EXIT
        local IL_LOG="$T/log"
        il_log "ptau $curve power $want: new"
        il_time s1 snarkjs powersoftau new "$curve" "$want" "$T/0.ptau" || { tail -n 30 "$IL_LOG" >&2; exit 1; }
        il_log "ptau $curve power $want: contribute"
        il_time s2 snarkjs powersoftau contribute "$T/0.ptau" "$T/1.ptau" \
            --name=cuzk-test -e="cuzk interop test ceremony $curve p$want" || { tail -n 30 "$IL_LOG" >&2; exit 1; }
        rm -f "$T/0.ptau"
        il_log "ptau $curve power $want: prepare phase2 (the slow step)"
        il_time s3 snarkjs powersoftau prepare phase2 "$T/1.ptau" "$T/final.ptau" || { tail -n 30 "$IL_LOG" >&2; exit 1; }
        mv "$T/final.ptau" "$f"
        il_log "ptau $curve power $want: done (new ${s1}s, contribute ${s2}s, prepare ${s3}s)"
    ) || { il_log "ptau $curve power $want: FAILED"; return 1; }
    echo "$f"
}

# il_r1cs_info R1CS -> "CONSTRAINTS POWER": the constraint count and the
# smallest ptau power snarkjs accepts for the circuit (its domain must hold
# constraints + public inputs + outputs + 1).
il_r1cs_info() {
    snarkjs r1cs info "$1" 2>/dev/null | awk '
        /# of Constraints:/ {c=$NF} /# of Public Inputs:/ {pi=$NF} /# of Outputs:/ {po=$NF}
        END { n=c+pi+po+1; p=0; while ((2^p) < n) p++; print c, p }'
}

# il_key DIR NAME: hash of what the build of circuit NAME depends on: its
# source and input, the files of ours it includes, circomlib, the tool
# versions.
il_key() {
    local dir=$1 name=$2 inc
    { cat "$dir/$name.circom" "$dir/$name.input.json"
      for inc in $(sed -n 's/^ *include *"\([^"/]*\)".*/\1/p' "$dir/$name.circom"); do
          cat "$IL_ROOT/tests/circuits/$inc" "$IL_ROOT/bench/circuits/$inc" 2>/dev/null
      done
      find "$IL_NPM/circomlib/circuits" -name '*.circom' -print0 | sort -z | xargs -0 cat
      echo "$IL_TOOLS $IL_CURVE"
      [ -n "$IL_TESTKEY" ] && echo "cuzk test key, seed $IL_TESTKEY"; } | sha256sum | cut -c1-16
}

# il_build DIR NAME OUT [MINPOWER] [CURVE]: builds circuit NAME, whose source
# is DIR/NAME.circom and witness input DIR/NAME.input.json, into the existing
# folder OUT: compile, ptau (of at least MINPOWER, so that one ptau can serve
# several circuits), zkey setup + one contribution, vk, witness, checked by
# snarkjs against the r1cs. Includes resolve against tests/circuits,
# bench/circuits and .npm-local/node_modules
# (`include "circomlib/circuits/poseidon.circom"`).
il_build() {
    local dir name=$2 T=$3 minpw=${4:-0} curve=${5:-$IL_CURVE}
    dir=$(cd "$1" && pwd) || return 1
    local tc ts tk tw pw ptau cons
    local IL_LOG="$T/build.log"
    cp "$dir/$name.circom" "$T/circuit.circom"
    cp "$dir/$name.input.json" "$T/input.json"
    il_log "$name: compile (circom2 --prime $curve)"
    # circom2 runs under WASI: give it paths relative to the repository
    il_time tc eval 'cd "$IL_ROOT" && circom2 "$dir/$name.circom" --r1cs --wasm --prime "$curve" \
        -l tests/circuits -l bench/circuits -l .npm-local/node_modules -o "$T"' || return 1
    mv "$T/$name.r1cs" "$T/circuit.r1cs"
    mv "$T/${name}_js/$name.wasm" "$T/circuit.wasm"
    rm -rf "$T/${name}_js"
    read -r cons pw < <(il_r1cs_info "$T/circuit.r1cs")
    if [ -n "$IL_TESTKEY" ]; then
        [ "$curve" = bls12381 ] || { il_log "$name: a cuzk test key is BLS12-381 only"; return 1; }
        [ -x "$IL_CUZK" ] || { il_log "$name: $IL_CUZK not built (set CUZK)"; return 1; }
        il_log "$name: $cons constraints; INSECURE test key (cuzk zkey setup --seed $IL_TESTKEY)"
        il_time ts "$IL_CUZK" zkey setup "$T/circuit.r1cs" "$T/circuit.zkey" --vk "$T/vk.json" \
            --seed "$IL_TESTKEY" || return 1
        tk=0
        ptau="none (cuzk zkey setup --seed $IL_TESTKEY, INSECURE test key)"
    else
        il_log "$name: $cons constraints, needs ptau power $pw"
        ptau=$(il_ptau "$curve" $((pw > minpw ? pw : minpw))) || return 1
        il_log "$name: groth16 setup + zkey contribution"
        il_time ts snarkjs groth16 setup "$T/circuit.r1cs" "$ptau" "$T/0.zkey" || return 1
        il_time tk snarkjs zkey contribute "$T/0.zkey" "$T/circuit.zkey" \
            --name=cuzk-test -e="cuzk interop zkey $name $RANDOM" || return 1
        rm -f "$T/0.zkey"
        snarkjs zkey export verificationkey "$T/circuit.zkey" "$T/vk.json" >>"$IL_LOG" 2>&1 || return 1
        ptau=$(basename "$ptau")
    fi
    il_log "$name: witness"
    il_time tw snarkjs wtns calculate "$T/circuit.wasm" "$T/input.json" "$T/witness.wtns" || return 1
    snarkjs wtns check "$T/circuit.r1cs" "$T/witness.wtns" 2>&1 | grep -q "WITNESS IS CORRECT" \
        || { il_log "$name: snarkjs says the witness is not correct"; return 1; }
    printf 'name %s\ncurve %s\nconstraints %s\npower %s\nptau %s\ntools %s\ncompile_s %s\nsetup_s %s\ncontribute_s %s\nwitness_s %s\n' \
        "$name" "$curve" "$cons" "$pw" "$ptau" "$IL_TOOLS" "$tc" "$ts" "$tk" "$tw" >"$T/info.txt"
}

# il_circuit DIR NAME [MINPOWER] -> prints the cache folder of circuit NAME
# (see il_build), building it first when it is not cached. A NAME ending in
# _bn128 is compiled and set up for BN254 (MINPOWER ignored); everything else
# for BLS12-381.
il_circuit() {
    local dir name=$2 minpw=${3:-0} key out curve=$IL_CURVE
    dir=$(cd "$1" && pwd) || return 1
    [[ "$name" == *_bn128 ]] && { curve=bn128; minpw=0; }
    key=$(il_key "$dir" "$name")
    out="$IL_CACHE/circuits/$name-$key"
    [ -f "$out/info.txt" ] && { echo "$out"; return 0; }
    (
        il_lock "$IL_CACHE/circuits/.lock-$name"
        [ -f "$out/info.txt" ] && exit 0
        T=$(mktemp -d "$IL_CACHE/circuits/tmp.XXXXXX")
        trap 'rm -rf "$T"' EXIT
        il_build "$dir" "$name" "$T" "$minpw" "$curve" || { tail -n 30 "$T/build.log" >&2; exit 1; }
        rm -rf "$out"
        mv "$T" "$out"
        trap - EXIT
        il_log "$name: ready in $out"
    ) || { il_log "$name: FAILED"; return 1; }
    echo "$out"
}
