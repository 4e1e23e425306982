#!/usr/bin/env bash
# run.sh - the perforation benchmark on a GPU machine (not a test): builds
# the runtime (runtime-only configure) and perforation-bench, runs its CPU
# self-test, runs it on .carry/perforation-bench (bench/perforation/
# prepare.sh), and writes the tables (perforation.md, with the time of each
# phase), the JSON, and report.py's tables and Pareto plots (report.txt,
# pareto-*.svg) to $OUT (default $BUILD/bench-out).
#
#   bench/perforation/run.sh [perforation-bench options...]
#
# The options go to perforation-bench as they are, e.g. --sizes 16384,
# --examples a,b, and its timing rule (issue 30, "Dispersion"):
#   --min-reps N   timed launches of each version at least (default 20;
#                  --reps N is the same option);
#   --until-ci R   then more, in batches of 10, until the 95% bootstrap
#                  interval of the median is within +-R of it (R relative:
#                  0.01 = 1%; default 0: off, the first N launches only);
#   --max-reps N   with --until-ci: launches at most (default 200).
# perforation.json keeps each median with its interval and launches, and
# the GPU's clocks, temperature and power (NVML) around each size's timing;
# report.txt prints the times and speedups with their intervals.
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
