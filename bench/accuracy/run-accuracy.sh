#!/usr/bin/env bash
# run-accuracy.sh - measure every op/form/rung approx-opt emits (GPU).
#
#   bench/accuracy/run-accuracy.sh [KERNELS_DIR]
#
# KERNELS_DIR holds the modules of gen-kernels.py (default
# build/accuracy-kernels: run `bench/accuracy/gen-kernels.py
# build/bin/approx-opt build/accuracy-kernels` first, where MLIR exists).
# Prints a markdown table; writes $OUT/accuracy.{md,json}. Extra arguments go
# to approx-accuracy (e.g. --modules acc_f16,acc_bf16 to run a subset).
# The ulp distance and the rounding-ambiguity rule come from the header-only
# part of accuracy/ (device code, -Iaccuracy/include): the measurement needs
# neither libapprox_accuracy.a nor MPFR. Without MPFR on the GPU machine the
# configure below builds the library without its MPFR references, unused here.
set -u -o pipefail
cd "$(dirname "$0")/../.."
DIR=${1:-build/accuracy-kernels}
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/accuracy-out}
mkdir -p "$OUT"
bash bench/build-runtime.sh "$BUILD" || exit 2
nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 2810 -Xcompiler -fopenmp \
  bench/accuracy/approx-accuracy.cu -Iruntime/include -Iaccuracy/include \
  "$BUILD/runtime/libapprox_runtime.a" -ldl -o "$BUILD/approx-accuracy" ||
  exit 2
# Host-only check of the f16/bf16 rounding, ulp and counting code (~1 s).
"$BUILD/approx-accuracy" --self-check || exit 2
echo "=== approx-accuracy $DIR $*"
time "$BUILD/approx-accuracy" "$DIR" --json "$OUT/accuracy.json" "${@:2}" |
  tee "$OUT/accuracy.md"
