#!/bin/sh
# Regenerates lns_add.{ptx,manifest.json} from lns_add.mlir (needs the
# compiler build's approx-opt and libdevice; no GPU).
set -e
cd "$(dirname "$0")"
OPT=${APPROX_OPT:-../../../../build/bin/approx-opt}
"$OPT" lns_add.mlir --approx-to-ptx="chip=sm_90 output-dir=. name=lns_add" -o /dev/null
