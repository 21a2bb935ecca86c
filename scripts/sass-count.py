#!/usr/bin/env python3
"""sass-count.py — instruction classes of the kernels in a CUDA cubin, for
machines without cuobjdump (nvcc alone can make the cubin):

    nvcc -arch=sm_90 -O3 -std=c++17 -Isrc --expt-relaxed-constexpr -cubin \\
         -o /tmp/ff.cubin src/cuda/ff_api.cu
    scripts/sass-count.py /tmp/ff.cubin [NAME_PART]

One line a kernel (.text.* section; NAME_PART filters by the mangled name):
the counts of IMAD.WIDE (WIDE), IMAD.HI (HI), the other IMADs (IMAD.X,
IMAD.MOV, ...), IADD3, LOP3, SEL and all instructions. sm_80/sm_90
instructions are 16 bytes; the low 9 bits of the first word name the
operation (read off `cuobjdump --dump-sass` of this project's kernels on
sm_90: 0x24 IMAD, 0x25 IMAD.WIDE, 0x27 IMAD.HI, 0x10 IADD3, 0x12 LOP3,
0x07 SEL, 0x02 MOV), the next three bits the operand form (register,
immediate, constant). On the H200 a whole 32 x 32 -> 64 product costs the
IMAD pipe about four clocks a warp whether it is one IMAD.WIDE or an IMAD
plus an IMAD.HI, the pair taking two issue slots (docs/CUDA.md)."""
import collections
import struct
import subprocess
import sys

CLASSES = {0x24: "IMAD", 0x25: "WIDE", 0x27: "HI", 0x10: "IADD3", 0x12: "LOP3", 0x07: "SEL", 0x02: "MOV"}
SHOWN = ["WIDE", "HI", "IMAD", "IADD3", "LOP3", "SEL", "all"]


def text_sections(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"{path}: not a 64-bit ELF cubin (make one with nvcc -cubin)")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = heads[shstrndx][4]
    for h in heads:
        name = data[names + h[0]:data.index(b"\0", names + h[0])].decode()
        if name.startswith(".text."):
            yield name[6:], data[h[4]:h[4] + h[5]]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    part = sys.argv[2] if len(sys.argv) > 2 else ""
    rows = []
    for name, code in text_sections(sys.argv[1]):
        if part not in name:
            continue
        count = collections.Counter()
        for i in range(0, len(code) - 15, 16):
            word, = struct.unpack_from("<Q", code, i)
            count[CLASSES.get(word & 0x1FF, "other")] += 1
            count["all"] += 1
        rows.append((name, count))
    if not rows:
        sys.exit(f"{sys.argv[1]}: no kernel matches '{part}'")
    names = subprocess.run(["c++filt"] + [r[0] for r in rows], capture_output=True, text=True).stdout.split("\n")
    for (name, count), shown in zip(rows, names):
        print(f"{(shown or name)[:72]:72s} " + " ".join(f"{k} {count[k]:5d}" for k in SHOWN))


if __name__ == "__main__":
    main()
