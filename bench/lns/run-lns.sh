#!/usr/bin/env bash
# run-lns.sh - the LNS family's GPU checks and benchmark (GPU machine).
#
#   bench/lns/run-lns.sh [KERNELS_DIR]
#
# KERNELS_DIR holds the modules of gen-kernels.py (default
# build/lns-kernels: run `bench/lns/gen-kernels.py build/bin/approx-opt
# build/lns-kernels` first, where MLIR exists). Builds the runtime-only tree
# (bench/build-runtime.sh, which includes passes/lns/math), then runs
# lns-bench: the filter model's bit check, the accuracy sweep and Table 1.
# Writes $OUT/lns.{md,json}; exit 1 if the GPU and the model disagree.
set -u -o pipefail
cd "$(dirname "$0")/../.."
DIR=${1:-build/lns-kernels}
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/lns-out}
mkdir -p "$OUT"
bash bench/build-runtime.sh "$BUILD" || exit 2
nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 2810 bench/lns/lns-bench.cu \
  -Iruntime/include -Ipasses/lns/math "$BUILD/runtime/libapprox_runtime.a" \
  "$BUILD/passes/lns/math/libapprox_lns_math.a" -ldl -o "$BUILD/lns-bench" ||
  exit 2
echo "=== lns-bench $DIR ${*:2}"
"$BUILD/lns-bench" "$DIR" --json "$OUT/lns.json" "${@:2}" | tee "$OUT/lns.md"
