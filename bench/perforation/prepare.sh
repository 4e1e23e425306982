#!/usr/bin/env bash
# prepare.sh - fill .carry/perforation-bench (git-ignored) with what
# bench/perforation/run.sh needs on a GPU machine without MLIR or network:
# the examples compiled by compile.sh, the bench's own metric kernels
# (metrics.cu -> kernels/bench_metrics.ptx: mirror tiling, error sums, SSIM
# on the GPU; clang++-22, else nvcc; PTX ISA 7.8 like the examples), and
# scikit-image's photographs as .npy (scikit-image is installed from PyPI
# into build/bench-venv; no image is committed). Run after scripts/setup.sh.
#
#   bench/perforation/prepare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD_DIR:-build}
DEST=.carry/perforation-bench
CUDA=${CUDA_PATH:-/usr/local/cuda}
rm -rf "$DEST"
mkdir -p "$DEST/kernels" "$DEST/images"
bash bench/perforation/compile.sh "$PWD/$BUILD/bin/approx-opt" "$DEST/kernels"
PTX=$DEST/kernels/bench_metrics.ptx
if command -v clang++-22 >/dev/null; then
  clang++-22 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 \
    --cuda-path="$CUDA" -nocudalib -O3 -S -Wno-unknown-cuda-version \
    -Xclang -target-feature -Xclang -ptx88 \
    -Xclang -target-feature -Xclang +ptx78 \
    bench/perforation/metrics.cu -o "$PTX"
else
  "$CUDA/bin/nvcc" -ptx -arch=sm_90 -O3 bench/perforation/metrics.cu -o "$PTX"
fi
if [ -x "$CUDA/bin/ptxas" ]; then
  "$CUDA/bin/ptxas" -arch=sm_90 "$PTX" -o /dev/null
fi
echo "compiled bench_metrics.ptx"
BUILD_DIR=$BUILD bash bench/perforation/images.sh "$DEST/images"
du -sh "$DEST"
