#!/usr/bin/env bash
# README command 1: install what is missing (apt), build approx, compile the
# bundled Box-Muller example to PTX + manifest, and print a summary.
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
