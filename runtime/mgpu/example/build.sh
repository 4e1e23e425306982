#!/usr/bin/env bash
# build.sh - compile sin_host.mlir ahead of time and (optionally) run it.
#
#   build.sh compile OUTDIR     (needs approx-opt and LLVM/MLIR 22 tools)
#       MLIR -> approx-opt --approx-to-ptx (device: PTX in a gpu.binary, and
#       OUTDIR/sin_host.ptx + sin_host.manifest.json, what `approx tune
#       ... -- sin_host` needs) -> mlir-opt gpu-to-llvm, convert-to-llvm
#       (host) -> mlir-translate -> llc -> OUTDIR/sin_host.o
#   build.sh run OUTDIR LIBDIR  (needs a GPU; LIBDIR holds libapprox_mgpu.so)
#       links OUTDIR/sin_host.o with libapprox_mgpu.so and runs it; exit 0
#       means every output matched sin(x).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 out=$2
mkdir -p "$out"
case $mode in
compile)
  export APPROX_OPT=${APPROX_OPT:-$here/../../../build/bin/approx-opt}
  bash "$here/../../../examples/mgpu-compile.sh" "$here/sin_host.mlir" "$out" sin_host ""
  ;;
run)
  lib=$3
  c++ "$out/sin_host.o" -o "$out/sin_host" -L"$lib" -lapprox_mgpu -lm \
    -Wl,-rpath,"$lib"
  rc=0
  "$out/sin_host" || rc=$?
  echo "sin_host exit status: $rc"
  exit $rc
  ;;
*)
  echo "usage: $0 compile OUTDIR | run OUTDIR LIBDIR" >&2
  exit 1
  ;;
esac
