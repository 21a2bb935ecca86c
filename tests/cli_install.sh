#!/usr/bin/env bash
# cli_install.sh — `make install-files` (the copy step of `make install`) into
# a DESTDIR, with the default PREFIX and with another one: the binaries, the
# example config and the systemd unit must land where the Makefile says, the
# unit's ExecStart must follow the prefix, cuzk-daemon is installed exactly
# when it was built, and the installed binaries run. The unit is checked with
# systemd-analyze when that exists.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make -s -C "$SRC" install-files BUILD="$BUILD" DESTDIR="$tmp/d1" >"$tmp/log1" 2>&1 \
    || { echo "make install-files failed"; cat "$tmp/log1"; fail=1; }
p="$tmp/d1/usr/local"
for f in bin/cuzk bin/cuzk-bench; do
  [ -x "$p/$f" ] || { echo "missing executable $p/$f"; fail=1; }
done
[ -f "$p/share/cuzk/cuzk.example.toml" ] || { echo "missing share/cuzk/cuzk.example.toml"; fail=1; }
cmp -s "$p/share/cuzk/cuzk.example.toml" "$SRC/cuzk.example.toml" || { echo "example config differs"; fail=1; }
unit="$p/lib/systemd/system/cuzk-daemon.service"
[ -f "$unit" ] || { echo "missing $unit"; fail=1; }
cmp -s "$unit" "$SRC/contrib/cuzk-daemon.service" || { echo "unit under /usr/local differs from contrib/"; fail=1; }
if [ -x "$BUILD/bin/cuzk-daemon" ]; then
  [ -x "$p/bin/cuzk-daemon" ] || { echo "cuzk-daemon was built but not installed"; fail=1; }
else
  [ -e "$p/bin/cuzk-daemon" ] && { echo "cuzk-daemon installed without being built"; fail=1; }
fi
"$p/bin/cuzk-bench" waterfall "$SRC/tests/data/waterfall/crafted.log" >/dev/null \
    || { echo "installed cuzk-bench does not run"; fail=1; }

# another prefix: ExecStart and the documentation path follow it
make -s -C "$SRC" install-files BUILD="$BUILD" DESTDIR="$tmp/d2" PREFIX=/opt/cuzk >"$tmp/log2" 2>&1 \
    || { echo "make install-files PREFIX=/opt/cuzk failed"; cat "$tmp/log2"; fail=1; }
u2="$tmp/d2/opt/cuzk/lib/systemd/system/cuzk-daemon.service"
[ -x "$tmp/d2/opt/cuzk/bin/cuzk" ] || { echo "PREFIX not honoured for bin/"; fail=1; }
grep -qx 'ExecStart=/opt/cuzk/bin/cuzk-daemon -c /etc/cuzk/cuzk.toml' "$u2" \
    || { echo "ExecStart does not follow PREFIX"; grep ExecStart "$u2"; fail=1; }
grep -q 'LD_LIBRARY_PATH=/usr/local/cuda/lib64' "$u2" || { echo "CUDA path rewritten"; fail=1; }

# the unit's promises
for k in 'ExecStart=/usr/local/bin/cuzk-daemon -c /etc/cuzk/cuzk.toml' 'Restart=on-failure' \
         'KillSignal=SIGTERM' 'LimitMEMLOCK=infinity' 'User=cuzk'; do
  grep -qxF "$k" "$unit" || { echo "unit lacks $k"; fail=1; }
done
# TimeoutStopSec must cover the default shutdown_timeout (60s in the example)
stop=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)$/\1/p' "$unit")
grace=$(sed -n 's/^shutdown_timeout = "\([0-9]*\)s"$/\1/p' "$SRC/cuzk.example.toml")
if [ -z "$stop" ] || [ -z "$grace" ] || [ "$stop" -le "$grace" ]; then
  echo "TimeoutStopSec ($stop) must exceed shutdown_timeout ($grace s)"; fail=1
fi

if command -v systemd-analyze >/dev/null; then
  # a prefix without DESTDIR, so ExecStart names a file that exists
  make -s -C "$SRC" install-files BUILD="$BUILD" PREFIX="$tmp/p3" >/dev/null 2>&1
  [ -e "$tmp/p3/bin/cuzk-daemon" ] || cp "$tmp/p3/bin/cuzk" "$tmp/p3/bin/cuzk-daemon"
  timeout 30 systemd-analyze verify "$tmp/p3/lib/systemd/system/cuzk-daemon.service" >"$tmp/v" 2>&1
  if grep -iE 'unknown|invalid|failed to parse|bad|ignoring' "$tmp/v"; then
    echo "systemd-analyze verify complains"; fail=1
  fi
fi

[ $fail = 0 ] && echo "cli_install: ok"
exit $fail
