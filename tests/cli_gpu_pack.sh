#!/usr/bin/env bash
# cli_gpu_pack.sh — the stamp that ties a pack of GPU binaries to its
# sources (scripts/gpu-check.sh, GPU_CHECK_PACK / GPU_CHECK_UNPACK), on a
# small tree outside git (every file of src, bench and tests, and
# CMakeLists.txt): a pack whose stamp matches is unpacked into the build
# folder; one whose stamp does not (a source changed, added or renamed), one
# without a stamp and a missing one are refused with exit 1 and nothing
# unpacked; __pycache__ files do not count. In this repository the stamp is
# 16 hex digits and stable. Building a pack needs nvcc and minutes: not here.
set -u
S=${SRC:-.}
T=$(mktemp -d /tmp/cuzk_cli_gpu_pack.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

R=$T/repo
mkdir -p "$R/scripts" "$R/src/ff" "$R/bench" "$R/tests"
cp "$S/scripts/gpu-check.sh" "$R/scripts/"
echo 'int a;' >"$R/src/ff/a.c"
echo 'int b;' >"$R/bench/b.c"
echo 'int t;' >"$R/tests/test_cuda_x.c"
echo 'project(x)' >"$R/CMakeLists.txt"
stamp() { GPU_CHECK_SRC_HASH=1 "$R/scripts/gpu-check.sh"; }
h1=$(stamp)
[[ "$h1" =~ ^[0-9a-f]{16}$ ]] || bad "stamp '$h1' is not 16 hex digits"
[ "$(stamp)" = "$h1" ] || bad "the stamp changes between two runs"

mkpack() { # stamp file -> pack with bin/dummy (and the commit it names)
    rm -rf "$T/pk" && mkdir -p "$T/pk/bin" && echo hello >"$T/pk/bin/dummy" && echo 0123abcd >"$T/pk/COMMIT"
    [ -n "$1" ] && echo "$1" >"$T/pk/STAMP"
    (cd "$T/pk" && tar -cJf "$2" $( [ -n "$1" ] && echo STAMP ) COMMIT bin/dummy)
}
unpack() { # pack build-dir
    GPU_CHECK_UNPACK=$1 GPU_CHECK_UNPACK_ONLY=1 "$R/scripts/gpu-check.sh" "$2" >"$T/out" 2>&1
}

mkpack "$h1" "$T/good.tar.xz"
unpack "$T/good.tar.xz" "$T/b1" || bad "a matching pack: exit $?: $(cat "$T/out")"
[ "$(cat "$T/b1/bin/dummy" 2>/dev/null)" = hello ] || bad "a matching pack was not unpacked"
grep -q "unpacked.*commit 0123abcd" "$T/out" || bad "no line saying it unpacked, naming the commit: $(cat "$T/out")"

# a source changed: the stamp moves and the old pack is refused
echo 'int a2;' >"$R/src/ff/a.c"
h2=$(stamp)
[ "$h2" != "$h1" ] || bad "a changed source keeps the stamp"
unpack "$T/good.tar.xz" "$T/b2"
rc=$?
[ $rc = 1 ] || bad "a pack of other sources: exit $rc, want 1"
grep -q "built from other sources" "$T/out" || bad "no reason given: $(cat "$T/out")"
[ ! -e "$T/b2/bin/dummy" ] || bad "a pack of other sources was unpacked"
echo 'int a;' >"$R/src/ff/a.c"
[ "$(stamp)" = "$h1" ] || bad "the same sources again give another stamp"

# a file added, a file renamed
echo 'int n;' >"$R/tests/new.c"
[ "$(stamp)" != "$h1" ] || bad "an added source keeps the stamp"
rm "$R/tests/new.c"
mv "$R/bench/b.c" "$R/bench/c.c"
[ "$(stamp)" != "$h1" ] || bad "a renamed source keeps the stamp"
mv "$R/bench/c.c" "$R/bench/b.c"
# byte-compiled Python does not count
mkdir -p "$R/tests/__pycache__" && echo x >"$R/tests/__pycache__/m.pyc"
[ "$(stamp)" = "$h1" ] || bad "a __pycache__ file moves the stamp"

# no stamp, no pack
mkpack "" "$T/nostamp.tar.xz"
unpack "$T/nostamp.tar.xz" "$T/b3"
rc=$?
[ $rc = 1 ] || bad "a pack without a stamp: exit $rc, want 1"
[ ! -e "$T/b3/bin/dummy" ] || bad "a pack without a stamp was unpacked"
unpack "$T/missing.tar.xz" "$T/b4"
rc=$?
[ $rc = 1 ] || bad "a missing pack: exit $rc, want 1"
grep -q "no pack" "$T/out" || bad "a missing pack: $(cat "$T/out")"

# this repository (git's list of files)
hr=$(GPU_CHECK_SRC_HASH=1 "$S/scripts/gpu-check.sh")
[[ "$hr" =~ ^[0-9a-f]{16}$ ]] || bad "this repository's stamp '$hr'"
[ "$(GPU_CHECK_SRC_HASH=1 "$S/scripts/gpu-check.sh")" = "$hr" ] || bad "this repository's stamp is not stable"

[ $fail = 0 ] && echo "cli_gpu_pack: all passed"
exit $fail
