#!/usr/bin/env bash
# gpu-check.sh — one command on a GPU machine: build for sm_90 (unless given
# a build directory with prebuilt binaries), run every GPU test, run the
# kernel benchmarks, and print a short table last.
#
#   scripts/gpu-check.sh             configure + build into build-gpu, then run
#   scripts/gpu-check.sh BUILD_DIR   use BUILD_DIR/tests/test_cuda_*, test_engine
#                                    (the engine on CUDA: the synthetic key made on
#                                    the GPU) and
#                                    BUILD_DIR/bin/cuzk-cuda-bench as they are
#
# Environment: GPU_CHECK_NTT="10 20 24 27", GPU_CHECK_SPMV="24 27" and
# GPU_CHECK_SETUP="20 27" (the Groth16 setup's domain) pick the benchmark
# sizes, GPU_CHECK_SPMV_CIRCUIT="label --copies 252" the real circuit whose
# SpMV is timed (cuzk-cuda-bench spmv-circuit: 32 PoRep labels by default, in thread
# mode as is, with products on bits, and with 64-bit row offsets); GPU_CHECK_OBJ=path/to/ff_api.cu.o adds SASS
# instruction counts of the multiplication kernels (needs cuobjdump);
# GPU_CHECK_SPPARK_NTT=path/to/a/binary that prints "RESULT sppark_ntt 2^k ms"
# for each k it is given (a harness over sppark's NTT, built outside the
# repository) runs sppark in the same run, and the NTT ratios use its times
# instead of the issue's earlier figures.
# GPU_CHECK_SPPARK_MSM (below) does the same for the MSM.
# GPU_CHECK_OVERLAP="0 2" runs the partition bench again with each
# CZ_PROVER_OVERLAP mode, then with the default (1), 6 partitions each
# (default "": skipped, as each run adds about 40 s at 2^26).
# GPU_CHECK_BUILD_ONLY=1 (without BUILD_DIR) builds build-gpu and stops, so
# that on a machine that takes commands of at most 10 minutes the build
# and the run are two commands.
#
# A pack saves the GPU machine the build (~95 s of its time): here, with
# nvcc and no GPU, GPU_CHECK_PACK=FILE builds the same binaries into
# build-gpu-pack without gRPC (pkg-config off, so nothing needs a library
# that machine lacks: checked with ldd), and writes them to FILE (.tar.xz,
# about 13 MB: the binaries share their device code) with a stamp of the
# sources they come from and the commit they were built at (COMMIT, which
# the benches' JSON reports there: CUZK_COMMIT); there, GPU_CHECK_UNPACK=FILE scripts/gpu-check.sh
# [BUILD_DIR] unpacks it into BUILD_DIR (default build-gpu) when the stamp
# matches the sources of that working tree (else it stops: pack again) and
# runs as with BUILD_DIR (GPU_CHECK_UNPACK_ONLY=1: unpack and stop). Keep
# the pack in a git-ignored folder (gpu-pack/) and carry it to the device.
# GPU_CHECK_SRC_HASH=1 prints the stamp of this tree's sources and stops.
# Exit status: 0 when every test passed.
set -u
t_start=$(date +%s)
here=$(cd "$(dirname "$0")/.." && pwd)
tests=(test_engine $(cd "$here/tests" && ls test_cuda_*.c | sed 's/\.c$//'))
benches=(cuzk-cuda-bench cuzk-cuda-msm-bench cuzk-bench)
targets=("${benches[@]}" "${tests[@]}")
pack_files=("${benches[@]/#/bin/}" "${tests[@]/#/tests/}")
# configure DIR for sm_90 without the GMP tests (that machine has no GMP
# header), with any further cmake flags, and build the targets
build_into() {
    local dir=$1
    shift
    cmake -S "$here" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA_ARCHS=90 -DCUZK_GMP_TESTS=OFF "$@" \
        >/dev/null && cmake --build "$dir" --target "${targets[@]}" || { echo "gpu-check: build failed"; exit 1; }
}
# the sources the binaries come from: every file of src, bench and tests
# and CMakeLists.txt, by name and content; a copy of the working tree holds
# git's tracked and not ignored files, so that is the list where git is
# there, and every file of those folders where it is not
src_hash() {
    (
        cd "$here" || exit 1
        if git rev-parse --git-dir >/dev/null 2>&1; then
            git ls-files -co --exclude-standard -- src bench tests CMakeLists.txt
        else
            find src bench tests -type f -not -path '*/__pycache__/*' -not -name '*.o'
            echo CMakeLists.txt
        fi | LC_ALL=C sort -u | while read -r f; do
            [ -f "$f" ] || continue
            printf '%s %s\n' "$(sha256sum <"$f" | cut -c1-64)" "$f"
        done | sha256sum | cut -c1-16
    )
}
if [ "${GPU_CHECK_SRC_HASH:-0}" = 1 ]; then src_hash; exit 0; fi
if [ -n "${GPU_CHECK_PACK:-}" ]; then
    pb=$here/build-gpu-pack
    build_into "$pb" -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON
    for f in "${pack_files[@]}"; do
        extra=$(ldd "$pb/$f" | awk '{ print $1 }' |
            grep -Ev '^(linux-vdso\.so|libstdc\+\+\.so|libm\.so|libgcc_s\.so|libc\.so|/lib64/ld-linux)')
        [ -z "$extra" ] || { echo "gpu-check: $f needs libraries a GPU machine may lack: $extra"; exit 1; }
    done
    src_hash >"$pb/STAMP"
    # the commit the binaries' JSON reports (on the GPU machine the copy's
    # git history may be older than its files): git's name of this tree
    git -C "$here" describe --always --dirty --abbrev=12 >"$pb/COMMIT" 2>/dev/null || echo unknown >"$pb/COMMIT"
    mkdir -p "$(dirname "$GPU_CHECK_PACK")"
    tar -C "$pb" -cf - STAMP COMMIT "${pack_files[@]}" | xz -T1 --lzma2=preset=9,dict=192MiB >"$GPU_CHECK_PACK.tmp" &&
        mv "$GPU_CHECK_PACK.tmp" "$GPU_CHECK_PACK" || { echo "gpu-check: cannot write $GPU_CHECK_PACK"; exit 1; }
    echo "gpu-check: packed ${#pack_files[@]} binaries of sources $(cat "$pb/STAMP") into $GPU_CHECK_PACK" \
         "($(wc -c <"$GPU_CHECK_PACK") bytes) in $(( $(date +%s) - t_start )) s"
    exit 0
