#!/usr/bin/env bash
# cli_cuda_bench_args.sh — cuzk-cuda-bench names a mistake in its arguments
# (exit 2, the bad argument in the message) before it looks for a device, so
# a machine without one says what is wrong too; where it has no device, a
# correct command says "no CUDA device" (exit 2). Skips where the CUDA
# benchmarks were not built (no nvcc).
set -u
B=${BUILD:-build}/bin/cuzk-cuda-bench
if [ ! -x "$B" ]; then
    echo "cli_cuda_bench_args: SKIP (no cuzk-cuda-bench: built without nvcc)"
    exit 0
fi
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# expect_err "ARGS" "TEXT": exit 2 and TEXT in the output
expect_err() {
    local out rc
    # shellcheck disable=SC2086
    out=$("$B" $1 2>&1)
    rc=$?
    [ "$rc" = 2 ] || bad "'$1': exit $rc, want 2 ($out)"
    grep -qF -- "$2" <<<"$out" || bad "'$1': '$2' not in: $out"
}

expect_err "" "usage: cuzk-cuda-bench"
expect_err "bogus" "unknown benchmark bogus"
expect_err "ff extra" "ff: takes no arguments"
expect_err "ntt abc" "size 'abc' is not an integer in 1..30"
expect_err "ntt 24 31" "size '31' is not an integer in 1..30"
expect_err "ntt 2x" "size '2x'"
expect_err "spmv 9" "size '9' is not an integer in 10..30"
expect_err "setup 4" "size '4' is not an integer in 5..30"
expect_err "spmv-circuit nosuch" "unknown gadget 'nosuch'"
expect_err "spmv-circuit label --modes bogus" "--modes: bad or too many items in 'bogus'"
expect_err "spmv-circuit label --modes thread:8/div" "--modes: bad or too many items in 'thread:8/div'"
expect_err "spmv-circuit label --modes thread/" "--modes: bad or too many items in 'thread/'"
expect_err "spmv-circuit label --modes warp/mul/mul" "--modes: bad or too many items in 'warp/mul/mul'"
expect_err "spmv-circuit label --modes thread/g3" "--modes: bad or too many items in 'thread/g3'"
expect_err "spmv-circuit label --modes thread/g4/g2" "--modes: bad or too many items in 'thread/g4/g2'"
expect_err "spmv-circuit label --modes thread/wide/o32" "--modes: bad or too many items in 'thread/wide/o32'"
expect_err "spmv-circuit label --copies 0" "--copies wants 1..100000"

# cuzk-cuda-msm-bench: sizes, reps and --json checked before the device
M=${BUILD:-build}/bin/cuzk-cuda-msm-bench
if [ -x "$M" ]; then
    expect_msm() { # "TEXT" ARGS...: exit 2 and TEXT in the output
        local want=$1 out rc
        shift
        out=$("$M" "$@" 2>&1)
        rc=$?
        [ "$rc" = 2 ] || bad "msm bench '$*': exit $rc, want 2 ($out)"
        grep -qF -- "$want" <<<"$out" || bad "msm bench '$*': '$want' not in: $out"
    }
    expect_msm "usage:" --sizes 2x
    expect_msm "usage:" --sizes 29
    expect_msm "usage:" --fc-sizes 24,,26
    expect_msm "usage:" --g2-sizes 0
    expect_msm "usage:" --sizes 1,2,3,4,5,6,7,8,9
    expect_msm "usage:" --bogus
    expect_msm "usage:" --copies-sizes 0
    expect_msm "--copies-sizes 2^22 is not among --sizes" --sizes 20,24 --copies-sizes 24,22
    expect_msm "--reps is 1..64" --reps 0
    expect_msm "--reps is 1..64" --reps 65
    T=$(mktemp -d /tmp/cuzk_cli_cba.XXXXXX)
    expect_msm "cannot write $T/nodir/m.json" --sizes 10 --json "$T/nodir/m.json"
    rm -rf "$T"
    # an empty list is no sizes: a valid command (it skips or runs)
    out=$("$M" --sizes "" --fc-sizes none --g2-sizes "" --reps 1 2>&1) || bad "msm bench with empty lists: $out"
fi

# a correct command on a machine without a device
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    expect_err "ntt 20" "no CUDA device"
    expect_err "spmv-circuit label --copies 2" "no CUDA device"
    expect_err "spmv-circuit label --copies 2 --modes thread:8/mul,warp/mul,split/wide,thread/wide/mul" "no CUDA device"
    expect_err "spmv-circuit label --copies 2 --modes thread/o32/g4,thread:4/g1,thread/g2/mul" "no CUDA device"
fi

[ "$fail" = 0 ] && echo "cli_cuda_bench_args: ok"
exit "$fail"
