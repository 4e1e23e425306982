#!/usr/bin/env bash
# build-gpu.sh OUT_DIR: approx-hrcs and approx-hrcs-verify with the GPU
# backend, as x86-64 binaries with MPFR and GMP linked statically, for a GPU
# machine that has neither. Needs nvcc (CUDA 12.x/13.x), Debian's
# libmpfr-dev/libgmp-dev and libcli11-dev here.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build-gpu.sh OUT_DIR}
mkdir -p "$out"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
flags=(-O3 -std=c++17 -arch=sm_90 -DAPPROX_HRCS_HAS_CUDA -Ihrcs/include
       -Iaccuracy/include -Xcompiler -Wall)
# MPFR and GMP as archives (the GPU machine has neither).
libs=("$(g++ -print-file-name=libmpfr.a)" "$(g++ -print-file-name=libgmp.a)" -lpthread)
# The search library once, as objects shared by both tools.
obj=$(mktemp -d)
trap 'rm -rf "$obj"' EXIT
for src in hrcs/src/Function.cpp hrcs/src/Plan.cpp hrcs/src/Search.cpp \
           hrcs/cuda/GpuSearch.cu accuracy/src/Mpfr.cpp \
           accuracy/src/Functions.cpp accuracy/src/HardCases.cpp; do
  "$NVCC" "${flags[@]}" -c "$src" -o "$obj/$(basename "$src").o" &
done
wait
core=("$obj"/Function.cpp.o "$obj"/Plan.cpp.o "$obj"/Search.cpp.o "$obj"/GpuSearch.cu.o)
"$NVCC" "${flags[@]}" -o "$out/approx-hrcs" tools/approx-hrcs/approx-hrcs.cpp \
  tools/approx-hrcs/Cli.cpp "${core[@]}" "${libs[@]}"
"$NVCC" "${flags[@]}" -o "$out/approx-hrcs-verify" \
  tools/approx-hrcs/approx-hrcs-verify.cpp "${core[@]}" "$obj"/Mpfr.cpp.o \
  "$obj"/Functions.cpp.o "$obj"/HardCases.cpp.o "${libs[@]}"
echo "built $out/approx-hrcs and $out/approx-hrcs-verify"
