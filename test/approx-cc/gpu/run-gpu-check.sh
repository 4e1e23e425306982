#!/usr/bin/env bash
# run-gpu-check.sh - approx-cc's check on a GPU machine (no MLIR there):
# takes the PTX approx-cc made here (.carry/cuda, by scripts/gpu-prepare.sh),
# builds compare-nvcc with nvcc, and runs it. Log in $OUT/cuda.log.
set -eu -o pipefail
cd "$(dirname "$0")"
carry=${1:-../../../.carry/cuda}
out=${OUT:-/tmp}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
nvcc -O3 -std=c++17 -arch=sm_90 compare-nvcc.cu -lcuda -o "$bin/compare-nvcc"
kernel=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernels'][0]['name'])" \
  "$carry/box_muller.manifest.json")
"$bin/compare-nvcc" "$carry/box_muller.ptx" "$kernel" | tee "$out/cuda.log"
# The same PTX tuned by approx-tune from its manifest alone, when a build of
# it is at hand (APPROX_TUNE): HEU under the default QoS_ratio 0.8.
if [ -n "${APPROX_TUNE:-}" ] && [ -x "$APPROX_TUNE" ]; then
  n=16777216
  "$APPROX_TUNE" "$carry/box_muller.manifest.json" --element 0=f32 --element 1=f32 \
    --element 2=f32 --element 3=f32 --size $n --input 0=uniform:0.001:1 \
    --input 1=uniform:0:1 --scalar 4=$n --method all 2>&1 | tee -a "$out/cuda.log"
fi

