#!/usr/bin/env python3
"""xlns-check.py - cross-check the LNS tables against the xlns package.

    bench/lns/xlns-check.py BUILD_DIR

xlns (PyPI; Arnold's reference LNS library) computes sb/db as "ideal"
Gaussian logs: log_B|1 +- B^z| rounded to its F fractional bits. This script
draws a fixed sample of x on the grid 2^-F in [-32, 0), gets sb and db from
xlns (F = 18) and from our tables as the GPU computes them (lns-eval, the
CPU evaluators that lns-bench shows bit-identical to the GPU), and prints
the max difference per table; xlns's own rounding (2^-19) is part of it.
Needs: pip install xlns numpy; BUILD_DIR with passes/lns/math built.
"""
import os
import subprocess
import sys

import numpy as np
import xlns

F = 18
xlns.xlnssetF(F)
root = os.path.dirname(os.path.abspath(__file__))
build = sys.argv[1] if len(sys.argv) > 1 else "build"
exe = os.path.join(build, "lns-eval")
lib = os.path.join(build, "passes", "lns", "math", "libapprox_lns_math.a")
src = os.path.join(root, "..", "..")
subprocess.run(["c++", "-O2", "-std=c++17", "-I" + os.path.join(src, "passes", "lns", "math"),
                "-I" + os.path.join(src, "include"), "-I" + os.path.join(src, ".carry", "cli11"),
                os.path.join(root, "lns-eval.cpp"), lib, "-o", exe], check=True)

rng = np.random.default_rng(20261122)
z = -rng.integers(1, 32 << F, 20000)            # x = z / 2^F, exact in f32
x = z / float(1 << F)
# xlns: sbdb_ufunc_ideal(z, s) = 2 * round(log_B |1 - 2s + B^min(-s, z)|),
# B = 2^(2^-F); s = 0 is sb, s = 1 is db (the 2 is its sign-bit packing).
sb_x = xlns.sbdb_ufunc_ideal(z, 0) / 2 / float(1 << F)
db_x = xlns.sbdb_ufunc_ideal(z, 1) / 2 / float(1 << F)
print("| table | max |sb - xlns| | max |db - xlns| (x <= -1) | max |db - xlns| (-1 < x < 0) |")
print("| --- | --- | --- | --- |")
for impl, k in (("texture2", 64), ("texture3", 64), ("texture1", 256), ("horner", 1)):
    out = subprocess.run([exe, impl, str(k)], input="\n".join("%.9g" % v for v in x),
                         capture_output=True, text=True, check=True).stdout.split()
    vals = np.array(out, dtype=np.float64).reshape(-1, 3)
    far = x <= -1
    dsb = np.abs(vals[:, 1] - sb_x).max()
    ddb = np.abs(vals[far, 2] - db_x[far]).max()
    dnear = np.abs(vals[~far, 2] - db_x[~far]).max()
    print("| %s k=%d | %.3g | %.3g | %.3g |" % (impl, k, dsb, ddb, dnear))
