#!/usr/bin/env bash
# cli_gpu_ab.sh — scripts/gpu-ab.sh on stand-in benchmark binaries (no GPU
# needed): its last table holds each figure's median over the rounds for
# both builds and their ratio, and a failing benchmark makes it exit non-zero.
set -u
SRC=${SRC:-.}
T=$(mktemp -d /tmp/cuzk_cli_gpu_ab.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# make_build DIR "FR1 FR2 FR3" NTT_MS MSM_MS "SPMV NTT H L A B1 B2 DEVICE" [PART_RC]
# cuzk-cuda-bench ff prints the next Fr rate of its list on each call
make_build() {
    local d=$1 rates=$2 ntt=$3 msm=$4 stages=$5 prc=${6:-0}
    mkdir -p "$d/bin"
    echo 0 >"$d/calls"
    cat >"$d/bin/cuzk-cuda-bench" <<EOF
#!/usr/bin/env bash
if [ "\$1" = ff ]; then
    n=\$(cat "$d/calls"); echo \$((n + 1)) >"$d/calls"
    set -- $rates
    shift \$n
    echo "fr_mul_eo  \$1 G/s (a human line the table ignores)"
    echo "RESULT fr_mul_eo - 1.000 \${1}G/s=80.0%ceil"
else
    echo "RESULT ntt_fwd 2^24 $ntt 100GB/s-per-pass"
fi
EOF
    cat >"$d/bin/cuzk-cuda-msm-bench" <<EOF
#!/usr/bin/env bash
printf '\nmsm                n         ms  sppark ms    ratio\n'
printf 'g1-random      2^24      $msm          -        -\n'
EOF
    cat >"$d/bin/cuzk-bench" <<EOF
#!/usr/bin/env bash
set -- $stages
echo "part        wall   witness    upload      spmv       ntt     msm_h     msm_l    msm_hl     msm_a    msm_b1    msm_b2     total    verify    device    h2d_bytes"
echo "median   900.00 100.00 10.00 \$1 \$2 \$3 \$4 0.00 \$5 \$6 \$7 900.00 1.00 \$8 1000"
echo "verified:           4 of 4 proofs"
exit $prc
EOF
    chmod +x "$d/bin/"*
}

make_build "$T/A" "50 53 51" 4.5 112.00 "15 124 421 63 45 38 104 700"
make_build "$T/B" "61 60 66" 4.0 109.00 "15 118 412 62 44 37 103 690"
AB_SPMV= AB_SETUP= AB_NTT=24 AB_MSM="--sizes 24" AB_PART="26 4" \
    bash "$SRC/scripts/gpu-ab.sh" "$T/A" "$T/B" 3 >"$T/out" 2>&1
rc=$?
[ "$rc" = 0 ] || { bad "gpu-ab exit $rc, want 0"; cat "$T/out"; }
row() { awk -v k="$1" '$1 == k { print $2, $3, $4 }' "$T/out" | tail -1; }
[ "$(row ff_fr_mul_eo_G/s)" = "51 61 1.196" ] || bad "ff row: '$(row ff_fr_mul_eo_G/s)', want '51 61 1.196'"
[ "$(row ntt_fwd_2^24_ms)" = "4.5 4.0 0.889" ] || bad "ntt row: '$(row ntt_fwd_2^24_ms)'"
[ "$(row msm_g1-random_2^24_ms)" = "112.00 109.00 0.973" ] || bad "msm row: '$(row msm_g1-random_2^24_ms)'"
[ "$(row part_2^26_msm_h_ms)" = "421 412 0.979" ] || bad "msm_h row: '$(row part_2^26_msm_h_ms)'"
# device stages: spmv + ntt + the five MSMs (not msm_hl, not the wall)
[ "$(row part_2^26_device_stages_ms)" = "810.00 791.00 0.977" ] ||
    bad "device stages row: '$(row part_2^26_device_stages_ms)', want '810.00 791.00 0.977'"
# the device's wall: the column named device
[ "$(row part_2^26_device_ms)" = "700 690 0.986" ] || bad "device row: '$(row part_2^26_device_ms)', want '700 690 0.986'"
[ "$(grep -c 'partition verified: *4 of 4' "$T/out")" = 6 ] || bad "verified lines: $(grep -c 'partition verified' "$T/out"), want 6"
grep -q "^A round 3: ff_fr_mul_eo_G/s 51$" "$T/out" || bad "per-round lines missing"

# a benchmark that fails: gpu-ab says so and exits non-zero
make_build "$T/C" "50 50" 4.5 112.00 "15 124 421 63 45 38 104 700" 1
AB_SPMV= AB_SETUP= AB_NTT=24 AB_MSM="--sizes 24" AB_PART="26 4" \
    bash "$SRC/scripts/gpu-ab.sh" "$T/A" "$T/C" 1 >"$T/out2" 2>&1
rc=$?
[ "$rc" != 0 ] || bad "a failing partition bench gave exit 0"
grep -q "B: partition failed" "$T/out2" || bad "the failure is not named"

# missing arguments: a usage line, exit non-zero
bash "$SRC/scripts/gpu-ab.sh" >"$T/out3" 2>&1 && bad "no arguments gave exit 0"
grep -q "usage" "$T/out3" || bad "no usage line without arguments"

[ "$fail" = 0 ] && echo "cli_gpu_ab: ok"
exit $fail
