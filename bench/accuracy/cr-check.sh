#!/usr/bin/env bash
# cr-check.sh - the correctly rounded rung's GPU check and cost, in two steps
# (MLIR is here, the GPU elsewhere):
#
#   bench/accuracy/cr-check.sh build BUILD_DIR CARRY_DIR
#       here: compiles the kernels with BUILD_DIR/bin/approx-opt
#       (cr-kernels.py) and cr-check itself (nvcc, MPFR/GMP linked
#       statically, the runtime of BUILD_DIR) into CARRY_DIR
#   bench/accuracy/cr-check.sh run CARRY_DIR [--quick]
#       on the GPU machine: runs it, the table on stdout, log in $OUT
#
# docs/hrcs.md ("The correctly rounded rung") has the figures it printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
build)
  build=${2:?usage: cr-check.sh build BUILD_DIR CARRY_DIR}
  carry=${3:?usage: cr-check.sh build BUILD_DIR CARRY_DIR}
  mkdir -p "$carry"
  python3 bench/accuracy/cr-kernels.py "$build/bin/approx-opt" "$carry"
  NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  "$NVCC" -O3 -std=c++17 -arch=sm_90 -diag-suppress 2810 \
    -Iruntime/include -Iaccuracy/include -o "$carry/cr-check" \
    bench/accuracy/cr-check.cu accuracy/src/Mpfr.cpp accuracy/src/Functions.cpp \
    accuracy/src/NumberList.cpp "$build/runtime/libapprox_runtime.a" \
    -Xlinker -Bstatic -lmpfr -lgmp -Xlinker -Bdynamic -ldl -lpthread
  echo "built $carry/cr-check and its modules"
  ;;
run)
  carry=${2:?usage: cr-check.sh run CARRY_DIR [--quick]}
  out=${OUT:-/tmp}
  "$carry/cr-check" "$carry" "${@:3}" 2>&1 | tee "$out/cr-check.log"
  ;;
*)
  sed -n '2,12p' "$0"
  exit 2
  ;;
esac
