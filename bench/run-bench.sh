#!/usr/bin/env bash
# run-bench.sh - benchmark the examples on the GPU (not a test).
#
#   bench/run-bench.sh [EXAMPLES_DIR]
#
# EXAMPLES_DIR holds approx-opt's NAME.ptx + NAME.manifest.json for
# box_muller, black_scholes and coulomb_f64 (default build/examples; on a
# machine without MLIR, generate them elsewhere and carry them). Builds the
# runtime (runtime-only configure) if $BUILD lacks it, then:
#   1. approx-bench: compiler kernels vs hand-written CUDA (bench/handwritten.cuh),
#      ratios at lambda=0 and lambda_max, SFU speedups, tuner cost at
#      QoS_ratio 0.8 (HEU, SMP, OMG), and against nvcc -O3 and nvcc -O3
#      -use_fast_math of the hand-written precise code without the split
#      (bench/plain-examples.cu, compiled to PTX here: --plain), and, with
#      CUDA_EX (a directory holding approx-cc's box_muller.{ptx,
#      manifest.json} of examples/cuda/box_muller.cu), that file through
#      approx-cc against nvcc -O3 and -O3 -use_fast_math of it (--cuda);
#      timed under issue 30's rule: BENCH_REPS [--min-reps 30 --until-ci
#      0.01 --max-reps 200];
#   2. approx-tune --method all on each example: tables, JSON and SVG plots.
# Results go to $OUT (default $BUILD/bench-out). TUNE=0 skips step 2.
set -u -o pipefail
cd "$(dirname "$0")/.."
EX=${1:-build/examples}
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/bench-out}
mkdir -p "$OUT/tune"
bash bench/build-runtime.sh "$BUILD" || exit 2
nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 2810 bench/approx-bench.cu \
  -Iruntime/include "$BUILD/runtime/libapprox_runtime.a" -ldl \
  -o "$BUILD/approx-bench" || exit 2
mkdir -p "$BUILD/plain"
for f in "O3:" "fast:-use_fast_math"; do
  nvcc -O3 ${f#*:} -std=c++17 -arch=sm_90 -diag-suppress 2810 -ptx \
    bench/plain-examples.cu -o "$BUILD/plain/plain-examples.${f%%:*}.ptx" || exit 2
  nvcc -O3 ${f#*:} -std=c++17 -arch=sm_90 -ptx examples/cuda/box_muller.cu \
    -o "$BUILD/plain/box_muller_cuda.${f%%:*}.ptx" || exit 2
done
status=0
echo "=== approx-bench $EX"
read -ra reps <<<"${BENCH_REPS:---min-reps 30 --until-ci 0.01 --max-reps 200}"
"$BUILD/approx-bench" "$EX" "${reps[@]}" --json "$OUT/bench.json" \
  --plain "$BUILD/plain" ${CUDA_EX:+--cuda "$CUDA_EX"} |
  tee "$OUT/bench.md" || status=1

[ "${TUNE:-1}" = 0 ] && exit $status
T="$BUILD/bin/approx-tune"
tune() { # name, args...
  local name=$1; shift
  echo "=== approx-tune $name"
  "$T" "$EX/$name.manifest.json" --method all --qos-ratio 0.8 --reps 20 \
    --quiet --json "$OUT/tune/$name.json" --svg "$OUT/tune/$name.svg" "$@" ||
    status=1
}
tune box_muller --inout 0=uniform:1e-7:1 --size 16777216 --scalar 1=16 \
  --scalar 2=1048576 --grid 4096 --block 256
tune black_scholes --input 2=uniform:5:30 --input 3=uniform:1:100 \
  --input 4=uniform:0.25:10 --scalar 5=0.02 --scalar 6=0.30 --scalar 7=size \
  --size 16777216
tune coulomb_f64 --shape 0=2048x4 --shape 1=262144x3 --shape 2=262144 \
  --input 0=uniform:0:64 --input 1=uniform:0:64 --scalar 3=2048 \
  --scalar 4=262144 --grid 1024 --block 256
exit $status
