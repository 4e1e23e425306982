#!/usr/bin/env python3
"""extract.py FILE.nvd START END [--raw] - instructions in [START, END] (hex), registers
normalised to R/P (for diffing two builds' loops) unless --raw."""
import re, sys
s, e = int(sys.argv[2], 16), int(sys.argv[3], 16)
for line in open(sys.argv[1]):
    m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', line)
    if m and s <= int(m.group(1), 16) <= e:
        t = re.sub(r'\s+', ' ', m.group(2))
        if '--raw' not in sys.argv: t = re.sub(r'\bU?R\d+\b', 'R', t); t = re.sub(r'\bU?P\d\b', 'P', t); t = t.replace('.reuse', '')
        print(t)
