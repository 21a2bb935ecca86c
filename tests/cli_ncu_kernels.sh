#!/usr/bin/env bash
# cli_ncu_kernels.sh — scripts/ncu-kernels.py (the table of
# scripts/gpu-profile-msm.sh) on CSVs in Nsight Compute's raw layout: times
# summed by kernel name (template arguments and parameters dropped),
# divided by the calls, largest first, shares adding to 100 %; a units row
# in microseconds scaled; a CSV without the columns, or without kernel
# rows, refused with exit 1; bad arguments exit 2.
set -u
PY=${PYTHON:-python3}
S=${SRC:-.}/scripts/ncu-kernels.py
T=$(mktemp -d /tmp/cuzk_cli_ncu.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

hdr='"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","gpu__time_duration.sum"'
row() { # id name time
    printf '"%s","77","cuzk-cuda-msm-bench","127.0.0.1","%s","1","13","(128, 1, 1)","(4096, 1, 1)","0","9.0","%s"\n' "$1" "$2" "$3"
}
{
    echo "$hdr"
    echo '"","","","","","","","","","","","nsecond"'
    row 0 'void cz_k_segment_sums<fp_t, cz_in_aff<fp_t>>(cz_in_aff<fp_t>, const unsigned int *, unsigned int)' 60000000
    row 1 'void cub::DeviceRadixSortOnesweepKernel<Policy, false, unsigned int, unsigned int>(int *, int)' 3,000,000
    row 2 'void cz_k_bucket_segments<fp_t>(const cz_xyzz_t<fp_t> *, unsigned int)' 9000000
    row 3 'void cz_k_segment_sums<fp_t, cz_in_aff<fp_t>>(cz_in_aff<fp_t>, const unsigned int *, unsigned int)' 60000000
    row 4 'void cub::DeviceRadixSortOnesweepKernel<Policy, false, unsigned int, unsigned int>(int *, int)' 3000000
    row 5 'void cz_k_bucket_segments<fp_t>(const cz_xyzz_t<fp_t> *, unsigned int)' 9000000
    row 6 'cz_k_classify' 1000000
    row 7 'cz_k_classify' 1000000
} >"$T/a.csv"
"$PY" "$S" "$T/a.csv" 2 75.5 >"$T/out" 2>"$T/err" || bad "a good CSV: exit $?: $(cat "$T/err")"
# 146 ms in 8 launches over 2 calls: 73 ms a call
grep -Eq '^cz_k_segment_sums +1\.0 +60\.000 +82\.2%$' "$T/out" || bad "level 0 row: $(cat "$T/out")"
grep -Eq '^cub::DeviceRadixSortOnesweepKernel +1\.0 +3\.000 +4\.1%$' "$T/out" || bad "sort row (thousands separators): $(cat "$T/out")"
grep -Eq '^cz_k_bucket_segments +1\.0 +9\.000 +12\.3%$' "$T/out" || bad "bucket row: $(cat "$T/out")"
grep -Eq '^cz_k_classify +1\.0 +1\.000 +1\.4%$' "$T/out" || bad "a name without parameters: $(cat "$T/out")"
grep -Eq '^sum of kernels +4\.0 +73\.000 +100\.0%$' "$T/out" || bad "sum row: $(cat "$T/out")"
grep -Eq "^the bench's median, without ncu +75\.500$" "$T/out" || bad "wall row: $(cat "$T/out")"
# largest first
order=$(awk 'NR > 1 && $1 != "sum" && $1 != "the" { print $1 }' "$T/out" | tr '\n' ' ')
[ "$order" = "cz_k_segment_sums cz_k_bucket_segments cub::DeviceRadixSortOnesweepKernel cz_k_classify " ] ||
    bad "order: $order"

# microseconds in the units row
{
    echo "$hdr"
    echo '"","","","","","","","","","","","usecond"'
    row 0 'void k_a<1>(int)' 1500
    row 1 'void k_b(int)' 500
} >"$T/u.csv"
"$PY" "$S" "$T/u.csv" 1 >"$T/out" 2>"$T/err" || bad "usecond CSV: exit $?"
grep -Eq '^k_a +1\.0 +1\.500 +75\.0%$' "$T/out" || bad "usecond scaling: $(cat "$T/out")"
grep -q "bench's median" "$T/out" && bad "a wall row without a wall"

# refusals
echo '"ID","Kernel Name","Duration"' >"$T/n.csv"
"$PY" "$S" "$T/n.csv" 1 >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "no header" "$T/err" || bad "a CSV without the metric column: $(cat "$T/err")"
{ echo "$hdr"; echo '"","","","","","","","","","","","nsecond"'; } >"$T/e.csv"
"$PY" "$S" "$T/e.csv" 1 >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "no kernel rows" "$T/err" || bad "a CSV without kernels: $(cat "$T/err")"
"$PY" "$S" "$T/a.csv" 0 >/dev/null 2>&1
[ $? = 2 ] || bad "CALLS 0 accepted"
"$PY" "$S" >/dev/null 2>&1
[ $? = 2 ] || bad "no arguments accepted"

# the profile script refuses bad arguments before it looks for ncu
bash "${SRC:-.}/scripts/gpu-profile-msm.sh" "$T" g3 24 >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "g1, fc or g2" "$T/err" || bad "gpu-profile-msm.sh g3: $(cat "$T/err")"
bash "${SRC:-.}/scripts/gpu-profile-msm.sh" "$T" g1 24 >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "no $T/bin/cuzk-cuda-msm-bench" "$T/err" || bad "gpu-profile-msm.sh without a bench: $(cat "$T/err")"

[ "$fail" = 0 ] && echo "cli_ncu_kernels: all passed"
exit $fail
