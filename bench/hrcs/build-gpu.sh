#!/usr/bin/env bash
# build-gpu.sh OUT_DIR: approx-hrcs, approx-hrcs-verify and (with Open MPI)
# approx-hrcs-mpi with the GPU backend, as x86-64 binaries with MPFR and GMP
# linked statically, for a GPU machine that has neither. Needs nvcc (CUDA 12.x/13.x), Debian's
# libmpfr-dev/libgmp-dev and libcli11-dev here.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build-gpu.sh OUT_DIR}
mkdir -p "$out"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
flags=(-O3 -std=c++17 -arch=sm_90 -DAPPROX_HRCS_HAS_CUDA -Iinclude -Ihrcs/include
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
built="approx-hrcs approx-hrcs-verify"
# approx-hrcs-mpi against this machine's Open MPI 4.1 (libmpi.so.40, the ABI
# of the GPU machines' Open MPI 4.1), when mpicxx is here.
if command -v mpicxx >/dev/null; then
  "$NVCC" "${flags[@]}" $(mpicxx --showme:compile) -DOMPI_SKIP_MPICXX=1 \
    -o "$out/approx-hrcs-mpi" \
    tools/approx-hrcs/approx-hrcs-mpi.cpp tools/approx-hrcs/Cli.cpp "${core[@]}" \
    "${libs[@]}" -L/usr/lib/x86_64-linux-gnu/openmpi/lib -lmpi
  built="$built approx-hrcs-mpi"
fi
echo "built $built in $out"
