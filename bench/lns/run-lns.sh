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
#
#   bench/lns/run-lns.sh KERNELS_DIR [lns-bench options...]
#
# Every argument after KERNELS_DIR goes to lns-bench as it is, e.g.
#   --only throughput|dynamic|bitexact|accuracy   one section (repeatable)
#   --min-reps N   interleaved rounds per measurement, at least (default 5;
#                  --rounds N is the same)
#   --until-ci R   go on until every reported median's 95% bootstrap
#                  interval is within ±R of it (default 0: off); e.g.
#                  --until-ci 0.01 --min-reps 30, issue 30's rule
#   --max-reps N   with --until-ci, rounds at most (default 200)
#   --iters N, --block N
# The JSON records each median's interval and rounds, and the GPU's clocks,
# temperature and power at the start and end of each section (NVML).
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
