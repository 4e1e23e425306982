#!/usr/bin/env bash
# ci-campaign.sh - the short fixed-seed fuzz campaign CI runs.
#
# Proves the oracles work (--self-test), then runs a fixed-seed campaign
# against BUILD_DIR's approx-opt and approx-tune: under 3 minutes on 2 cores
# (the pinned regression cases, then random cases until 120 s have passed;
# a run is a hang after 20 s). Exit status:
# 0 nothing found, 1 findings (reproducers in $FUZZ_FINDINGS), 2 harness error.
#
#   test/fuzz/ci-campaign.sh [BUILD_DIR]      # default: $APPROX_BUILD or build/
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-${APPROX_BUILD:-$here/../../build}}"
findings="${FUZZ_FINDINGS:-$build/fuzz-findings}"
python="${PYTHON:-python3}"

"$python" "$here/approx-fuzz.py" --self-test --build "$build" || exit 2
rm -rf "$findings"
exec "$python" "$here/approx-fuzz.py" --build "$build" --seed 1 --pinned --runs 400 --seconds 120 \
  --timeout 20 --findings "$findings" --quiet
