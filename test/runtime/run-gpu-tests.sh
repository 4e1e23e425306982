#!/usr/bin/env bash
# run-gpu-tests.sh - build the runtime-only configuration and run the GPU
# tests, then compute-sanitizer memcheck (leak check) over one GPU test run.
#
# Meant for a machine with a CUDA driver and nvcc/cmake but no MLIR (the lent
# GPU). EXAMPLES=DIR supplies compiled examples for gpu.examples.
# nlohmann-json / GoogleTest come from the system or from .carry/
# (.carry/include/nlohmann, .carry/googletest). Logs go to $OUT (or
# $BUILD/out). Exit status: nonzero if any step failed.
set -u -o pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/out}
mkdir -p "$OUT"
status=0
step() { echo; echo "=== $*"; }

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 |
  tee "$OUT/device.txt"
date -u +%Y-%m-%dT%H:%M:%SZ | tee -a "$OUT/device.txt"

step "configure + build (APPROX_ENABLE_COMPILER=OFF)"
cmake -G Ninja -S . -B "$BUILD" -DAPPROX_ENABLE_COMPILER=OFF \
  -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 ||
  { cat "$OUT/configure.log"; exit 2; }
cmake --build "$BUILD" -j 16 >"$OUT/build.log" 2>&1 ||
  { tail -50 "$OUT/build.log"; exit 2; }
echo ok

# The perforation check kernels (gpu.Perforation), from gpu-prepare.sh.
if [ -z "${APPROX_PERFORATION_KERNELS:-}" ] && [ -d .carry/perforation ]; then
  export APPROX_PERFORATION_KERNELS=$PWD/.carry/perforation
fi
# Compiler-built examples for gpu.examples: $EXAMPLES (PTX + manifests made
# where MLIR exists and carried here) when the build has none of its own.
if [ -n "${EXAMPLES:-}" ] && [ ! -f "$BUILD/examples/box_muller.manifest.json" ]; then
  mkdir -p "$BUILD/examples" && cp "$EXAMPLES"/*.ptx "$EXAMPLES"/*.manifest.json "$BUILD/examples/"
  # gpu.approx-tune-joint; gpu.approx-tune-programs (mgpu-*, cuda)
  for d in combined mgpu-sin mgpu-gauss cuda; do
    if [ -d "$EXAMPLES/$d" ]; then
      mkdir -p "$BUILD/examples/$d" && cp "$EXAMPLES/$d"/* "$BUILD/examples/$d/"
    fi
  done
fi

step "ctest (all labels)"
ctest --test-dir "$BUILD" --output-on-failure -j 1 -V 2>&1 |
  tee "$OUT/ctest.log" | grep -E "^[0-9]+: (SKIPPED|device|lambda|occupancy|elements|free|bad PTX|huge|tuner|scale_p|  lambda|HEU|SMP|OMG|===)|Test +#|tests passed|FAILED|Failure|Expected|Which is|Value of|error" || true
grep -q "100% tests passed" "$OUT/ctest.log" || status=1

step "compute-sanitizer memcheck --leak-check full (Errors, Leaks, Precise, Sfu; Bare, Variant, Texture, Streams, Codes; precision kernels and transfers (a subset); not Fault, which faults on purpose; the API errors the Errors and Codes tests provoke on purpose are not reported)"
if command -v compute-sanitizer >/dev/null; then
  memcheck() { # log, binary, filter
    compute-sanitizer --tool memcheck --leak-check full --report-api-errors no --error-exitcode 3 \
      "$2" --gtest_filter="$3" >"$OUT/$1" 2>&1
    local rc=$?
    grep -E "ERROR SUMMARY|LEAK SUMMARY|PASSED|FAILED|tests ran|SKIPPED" "$OUT/$1"
    [ $rc -eq 0 ] || { echo "memcheck rc=$rc ($1)"; status=1; }
  }
  memcheck memcheck.log "$BUILD/test/runtime/approx-runtime-gputests" 'Errors.*:Leaks.*:Precise.*:Sfu.*'
  memcheck memcheck-features.log "$BUILD/test/runtime/approx-runtime-gpufeatures" \
    'Bare.*:Variant.*:Texture.*:Streams.*:Codes.*'
  # Precision: the conversion kernels on every f16/bf16 pattern, the
  # pipelined and unchunked transfers of one pair, the engine's teardown.
  memcheck memcheck-precision.log "$BUILD/test/runtime/approx-runtime-gpuprecision" \
    'Kernels.EveryHalfAndBf16Pattern:Kernels.ArgumentErrorsAreNotLaunched:Transfers.OverflowIsDetected:Leaks.*'
  if [ -n "${APPROX_PERFORATION_KERNELS:-}" ]; then
    # Not the 8.6 GB image (HugeImage*): minutes under the sanitizers, and
    # its kernels are those the other tests check.
    memcheck memcheck-perforation.log "$BUILD/test/runtime/approx-runtime-gpuperforation" '*:-*HugeImage*'
    # Shared-memory races between the tile loads' fetch, rebuild and reads.
    compute-sanitizer --tool racecheck --error-exitcode 3 \
      "$BUILD/test/runtime/approx-runtime-gpuperforation" --gtest_filter='*:-*HugeImage*' >"$OUT/racecheck-perforation.log" 2>&1 ||
      { echo "racecheck failed (racecheck-perforation.log)"; status=1; }
    grep -E "RACECHECK SUMMARY|PASSED|FAILED|SKIPPED" "$OUT/racecheck-perforation.log"
  else
    echo "perforation memcheck/racecheck skipped: APPROX_PERFORATION_KERNELS not set and no .carry/perforation"
  fi
else
  echo "compute-sanitizer not found"; status=1
fi
exit $status