fi
build=${1:-}
if [ -n "${GPU_CHECK_UNPACK:-}" ]; then
    [ -f "$GPU_CHECK_UNPACK" ] || { echo "gpu-check: no pack $GPU_CHECK_UNPACK"; exit 1; }
    have=$(tar -xJOf "$GPU_CHECK_UNPACK" STAMP 2>/dev/null)
    want=$(src_hash)
    [ -n "$have" ] && [ "$have" = "$want" ] ||
        { echo "gpu-check: $GPU_CHECK_UNPACK was built from other sources (stamp '$have', these $want): pack again"; exit 1; }
    build=${build:-$here/build-gpu}
    mkdir -p "$build" && tar -C "$build" -xJf "$GPU_CHECK_UNPACK" ||
        { echo "gpu-check: cannot unpack $GPU_CHECK_UNPACK into $build"; exit 1; }
    commit=$(cat "$build/COMMIT" 2>/dev/null)
    # the benches write it into their JSON (unless CUZK_COMMIT says otherwise)
    [ -n "$commit" ] && export CUZK_COMMIT=${CUZK_COMMIT:-$commit}
    echo "gpu-check: unpacked $GPU_CHECK_UNPACK (sources $have, commit ${commit:-not recorded}) into $build"
    [ "${GPU_CHECK_UNPACK_ONLY:-0}" = 1 ] && exit 0
fi
if [ -z "$build" ]; then
    build=$here/build-gpu
    build_into "$build"
    if [ "${GPU_CHECK_BUILD_ONLY:-0}" = 1 ]; then
        echo "gpu-check: built into $build in $(( $(date +%s) - t_start )) s; run scripts/gpu-check.sh $build"
        exit 0
    fi
fi
rows=()
status=0

echo "== device"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv 2>/dev/null ||
    echo "(nvidia-smi not available)"

echo "== tests"
for t in "$build"/tests/test_cuda_* "$build"/tests/test_engine; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    start=$(date +%s%N)
    if out=$("$t" 2>&1); then res=PASS; else res=FAIL; status=1; fi
    msecs=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$out" | tail -n 25
    grep -q "SKIP" <<<"$out" && res=SKIP && status=1
    rows+=("test $name - $msecs $res")
done

