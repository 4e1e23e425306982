#!/usr/bin/env bash
# compile.sh - compile the perforation examples for bench/perforation (run
# where MLIR is; the GPU machine gets the PTX):
#   NAME_direct.{ptx,manifest.json}  the plain kernel as written (the
#                                    direct global-load baseline);
#   NAME.{ptx,manifest.json}         through approx-perforation-raise: a
#                                    scheme knob `perforation` (SCHEMES, in
#                                    this order) and a block-shape variant
#                                    knob `perforation_block` (BLOCKS);
#   NAME_output.{ptx,manifest.json}  through approx-perforation-output:
#                                    Paraprox's output perforation (OUTPUT
#                                    schemes, knob `perforation_output`);
#   NAME_tiled_output.{ptx,manifest.json}  the same on the accurate tiling
#                                    of every block shape (BLOCKS; knobs
#                                    `perforation_output`, `perforation_block`).
#
# SCHEMES, BLOCKS, OUTPUT and EXAMPLES override the lists below;
# RAISED_OPTIONS adds approx-to-ptx options to the raised kernels (for
# example perforate-vector=false, to time the scalar fetch).
#
#   bench/perforation/compile.sh APPROX_OPT OUT_DIR
set -euo pipefail
OPT=${1:?usage: compile.sh APPROX_OPT OUT_DIR}
OUT=${2:?usage: compile.sh APPROX_OPT OUT_DIR}
cd "$(dirname "$0")/../.."
SCHEMES=${SCHEMES:-accurate,rows1:nn,rows1:linear,rows2:nn,rows2:linear,cols1:nn,cols1:linear,stencil:nn}
BLOCKS=${BLOCKS:-32x8,32x4r8,32x8r8,32x4r16,64x2r16,128x1r16,128x1r32,256x1r12,256x1r16}
OUTPUT=${OUTPUT:-accurate,rows1,rows2,cols1,center1}
EXAMPLES=${EXAMPLES:-gaussian3_plain sobel3 sobel5 median3 inversion hotspot}
RAISED_OPTIONS=${RAISED_OPTIONS:-}
mkdir -p "$OUT"
for ex in $EXAMPLES; do
  "$OPT" "examples/perforation/$ex.mlir" \
    --approx-to-ptx="chip=sm_90 knob-path=param output-dir=$OUT name=${ex}_direct" -o /dev/null
  "$OPT" "examples/perforation/$ex.mlir" \
    --approx-to-ptx="chip=sm_90 knob-path=param output-dir=$OUT name=$ex perforate=$SCHEMES perforate-blocks=$BLOCKS $RAISED_OPTIONS" \
    -o /dev/null
  "$OPT" "examples/perforation/$ex.mlir" \
    --approx-to-ptx="chip=sm_90 knob-path=param output-dir=$OUT name=${ex}_output perforate-output=$OUTPUT" \
    -o /dev/null
  "$OPT" "examples/perforation/$ex.mlir" \
    --approx-to-ptx="chip=sm_90 knob-path=param output-dir=$OUT name=${ex}_tiled_output perforate=accurate perforate-blocks=$BLOCKS perforate-output=$OUTPUT $RAISED_OPTIONS" \
    -o /dev/null
  echo "compiled $ex"
done
