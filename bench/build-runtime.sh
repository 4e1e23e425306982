#!/usr/bin/env bash
# build-runtime.sh - the runtime-only build the GPU-side bench scripts link
# against (no MLIR on the GPU machine): configures and builds BUILD_DIR
# (-DAPPROX_ENABLE_COMPILER=OFF) unless it already holds the runtime
# library and approx-tune. With TARGETs: configures BUILD_DIR if it is not
# yet, and builds those targets only (ninja brings them up to date).
# Run from the repository root.
#
#   bench/build-runtime.sh BUILD_DIR [TARGET...]
set -u -o pipefail
BUILD=${1:?usage: build-runtime.sh BUILD_DIR [TARGET...]}
shift
configure() {
  cmake -G Ninja -S . -B "$BUILD" -DAPPROX_ENABLE_COMPILER=OFF \
    -DCMAKE_BUILD_TYPE=Release >/dev/null
}
if [ $# -gt 0 ]; then
  if [ ! -f "$BUILD/build.ninja" ]; then configure || exit 2; fi
  cmake --build "$BUILD" --target "$@" || exit 2
elif [ ! -f "$BUILD/runtime/libapprox_runtime.a" ] || [ ! -x "$BUILD/bin/approx-tune" ]; then
  configure && cmake --build "$BUILD" || exit 2
fi
