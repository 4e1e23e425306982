#!/usr/bin/env bash
# build-runtime.sh - the runtime-only build the GPU-side bench scripts link
# against (no MLIR on the GPU machine): configures and builds BUILD_DIR
# (-DAPPROX_ENABLE_COMPILER=OFF) unless it already holds the runtime
# library and approx-tune. Run from the repository root.
#
#   bench/build-runtime.sh BUILD_DIR
set -u -o pipefail
BUILD=${1:?usage: build-runtime.sh BUILD_DIR}
if [ ! -f "$BUILD/runtime/libapprox_runtime.a" ] || [ ! -x "$BUILD/bin/approx-tune" ]; then
  cmake -G Ninja -S . -B "$BUILD" -DAPPROX_ENABLE_COMPILER=OFF \
    -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build "$BUILD" || exit 2
fi
