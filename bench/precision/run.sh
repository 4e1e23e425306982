#!/usr/bin/env bash
# run.sh - build bench/precision/host-convert-bench.cpp against a
# runtime-only build (bench/build-runtime.sh BUILD_DIR) and run it; prints
# a markdown table (GB/s) on stdout, with a header naming the CPU. Extra
# arguments go to the bench (--sizes, --threads, --isa, --reps, --no-stats).
# Run from anywhere:
#
#   bench/precision/run.sh BUILD_DIR [bench args...]
set -euo pipefail
BUILD=$(realpath "${1:?usage: run.sh BUILD_DIR [bench args...]}")
shift
cd "$(dirname "$0")/../.."
bench/build-runtime.sh "$BUILD"
mkdir -p "$BUILD/bench/precision"
BIN=$BUILD/bench/precision/host-convert-bench
# CLI11's headers: Debian's, else the copy gpu-prepare.sh carries.
${CXX:-c++} -std=c++17 -O2 -Wall -Wextra -Iinclude -Iruntime/include -I.carry/cli11 \
  bench/precision/host-convert-bench.cpp "$BUILD/runtime/libapprox_runtime.a" \
  -pthread -ldl -o "$BIN"
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
echo "CPU: $cpu, $(nproc) logical cores; $(date -u +%Y-%m-%d)"
echo
"$BIN" "$@"