bench=$build/bin/cuzk-cuda-bench
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
case "$card" in
*H200*) sppark_src="the issue's earlier run on this H200" ;;
*) sppark_src="the issue's earlier run on an H200, not this ${card:-card}: ratios across cards" ;;
esac
declare -A sppark_ms=([2^20]=0.28 [2^24]=4.7 [2^26]=23.8 [2^27]=44.4)
if [ -n "${GPU_CHECK_SPPARK_NTT:-}" ] && [ -x "$GPU_CHECK_SPPARK_NTT" ]; then
    echo "== sppark NTT, same run"
    sppark_ms=()
    if out=$("$GPU_CHECK_SPPARK_NTT" ${GPU_CHECK_NTT:-10 16 20 22 24 26 27} 2>&1); then
        sppark_src="this run"
    else
        echo "gpu-check: sppark harness failed"; status=1
    fi
    echo "$out"
    while read -r _ kernel size ms note; do
        sppark_ms[$size]=$ms
        rows+=("$kernel $size $ms - $note")
    done < <(grep '^RESULT' <<<"$out")
fi
sppark_ntt() { echo "${sppark_ms[$1]:-}"; }
if [ -x "$bench" ]; then
    echo "== benchmarks"
    for b in "ff" "ntt ${GPU_CHECK_NTT:-10 16 20 22 24 26 27}" "spmv ${GPU_CHECK_SPMV:-20 24 27}" \
        "spmv-circuit ${GPU_CHECK_SPMV_CIRCUIT:-label --copies 32 --modes thread,thread/mul,thread/wide}" "setup ${GPU_CHECK_SETUP:-20}"; do
        out=$($bench $b 2>&1) || { status=1; echo "$out"; echo "gpu-check: bench $b failed"; continue; }
        echo "$out" | grep -v '^RESULT'
        while read -r _ kernel size ms note; do
            ref=""
            [ "$kernel" = ntt_fwd ] && ref=$(sppark_ntt "$size")
            ratio=-
            [ -n "$ref" ] && ratio=$(awk -v a="$ms" -v b="$ref" 'BEGIN { printf "%.2f", a / b }')
            rows+=("$kernel $size $ms $ratio $note")
        done < <(grep '^RESULT' <<<"$out")
    done
fi

# the MSM: G1 random and Filecoin-shaped scalars, G2 random; with
# GPU_CHECK_SPPARK_MSM=path/to/libsppark_msm.so (a harness built outside the
# repository; GPU_CHECK_SPPARK_MSM_PRELOAD names a library to preload with
# it) sppark's G1 MSM runs on the same inputs in the same process
msm_bench=$build/bin/cuzk-cuda-msm-bench
msm_src="not measured"
if [ -x "$msm_bench" ]; then
    echo "== MSM benchmark"
    margs=(${GPU_CHECK_MSM_ARGS:---reps 7})
    if [ -n "${GPU_CHECK_SPPARK_MSM:-}" ] && [ -f "$GPU_CHECK_SPPARK_MSM" ]; then
        margs+=(--sppark "$GPU_CHECK_SPPARK_MSM")
        msm_src="this run"
    fi
    if out=$(LD_PRELOAD=${GPU_CHECK_SPPARK_MSM_PRELOAD:-} "$msm_bench" "${margs[@]}" 2>&1); then :; else
        status=1; echo "gpu-check: MSM bench failed"
    fi
    echo "$out"
    # the table after the "msm n ms sppark ms ratio" header
    while read -r what size ms sp ratio; do
        [ "$ratio" = - ] && ratio=-
        rows+=("msm_$what $size $ms $ratio sppark=${sp}ms")
    done < <(awk '/^msm +n +ms/ { t = 1; next } t && /^[a-z0-9-]+ +2\^[0-9]+ / { print }' <<<"$out")
fi

