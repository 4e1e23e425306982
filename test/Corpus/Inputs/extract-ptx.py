#!/usr/bin/env python3
"""Writes the PTX of every gpu.binary in an MLIR file to DIR/<binary>.ptx.

Usage: extract-ptx.py IN.mlir DIR

For upstream's `--gpu-lower-to-nvvm-pipeline="... cubin-format=isa"`, whose
gpu.binary ops hold the PTX as an `assembly = "..."` string (MLIR escapes:
backslash + two hex digits, and a doubled backslash). Prints one line per file
written; exits 1 when the input holds no gpu.binary with an assembly string.
"""
import os
import re
import sys

BINARY = re.compile(r'gpu\.binary\s+@([A-Za-z0-9_$.\-]+)')
ASSEMBLY = re.compile(r'assembly\s*=\s*"((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r'\\(\\|"|[0-9A-Fa-f]{2})')


def unescape(s):
    def one(m):
        g = m.group(1)
        if g in ('\\', '"'):
            return g
        return chr(int(g, 16))
    return ESCAPE.sub(one, s)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    text = open(sys.argv[1], encoding='utf-8').read()
    os.makedirs(sys.argv[2], exist_ok=True)
    starts = [(m.start(), m.group(1)) for m in BINARY.finditer(text)]
    written = 0
    for i, (pos, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        m = ASSEMBLY.search(text, pos, end)
        if not m:
            continue
        path = os.path.join(sys.argv[2], name + '.ptx')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(unescape(m.group(1)))
        print(path)
        written += 1
    if not written:
        sys.exit('extract-ptx: no gpu.binary with an assembly string in ' +
                 sys.argv[1])


if __name__ == '__main__':
    main()
