#!/bin/sh
# Regenerates lns_add.{ptx,manifest.json} from Inputs/lns_add.mlir (in
# Inputs/, which lit skips); needs the compiler build's approx-opt and
# libdevice, no GPU.
set -e
cd "$(dirname "$0")"
OPT=${APPROX_OPT:-../../../../build/bin/approx-opt}
"$OPT" Inputs/lns_add.mlir --approx-to-ptx="chip=sm_90 output-dir=. name=lns_add" -o /dev/null
