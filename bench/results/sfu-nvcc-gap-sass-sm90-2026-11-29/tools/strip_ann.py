#!/usr/bin/env python3
"""strip_ann.py IN OUT - drop every loop's `attributes {loop_annotation = ...}`
that sets no unroll (clang's mustProgress/startLoc/endLoc, inline or through a
#loop_annotationN alias), so that approx-unroll-versioned (which skips loops
already holding a loop_annotation) marks the split loops as it does for MLIR input."""
import re, sys
s = open(sys.argv[1]).read()
alias = {m.group(1): m.group(2) for m in re.finditer(r'^(#loop_annotation\d*) = (.*)$', s, re.M)}
n = 0
def rep(m):
    global n
    val = m.group(1)
    txt = alias.get(val, val)
    if 'unroll' in txt: return m.group(0)
    n += 1; return ''
s = re.sub(r' attributes \{loop_annotation = (#loop_annotation\d*|#llvm\.loop_annotation<[^{}]*?>)\}', rep, s)
open(sys.argv[2], 'w').write(s); print(f"{sys.argv[1]}: {n} annotations dropped", file=sys.stderr)
