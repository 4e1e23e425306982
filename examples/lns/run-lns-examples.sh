#!/usr/bin/env bash
# run-lns-examples.sh - the LNS examples on a GPU machine (no MLIR needed).
# Builds the runtime (runtime-only configure, bench/build-runtime.sh) if
# $BUILD lacks it, compiles examples/lns/lns-examples.cu with nvcc, checks
# its CPU side (--self-check), and runs it on the PTX that compile.sh made:
# table on stdout and in $OUT/lns-examples.md, JSON in
# $OUT/lns-examples.json. Further arguments go to lns-examples (--reps,
# --states, ...). Exit status: lns-examples' (77: no usable GPU).
#
#   examples/lns/run-lns-examples.sh KERNELS_DIR [lns-examples options...]
set -u -o pipefail
KDIR=${1:?usage: run-lns-examples.sh KERNELS_DIR [options]}; shift
# Paths given relative to the caller's directory stay valid after the cd.
KDIR=$(cd "$KDIR" 2>/dev/null && pwd) || { echo "run-lns-examples: no directory ${KDIR}" >&2; exit 2; }
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
fi
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/lns-out}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
bash bench/build-runtime.sh "$BUILD" || exit 2
"$NVCC" -O3 -std=c++17 -arch=sm_90 -diag-suppress 2810 -Xcompiler -fopenmp \
  -Iruntime/include examples/lns/lns-examples.cu \
  "$BUILD/runtime/libapprox_runtime.a" -ldl -o "$BUILD/lns-examples" || exit 2
"$BUILD/lns-examples" --self-check || exit 1
"$BUILD/lns-examples" "$KDIR" --json "$OUT/lns-examples.json" "$@" | tee "$OUT/lns-examples.md"
