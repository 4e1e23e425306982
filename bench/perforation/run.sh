#!/usr/bin/env bash
# run.sh - the perforation benchmark on a GPU machine (not a test): builds
# the runtime (runtime-only configure) and perforation-bench, runs its CPU
# self-test, runs it on .carry/perforation-bench (bench/perforation/
# prepare.sh), and writes the tables (perforation.md, with the time of each
# phase), the JSON, and report.py's tables and Pareto plots (report.txt,
# pareto-*.svg) to $OUT (default $BUILD/bench-out).
#
#   bench/perforation/run.sh [perforation-bench options...]
set -u -o pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/bench-out}
DATA=${DATA:-.carry/perforation-bench}
mkdir -p "$OUT"
start=$(date +%s)
bash bench/build-runtime.sh "$BUILD" || exit 2
# CLI11's headers: Debian's, else the copy gpu-prepare.sh carries.
# perforation-bench's sources, one job a file (perforation-bench.cpp's
# header comment lists them).
PERFORATION_BENCH_SOURCES=(bench/perforation/{perforation-bench,inputs,error-metrics,checks,versions,measure,results}.cpp)
g++ -O2 -std=c++17 -Wall -Iinclude -Iruntime/include -I.carry/cli11 \
  "${PERFORATION_BENCH_SOURCES[@]}" \
  "$BUILD/runtime/libapprox_runtime.a" -ldl -pthread \
  -o "$BUILD/perforation-bench" || exit 2
echo "build: $(( $(date +%s) - start )) s"
"$BUILD/perforation-bench" --self-test "$DATA/images" || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory \
  --format=csv,noheader | tee "$OUT/gpu.txt"
"$BUILD/perforation-bench" "$DATA/kernels" "$DATA/images" \
  --json "$OUT/perforation.json" "$@" | tee "$OUT/perforation.md"
status=${PIPESTATUS[0]}
if [ "$status" -eq 0 ]; then
  python3 bench/perforation/report.py "$OUT/perforation.json" "$OUT" \
    > "$OUT/report.txt" || status=1
  head -40 "$OUT/report.txt"
fi
echo "run.sh: $(( $(date +%s) - start )) s in all"
exit $status
