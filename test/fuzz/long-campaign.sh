#!/usr/bin/env bash
# long-campaign.sh - the on-demand fuzz campaign (default 20,000 cases).
#
# Same harness as ci-campaign.sh, more cases, and every new finding minimized
# (input lines, option tokens, manifest members, arguments dropped while the
# signature holds). Expect about an hour per 20,000 cases on one core, plus
# 20 s per hang.
#
#   test/fuzz/long-campaign.sh [BUILD_DIR]
#   env: SEED (1), RUNS (20000), FIRST (0), JOBS (1), FUZZ_FINDINGS (BUILD/fuzz-findings-long)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-${APPROX_BUILD:-$here/../../build}}"
findings="${FUZZ_FINDINGS:-$build/fuzz-findings-long}"
python="${PYTHON:-python3}"

"$python" "$here/approx-fuzz.py" --self-test --build "$build" || exit 2
exec "$python" "$here/approx-fuzz.py" --build "$build" --seed "${SEED:-1}" \
  --first "${FIRST:-0}" --runs "${RUNS:-20000}" --jobs "${JOBS:-1}" --minimize \
  --pinned --findings "$findings"
