#!/usr/bin/env bash
# prepare.sh - what bench/tuning/run.sh needs on the GPU machine, made here
# (where MLIR is): the x86-64 tuner binaries, each application's builds in
# an approx-build cache (every storage configuration the search may ask
# for: the cross product of each tuned kernel's storage knobs), and the
# inputs (bench/tuning/prepare-data.py: PyPI data, never committed).
#
#   bench/tuning/prepare.sh OUTDIR [BUILD_DIR]
#
# OUTDIR/bin/{approx,approx-tune}, OUTDIR/cache/APP/<key>/..., OUTDIR/APP.base
# (the base build's manifest, relative to OUTDIR), OUTDIR/data/... (the
# images at 512x512 and the HMM sets; bench/tuning/box-data.py makes the
# 2048x2048 tilings and the option sets on the GPU machine, where
# scikit-image cannot be installed). The full data set of prepare-data.py
# (1.8 GB) is kept in $DATA_DIR (default /tmp/approx-tuning-data).
set -euo pipefail
out=${1:?usage: prepare.sh OUTDIR [BUILD_DIR]}
build=${2:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/bin" "$out/cache"
cp "$build/bin/approx" "$build/bin/approx-tune" "$out/bin/"
# A whole program for run.sh's `program`: examples/cuda/host.cpp over
# approx-cc's box_muller (the runtime's C++ API, so APPROX_CONFIG and
# APPROX_CAPTURE reach it).
mkdir -p "$out/box_muller"
cp "$build/test/runtime/box_muller_host" "$out/bin/"
cp "$build/examples/cuda/box_muller.ptx" "$build/examples/cuda/box_muller.manifest.json" \
  "$out/box_muller/"

# app, options, storage values searched, then the storage knobs of the
# tuned kernel (the others stay f64).
build_app() {
  local app=$1 opts=$2 types=$3
  shift 3
  local plan
  plan=$(mktemp)
  python3 - "$types" "$@" >"$plan" <<'PY'
import itertools, json, sys
types = ["f64"] + sys.argv[1].split(",")
knobs = sys.argv[2:]
print(json.dumps([dict(zip(knobs, v))
                  for v in itertools.product(types, repeat=len(knobs))]))
PY
  "$build/bin/approx-build" "$src/examples/combined/$app.mlir" \
    --cache "$out/cache/$app" --options "$opts" \
    --plan "$plan" | tail -1
  rm -f "$plan"
  # The base build: every storage knob at f64.
  local base
  base=$(python3 - "$out/cache/$app" <<'PY'
import json, os, sys
for d in sorted(os.listdir(sys.argv[1])):
    p = os.path.join(sys.argv[1], d, "config.json")
    if os.path.exists(p):
        c = json.load(open(p))
        if all(v == "f64" for v in c["configuration"].values()):
            print(d)
            break
PY
)
  [ -n "$base" ] || { echo "prepare.sh: no all-f64 build of $app" >&2; exit 2; }
  echo "cache/$app/$base/$app.manifest.json" >"$out/$app.base"
}

build_app image_pipeline "precision.space=f32,f16,bf16" f32,f16,bf16 precision__dst
build_app image_pipeline "precision.space=f32,f16,bf16" f32,f16,bf16 precision__tmp
# f32 only for these two: f16 storage misses the bounds run.sh uses (a
# relative 1e-4) by far, and the carried cache must stay small.
build_app option_pricing "sfu.f64-demote sfu.newton-steps=1 precision.space=f32" \
  f32 precision__call precision__put precision__price precision__strike precision__years
build_app logsumexp "sfu.f64-demote precision.space=f32" f32 \
  precision__la precision__lb precision__lpi precision__out
build_app logsumexp "sfu.f64-demote precision.space=f32" f32 \
  precision__x precision__lse
# The inputs: prepare-data.py's full set here (PyPI packages), then only
# what is small enough to carry; box-data.py makes the rest there.
full=${DATA_DIR:-/tmp/approx-tuning-data}
python3 "$src/bench/tuning/prepare-data.py" "$full" >/dev/null
mkdir -p "$out/data/image" "$out/data/hmm"
for f in "$full"/image/*-512.src.f64; do # xz: 20 MB down to 4
  python3 -c 'import lzma, sys; open(sys.argv[2], "wb").write(lzma.compress(open(sys.argv[1], "rb").read(), preset=9))' \
    "$f" "$out/data/image/$(basename "$f").xz"
done
for set in train-cat128 verify-1-cat128 verify-2-sticky128; do
  cp "$full/hmm/$set".* "$out/data/hmm/"
done
cp "$full/inputs.json" "$out/data/"
du -sh "$out"
