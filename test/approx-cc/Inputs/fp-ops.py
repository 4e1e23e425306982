"""fp-ops.py PTX: each entry's float arithmetic, one op per line, operands
dropped, so two compilers' PTX can be compared by what they compute with
(for kernels without approx sites, which have no approximate copy)."""
import re
import sys

OPS = re.compile(r"^\s*(?:@%p\d+\s+)?((?:fma|mul|add|sub|neg|div|rcp|sqrt|ex2|lg2)"
                 r"\.[a-z0-9.]*f(?:32|64))\s")
for line in open(sys.argv[1]):
    m = re.match(r"^\.visible \.entry (\w+)", line)
    if m:
        print("entry", m.group(1))
    m = OPS.match(line)
    if m:
        print(" ", m.group(1))
