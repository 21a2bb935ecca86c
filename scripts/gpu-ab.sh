#!/bin/bash
# gpu-ab.sh — side-by-side comparison of two builds' GPU benchmarks in one
# device run: the same benchmarks of build A and build B alternate ROUNDS
# times (A B A B ...), so both see the same clocks and the same machine, and
# every figure is printed per round and as the median of the rounds.
#
#   scripts/gpu-ab.sh A_DIR B_DIR [ROUNDS]
#
# A_DIR and B_DIR hold bin/cuzk-cuda-bench, bin/cuzk-cuda-msm-bench and
# bin/cuzk-bench (a build folder, or the same layout copied). What runs:
#   AB_FF=1             cuzk-cuda-bench ff (the field products)
#   AB_NTT="24 27"      cuzk-cuda-bench ntt at those sizes ("" skips)
#   AB_SPMV=""          cuzk-cuda-bench spmv at those sizes ("" skips)
#   AB_SETUP=""         cuzk-cuda-bench setup at those sizes ("" skips)
#   AB_MSM="--sizes 24,26 --fc-sizes 26 --g2-sizes 24 --reps 5"
#                       cuzk-cuda-msm-bench arguments ("" skips; the string is
#                       split at spaces, so an empty list is "none", not '')
#   AB_PART="26 6"      cuzk-bench partition --log2 K --count N on the CUDA
#                       backend ("" skips): the stages of its median line, their
#                       sum, and the device's wall (the "device" column, where
#                       the build has one: below the sum when stages overlap)
#   AB_ENV_A="", AB_ENV_B=""  environment settings (NAME=VALUE ...) for every
#                       command of that side, so that one build can be compared
#                       with itself under two knobs: gpu-ab.sh DIR DIR with
#                       AB_ENV_A="CZ_NTT_FOLD=0"
# The last table has one row a figure: A's median, B's median, B / A.
set -uo pipefail
a=${1:?usage: gpu-ab.sh A_DIR B_DIR [ROUNDS]}
b=${2:?usage: gpu-ab.sh A_DIR B_DIR [ROUNDS]}
rounds=${3:-2}
ntt=${AB_NTT-24 27}
spmv=${AB_SPMV-}
setup=${AB_SETUP-}
msm=${AB_MSM---sizes 24,26 --fc-sizes 26 --g2-sizes 24 --reps 5}
part=${AB_PART-26 6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# one round of build $1 (tag $2): "key value" lines into $tmp/$2.$round
run_one() {
    local dir=$1 tag=$2 round=$3 out f=$tmp/$2.$3 envs
    [ "$tag" = A ] && envs=${AB_ENV_A:-} || envs=${AB_ENV_B:-}
    : >"$f"
    if [ "${AB_FF:-1}" = 1 ]; then
        out=$(env $envs "$dir/bin/cuzk-cuda-bench" ff 2>&1) || { echo "$tag: ff failed"; echo "$out"; status=1; }
        awk '/^RESULT/ { split($5, g, "G/s"); print "ff_" $2 "_G/s", g[1] }' <<<"$out" >>"$f"
    fi
    if [ -n "$ntt" ]; then
        out=$(env $envs "$dir/bin/cuzk-cuda-bench" ntt $ntt 2>&1) || { echo "$tag: ntt failed"; echo "$out"; status=1; }
        awk '/^RESULT/ { print $2 "_" $3 "_ms", $4 }' <<<"$out" >>"$f"
    fi
    if [ -n "$spmv" ]; then
        out=$(env $envs "$dir/bin/cuzk-cuda-bench" spmv $spmv 2>&1) || { echo "$tag: spmv failed"; echo "$out"; status=1; }
        awk '/^RESULT/ { print $2 "_" $3 "_ms", $4 }' <<<"$out" >>"$f"
    fi
    if [ -n "$setup" ]; then
        out=$(env $envs "$dir/bin/cuzk-cuda-bench" setup $setup 2>&1) || { echo "$tag: setup failed"; echo "$out"; status=1; }
        awk '/^RESULT/ { print $2 "_" $3 "_ms", $4 }' <<<"$out" >>"$f"
    fi
    if [ -n "$msm" ]; then
        out=$(env $envs "$dir/bin/cuzk-cuda-msm-bench" $msm 2>&1) || { echo "$tag: msm failed"; echo "$out"; status=1; }
        awk '/^msm +n +ms/ { t = 1; next } t && /^[a-z0-9-]+ +2\^[0-9]+ / { print "msm_" $1 "_" $2 "_ms", $3 }' \
            <<<"$out" >>"$f"
    fi
    if [ -n "$part" ]; then
        read -r pk pn <<<"$part"
        out=$(env $envs "$dir/bin/cuzk-bench" partition --log2 "$pk" --count "$pn" --backend cuda 2>&1) ||
            { echo "$tag: partition failed"; echo "$out" | tail -20; status=1; }
        awk -v k="$pk" '$1 == "median" {
                printf "part_2^%s_spmv_ms %s\npart_2^%s_ntt_ms %s\npart_2^%s_msm_h_ms %s\n", k, $5, k, $6, k, $7
                printf "part_2^%s_msm_l_ms %s\npart_2^%s_msm_a_ms %s\npart_2^%s_msm_b1_ms %s\n", k, $8, k, $10, k, $11
                printf "part_2^%s_msm_b2_ms %s\npart_2^%s_device_stages_ms %.2f\n", k, $12, k, $5 + $6 + $7 + $8 + $10 + $11 + $12
                if (dcol) printf "part_2^%s_device_ms %s\n", k, $dcol }
            $1 == "part" { for (i = 1; i <= NF; i++) if ($i == "device") dcol = i }' \
            <<<"$out" >>"$f"
        grep -E '^verified:' <<<"$out" | sed "s/^/$tag round $round partition /"
    fi
    sed "s/^/$tag round $round: /" "$f"
}

for r in $(seq 1 "$rounds"); do
    run_one "$a" A "$r"
    run_one "$b" B "$r"
done

echo
echo "== gpu-ab: medians of $rounds rounds (A = $a${AB_ENV_A:+ with $AB_ENV_A}, B = $b${AB_ENV_B:+ with $AB_ENV_B})"
printf '%-34s %12s %12s %8s\n' figure A B B/A
# median TAG KEY: the median of KEY's values over the rounds of build TAG
median() {
    cat "$tmp"/"$1".* | awk -v k="$2" '$1 == k { print $2 }' | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
cat "$tmp"/A.* | awk '{ print $1 }' | awk '!seen[$0]++' | while read -r key; do
    ma=$(median A "$key")
    mb=$(median B "$key")
    ratio=$(awk -v x="$ma" -v y="$mb" 'BEGIN { if (x > 0 && y != "") printf "%.3f", y / x; else print "-" }')
    printf '%-34s %12s %12s %8s\n' "$key" "$ma" "${mb:--}" "$ratio"
done
exit $status
