#!/usr/bin/env python3
"""ncu-kernels.py — sums an Nsight Compute raw CSV (`ncu --import R --csv
--page raw --print-units base`, with the metric gpu__time_duration.sum) by
kernel and prints a table per call.

    ncu-kernels.py REPORT.csv CALLS [WALL_MS]

CALLS: how many calls of the profiled operation the report holds (the
launches and times are divided by it). WALL_MS: the operation's own timed
median, printed beside the kernels' sum (0 or absent: not printed).
A kernel's name is its function name without template arguments or
parameters ("void cz_k_x<fp_t, 3>(...)" -> "cz_k_x"), so instantiations of
one kernel add up. Exit status 1 when the CSV has no kernel rows or lacks
the two columns it needs."""
import csv
import re
import sys


def short_name(full):
    s = full.strip()
    if s.startswith("void "):
        s = s[5:]
    m = re.match(r"[A-Za-z_][A-Za-z0-9_:]*", s)
    return m.group(0) if m else s[:40]


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path, calls = argv[1], int(argv[2])
    wall = float(argv[3]) if len(argv) > 3 else 0.0
    if calls < 1:
        print("ncu-kernels.py: CALLS must be at least 1", file=sys.stderr)
        return 2
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = None
    for i, r in enumerate(rows):
        if "Kernel Name" in r and "gpu__time_duration.sum" in r:
            head = i
            break
    if head is None:
        print("ncu-kernels.py: no header with 'Kernel Name' and 'gpu__time_duration.sum' in " + path,
              file=sys.stderr)
        return 1
    kn = rows[head].index("Kernel Name")
    tc = rows[head].index("gpu__time_duration.sum")
    scale = 1.0  # nanoseconds per unit of the time column
    per = {}
    for r in rows[head + 1:]:
        if len(r) <= max(kn, tc):
            continue
        v = r[tc].replace(",", "").strip()
        try:
            t = float(v)
        except ValueError:
            # the units row ("nsecond", "usecond", "msecond")
            scale = {"usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6}.get(v, scale)
            continue
        name = short_name(r[kn])
        n, s = per.get(name, (0, 0.0))
        per[name] = (n + 1, s + t * scale)
    if not per:
        print("ncu-kernels.py: no kernel rows in " + path, file=sys.stderr)
        return 1
    total = sum(s for _, s in per.values())
    print("%-36s %9s %10s %7s" % ("kernel", "launches", "ms a call", "share"))
    for name, (n, s) in sorted(per.items(), key=lambda kv: -kv[1][1]):
        print("%-36s %9.1f %10.3f %6.1f%%" % (name, n / calls, s / calls / 1e6, 100.0 * s / total))
    line = "%-36s %9.1f %10.3f %6.1f%%" % ("sum of kernels", sum(n for n, _ in per.values()) / calls,
                                           total / calls / 1e6, 100.0)
    print(line)
    if wall > 0:
        print("%-36s %9s %10.3f" % ("the bench's median, without ncu", "", wall))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
