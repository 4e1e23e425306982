#!/usr/bin/env bash
# build-gpu.sh OUT_DIR: approx-hrcs with its GPU backend, as one x86-64
# binary with MPFR and GMP linked statically, for a GPU machine that has
# neither (scripts/gpu-prepare.sh carries it). Needs nvcc (CUDA 12.x/13.x)
# and Debian's libmpfr-dev/libgmp-dev here.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build-gpu.sh OUT_DIR}
mkdir -p "$out"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$NVCC" -O3 -std=c++17 -arch=sm_90 -DAPPROX_HRCS_HAS_CUDA -Ihrcs/include \
  -Xcompiler -Wall -o "$out/approx-hrcs" \
  tools/approx-hrcs/approx-hrcs.cpp tools/approx-hrcs/Cli.cpp \
  hrcs/src/Function.cpp hrcs/src/Plan.cpp \
  hrcs/src/Search.cpp hrcs/cuda/GpuSearch.cu \
  -Xlinker -Bstatic -lmpfr -lgmp -Xlinker -Bdynamic -lpthread
echo "built $out/approx-hrcs"
