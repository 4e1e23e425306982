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
  export APPROX_OPT=${APPROX_OPT:-$here/../../../build/bin/approx-opt}
  bash "$here/../../mgpu-compile.sh" "$here/gauss_host.mlir" "$out" gauss_host \
    "sfu.f64-demote precision-all=f32"
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
