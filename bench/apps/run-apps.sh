#!/usr/bin/env bash
# run-apps.sh - the evaluation suite on a GPU machine (no MLIR needed).
# Builds the runtime (runtime-only configure) if $BUILD lacks it, links
# run-apps.cu with every app's Listing-3 build (nvcc -O3), and runs it on
# the PTX that compile-apps.sh made. Table on stdout, JSON in $OUT.
#
#   bench/apps/run-apps.sh PTXDIR [run-apps options...]
#
# The options go to run-apps as given (see run-apps.cu), e.g. --apps a,b,
# --min-reps N, --until-ci R (0.01: each median's 95% interval within ±1%),
# --max-reps N, --qos-ratio R.
set -u -o pipefail
cd "$(dirname "$0")/../.."
PTX=${1:?usage: run-apps.sh PTXDIR [options]}; shift
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/apps-out}
mkdir -p "$OUT"
bash bench/build-runtime.sh "$BUILD" || exit 2
# One object per app, compiled in parallel, then linked with the runner.
mkdir -p "$BUILD/apps"
NVCC="nvcc -O3 -std=c++17 -arch=sm_90 -DAX_LISTING3 -diag-suppress 2810 -Xcompiler -fopenmp -Iruntime/include"
ls bench/apps/[a-z]*.cu | grep -v run-baselines.cu | xargs -P "$(nproc)" -I{} sh -c \
  "$NVCC -c {} -o $BUILD/apps/\$(basename {} .cu).o" || exit 2
$NVCC "$BUILD"/apps/*.o "$BUILD/runtime/libapprox_runtime.a" -ldl \
  -o "$BUILD/run-apps" || exit 2
sets=""
for d in "$PTX"/*/; do sets="$sets --set $(basename "$d")=$d"; done
"$BUILD/run-apps" $sets --json "$OUT/apps.json" "$@" | tee "$OUT/apps.md"
