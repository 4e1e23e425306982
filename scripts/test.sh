#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build, then run the
# whole test suite: lit + FileCheck compiler tests, then the ctest unit tests
# (GPU-labelled tests skip with a reason where no GPU is present), then the
# fixed-seed fuzz campaign (docs/robustness.md; at most about 3 minutes).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
approx_install_deps || exit 1
approx_build || exit 1

status=0
echo "== lit: compiler tests =="
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" || status=1
echo "== ctest: unit tests =="
# Say why GPU tests were skipped (ctest itself only prints "Skipped").
reason=$(ctest --test-dir "$BUILD_DIR" -L gpu -R 'gpu\.Precise' -V 2>&1 | grep -m1 -o 'SKIPPED: .*')
[ -n "$reason" ] && echo "gpu-labelled tests: $reason (run test/runtime/run-gpu-tests.sh on a GPU machine)"
# In parallel, one test per core (CI's 30 minutes; tests that must not
# share the machine say RUN_SERIAL).
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" || status=1
echo "== fuzz: fixed-seed campaign =="
FUZZ_FINDINGS="$BUILD_DIR/fuzz-findings" bash "$APPROX_ROOT/test/fuzz/ci-campaign.sh" "$BUILD_DIR" || status=1
exit $status