# the whole partition proof: N partitions of the 2^K Filecoin-shaped
# synthetic circuit back to back on the CUDA backend, key made on the GPU,
# every proof verified (GPU_CHECK_PARTITION="K N", default "26 10"; "0"
# skips it; scripts/gpu-check-2p27.sh runs 2^27)
part_bench=$build/bin/cuzk-bench
# from a partition bench's output: the median line's "device" column (the
# device's wall, first kernel to last sum; found by the header's name) and
# the verified count
part_device() { awk '$1 == "part" { for (i = 1; i <= NF; i++) if ($i == "device") c = i }
                     $1 == "median" && c { print $c }' <<<"$1"; }
part_verified() { awk -F: '/^verified:/ { gsub(/^ +/, "", $2); print $2 }' <<<"$1"; }
read -r pk pn <<<"${GPU_CHECK_PARTITION:-26 10}"
if [ -x "$part_bench" ] && [ "${pk:-0}" != 0 ]; then
    echo "== partition proof 2^$pk x ${pn:-10} (cuzk-bench partition)"
    pjson=${GPU_CHECK_PARTITION_JSON:-/tmp/gpu-check-partition-$pk.json}
    if out=$("$part_bench" partition --log2 "$pk" --count "${pn:-10}" --backend cuda --json "$pjson" 2>&1); then :; else
        status=1; echo "gpu-check: partition bench failed"
    fi
    echo "$out" | grep -v '^cuzk-bench partition: partition '
    # the device stages of the median line (spmv ntt msm_h msm_l msm_a
    # msm_b1 msm_b2: with several workers a partition's wall also holds its
    # wait for the device) and the loop's wall per partition
    dev=$(awk '$1 == "median" { printf "%.2f", $5 + $6 + $7 + $8 + $10 + $11 + $12 }' <<<"$out")
    # the device's wall (below the stages' sum when H runs beside the witness MSMs)
    wall=$(part_device "$out")
    per=$(awk -v n="${pn:-10}" '/^loop wall:/ { printf "%.1f", $3 / n }' <<<"$out")
    busy=$(awk -F: '/^device busy:/ { gsub(/ /, "", $2); print $2 }' <<<"$out" | cut -d'(' -f1)
    fed=$(awk -F: '/^device busy, fed:/ { gsub(/ /, "", $2); print $2 }' <<<"$out" | cut -d'(' -f1)
    ver=$(part_verified "$out")
    rows+=("partition 2^$pk ${wall:-?} - device_ms,stages_sum=${dev:-?},loop_ms_per_partition=${per:-?},device_busy=${busy:-?},fed=${fed:-?},verified=${ver// /_}")
    # the same with each CZ_PROVER_OVERLAP mode of GPU_CHECK_OVERLAP
    # (docs/GPU_PROVER.md; default "": none), 6 partitions, then the default
    # (1) again, so the modes can be compared within this run
    ov_modes=${GPU_CHECK_OVERLAP-}
    for m in $ov_modes ${ov_modes:+1}; do
        echo "== partition proof 2^$pk x 6, CZ_PROVER_OVERLAP=$m"
        if out=$(CZ_PROVER_OVERLAP=$m "$part_bench" partition --log2 "$pk" --count 6 --backend cuda 2>&1); then :; else
            status=1; echo "gpu-check: partition bench (overlap $m) failed"
        fi
        echo "$out" | grep -E '^(part |median|device busy|verified|VRAM)'
        wall=$(part_device "$out")
        ver=$(part_verified "$out")
        rows+=("partition_overlap$m 2^$pk ${wall:-?} - device_ms,6_partitions,verified=${ver// /_}")
    done
fi

if [ -n "${GPU_CHECK_OBJ:-}" ] && command -v cuobjdump >/dev/null; then
    echo "== SASS of the multiplication benchmark kernels (sm_90)"
    cuobjdump --dump-sass -arch sm_90 "$GPU_CHECK_OBJ" 2>/dev/null | awk '
        /Function :/ { if (f != "") print f, imad, iadd, dfma, dadd, tot
                       f=$3; imad=0; iadd=0; dfma=0; dadd=0; tot=0; next }
        /\/\*[0-9a-f]+\*\// { tot++; if ($0 ~ /IMAD/) imad++; if ($0 ~ /IADD/) iadd++
                              if ($0 ~ /DFMA/) dfma++; if ($0 ~ /DADD/) dadd++ }
        END { if (f != "") print f, imad, iadd, dfma, dadd, tot }' | grep k_bench |
        awk '{ printf "%-60s IMAD %5d  IADD3 %5d  DFMA %5d  DADD %5d  all %5d\n", $1, $2, $3, $4, $5, $6 }'
fi

echo
echo "== gpu-check summary (ms; ratio = ours / sppark; sppark NTT figures from $sppark_src, sppark MSM $msm_src)"
printf '%-16s %-7s %10s %7s  %s\n' kernel size ms ratio note
for r in "${rows[@]}"; do
    set -- $r
    if [ "$1" = test ]; then
        printf '%-16s %-7s %10s %7s  %s\n' "$2" - "$4" - "$5"
    else
        printf '%-16s %-7s %10s %7s  %s\n' "$1" "$2" "$3" "$4" "${5:-}"
    fi
done
echo "gpu-check: $(( $(date +%s) - t_start )) s in all (build included when it built)"
exit $status
