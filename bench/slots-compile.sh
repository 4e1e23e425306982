#!/usr/bin/env bash
# slots-compile.sh - compile the examples once per warp-slot source for
# bench/slots.sh:  bench/slots-compile.sh APPROX_OPT OUT_DIR
set -eu
cd "$(dirname "$0")/.."
mkdir -p "$2"
for e in box_muller black_scholes; do
  for slot in hw virtual software; do
    "$1" examples/$e.mlir \
      "--approx-to-ptx=chip=sm_90 output-dir=$2 name=$e-$slot slot=$slot" -o /dev/null
  done
done
