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
  OPT=${APPROX_OPT:-$here/../../../build/bin/approx-opt}
  LLVM=${LLVM_BIN:-/usr/lib/llvm-22/bin}
  "$OPT" "$here/sin_host.mlir" --approx-to-ptx="output-dir=$out name=sin_host" -o "$out/sin_host.dev.mlir"
  "$LLVM/mlir-opt" "$out/sin_host.dev.mlir" -o "$out/sin_host.llvm.mlir" \
    --pass-pipeline="builtin.module(convert-scf-to-cf,gpu-to-llvm,convert-to-llvm,reconcile-unrealized-casts)"
  "$LLVM/mlir-translate" --mlir-to-llvmir "$out/sin_host.llvm.mlir" -o "$out/sin_host.ll"
  "$LLVM/llc" -O2 -filetype=obj -relocation-model=pic "$out/sin_host.ll" -o "$out/sin_host.o"
  rm -f "$out/sin_host.dev.mlir" "$out/sin_host.llvm.mlir" "$out/sin_host.ll"
  echo "wrote $out/sin_host.o $out/sin_host.ptx $out/sin_host.manifest.json"
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
