#!/usr/bin/env python3
"""box-data.py - the inputs too large to carry, made on the GPU machine.

    box-data.py DATADIR

prepare.sh carries the compact sources (the 512x512 images scikit-image
bundles, xz-compressed, and the hmmlearn models' data); this script, with numpy only (no
install: the GPU machine has no network), makes the rest as
prepare-data.py does, with its own functions and seeds: the 2048x2048
mirrored tilings of the images and the option-pricing sets.
"""
import glob
import importlib.util
import lzma
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("prepare_data",
                                              os.path.join(here, "prepare-data.py"))
pd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pd)
pd.np = np

if len(sys.argv) != 2:
    sys.exit("usage: box-data.py DATADIR")
root = os.path.abspath(sys.argv[1])
for xz in sorted(glob.glob(os.path.join(root, "image", "*-512.src.f64.xz"))):
    raw = xz[:-3]
    if not os.path.exists(raw):
        with open(raw, "wb") as f:
            f.write(lzma.decompress(open(xz, "rb").read()))
for src in sorted(glob.glob(os.path.join(root, "image", "*-512.src.f64"))):
    dst = src.replace("-512.src.f64", ".src.f64")
    if os.path.exists(dst) and os.path.getsize(dst) == 2048 * 2048 * 8:
        continue
    img = np.fromfile(src, dtype="<f8").reshape(512, 512)
    pd.mirror_tile(img, 4).astype("<f8").tofile(dst)
for s in pd.option_sets(root, 4_000_000):
    pd.realise(s, root)
print("box-data: images tiled to 2048x2048, option sets written under", root)
