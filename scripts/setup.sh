#!/usr/bin/env bash
# README command 1: install what is missing (apt), build approx, compile the
# bundled Box-Muller example to PTX + manifest (from MLIR, and from plain
# CUDA through approx-cc with its host header), and print a summary.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
approx_install_deps
approx_build

OUT="${OUT_DIR:-$APPROX_ROOT/out}"
mkdir -p "$OUT"
start=$(date +%s%N)
"$BUILD_DIR/bin/approx-opt" "$APPROX_ROOT/examples/box_muller.mlir" \
  --approx-to-ptx="chip=sm_90 output-dir=$OUT name=box_muller" -o /dev/null
end=$(date +%s%N)
echo "approx: compiled examples/box_muller.mlir in $(( (end - start) / 1000000 )) ms"
python3 "$APPROX_ROOT/scripts/summarize.py" "$OUT/box_muller.manifest.json"

# The CUDA front door on the same algorithm written as unmodified CUDA:
# PTX + manifest + the host header (docs/cuda.md). Needs clang-22 (installed
# above); without it the build said so and this step is skipped.
if [ -x "$BUILD_DIR/bin/approx-cc" ] && command -v clang++-22 >/dev/null; then
  mkdir -p "$OUT/cuda"
  "$BUILD_DIR/bin/approx-cc" "$APPROX_ROOT/examples/cuda/box_muller.cu" \
    -o "$OUT/cuda" --emit-header
  echo "approx-cc: compiled examples/cuda/box_muller.cu to $OUT/cuda/box_muller.{ptx,manifest.json,h}"
  python3 "$APPROX_ROOT/scripts/summarize.py" "$OUT/cuda/box_muller.manifest.json"
else
  echo "approx-cc: skipped (no clang++-22): the CUDA front door is not built"
fi
