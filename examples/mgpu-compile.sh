#!/usr/bin/env bash
# mgpu-compile.sh - one MLIR host + device program to an x86-64 object, the
# way every mgpu example builds (runtime/mgpu/example, examples/precision/mgpu,
# examples/combined/mgpu):
#
#   mgpu-compile.sh SRC.mlir OUTDIR NAME "APPROX_TO_PTX_OPTIONS"
#
# approx-opt --approx-to-ptx (device: PTX in a gpu.binary, and OUTDIR/NAME.ptx
# + NAME.manifest.json) -> mlir-opt gpu-to-llvm, convert-to-llvm (host) ->
# mlir-translate -> llc -> OUTDIR/NAME.o (linked against libapprox_mgpu.so,
# the mgpu* functions). APPROX_OPT and LLVM_BIN name the tools (defaults:
# this tree's build/, Debian's LLVM 22).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 SRC.mlir OUTDIR NAME OPTIONS" >&2; exit 2; }
src=$1 out=$2 name=$3 opts=$4
here=$(cd "$(dirname "$0")" && pwd)
OPT=${APPROX_OPT:-$here/../build/bin/approx-opt}
LLVM=${LLVM_BIN:-/usr/lib/llvm-22/bin}
"$OPT" "$src" --approx-to-ptx="chip=${CHIP:-sm_90} output-dir=$out name=$name${opts:+ $opts}" \
  -o "$out/$name.dev.mlir"
"$LLVM/mlir-opt" "$out/$name.dev.mlir" -o "$out/$name.llvm.mlir" \
  --pass-pipeline="builtin.module(convert-scf-to-cf,gpu-to-llvm,convert-to-llvm,reconcile-unrealized-casts)"
"$LLVM/mlir-translate" --mlir-to-llvmir "$out/$name.llvm.mlir" -o "$out/$name.ll"
"$LLVM/llc" -O2 -filetype=obj -relocation-model=pic "$out/$name.ll" -o "$out/$name.o"
rm -f "$out/$name.dev.mlir" "$out/$name.llvm.mlir" "$out/$name.ll"
echo "wrote $out/$name.o $out/$name.ptx $out/$name.manifest.json"
