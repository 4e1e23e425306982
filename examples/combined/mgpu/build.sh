#!/usr/bin/env bash
# build.sh - compile gauss_host.mlir (host + device) ahead of time.
#
#   build.sh compile OUTDIR     (needs approx-opt and LLVM/MLIR 22 tools)
#       approx-opt --approx-to-ptx (sfu.f64-demote, precision-all=f32: the
#       warp split's lambda and the kernel's storage variants; writes
#       OUTDIR/gauss_host.ptx + gauss_host.manifest.json) -> mlir-opt
#       gpu-to-llvm, convert-to-llvm (host) -> mlir-translate -> llc ->
#       OUTDIR/gauss_host.o
#   build.sh link OUTDIR LIBDIR links it with LIBDIR/libapprox_mgpu.so into
#       OUTDIR/gauss_host
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: $0 compile OUTDIR | link OUTDIR LIBDIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1 out=$2
mkdir -p "$out"
case $mode in
compile)
  [ $# -eq 2 ] || usage
  OPT=${APPROX_OPT:-$here/../../../build/bin/approx-opt}
  LLVM=${LLVM_BIN:-/usr/lib/llvm-22/bin}
  "$OPT" "$here/gauss_host.mlir" \
    --approx-to-ptx="chip=${CHIP:-sm_90} output-dir=$out name=gauss_host sfu.f64-demote precision-all=f32" \
    -o "$out/gauss_host.dev.mlir"
  "$LLVM/mlir-opt" "$out/gauss_host.dev.mlir" -o "$out/gauss_host.llvm.mlir" \
    --pass-pipeline="builtin.module(convert-scf-to-cf,gpu-to-llvm,convert-to-llvm,reconcile-unrealized-casts)"
  "$LLVM/mlir-translate" --mlir-to-llvmir "$out/gauss_host.llvm.mlir" -o "$out/gauss_host.ll"
  "$LLVM/llc" -O2 -filetype=obj -relocation-model=pic "$out/gauss_host.ll" -o "$out/gauss_host.o"
  rm -f "$out/gauss_host.dev.mlir" "$out/gauss_host.llvm.mlir" "$out/gauss_host.ll"
  echo "wrote $out/gauss_host.o $out/gauss_host.ptx $out/gauss_host.manifest.json"
  ;;
link)
  [ $# -eq 3 ] || usage
  lib=$(cd "$3" && pwd)
  c++ "$out/gauss_host.o" -o "$out/gauss_host" -L"$lib" -lapprox_mgpu -lm \
    -Wl,-rpath,"$lib"
  echo "wrote $out/gauss_host"
  ;;
*) usage ;;
esac
