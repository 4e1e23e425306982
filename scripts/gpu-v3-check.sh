#!/usr/bin/env bash
# gpu-v3-check.sh [tests] [bench] [gemver] [apps]: Architecture v3's checks
# on a lent GPU, in one call (docs/configurations.md, issue 28). Needs
# scripts/gpu-prepare.sh's .carry/ and .carry/v3/, made here by
# bench/configurations/prepare-v3-check.sh (the binaries and PTX of the
# tree before v3 and of this one). Logs and results: $OUT/results.tgz.
# One call holds 10 minutes: run `tests` alone (bench takes about 8).
#   tests   the runtime's GPU tests and compute-sanitizer (run-gpu-tests.sh)
#   bench   approx-bench before and after v3, in turn, 3 rounds each
#           (bench/compare-bench.sh): ours/hand at lambda 0 and lambda_max
#   gemver  GEMVER's first run of a build, end to end (gemver-gpu.sh)
#   apps    the Table-6 suite (run-apps) before and after v3 on one set;
#           APPS=a,b,... narrows it
set -u -o pipefail
cd "$(dirname "$0")/.."
# Everything is written under WORK; after each step it is packed into
# $OUT/results.tgz (the device tool returns only a few files, and a call
# cut off by its time limit keeps what the steps before finished).
RESULTS=${OUT:-$PWD/gpu-out}
export OUT=${WORK:-$(mktemp -d)}
source scripts/pack-results.sh
pack_results_start "$OUT" "$RESULTS"
V=.carry/v3
status=0
for s in ${*:-tests bench gemver}; do
  start=$(date +%s)
  case $s in
  tests)
    OUT=$OUT/tests EXAMPLES=.carry/examples bash test/runtime/run-gpu-tests.sh > "$OUT/tests.log" 2>&1 || status=1
    grep -E "tests passed|tests failed|ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|memcheck rc|FAILED|SKIPPED:" "$OUT/tests.log" | sort | uniq -c | head -40 ;;
  bench)
    bash bench/compare-bench.sh "$OUT/bench" before="$V/approx-bench-before:$V/ex-before" \
      after="$V/approx-bench-after:$V/ex-after" 3 | tee "$OUT/bench.md" || status=1 ;;
  gemver)
    bash bench/configurations/gemver-gpu.sh "$V/gemver-first-run" "$V/gemver" "$OUT/gemver" 4096 3 |
      tee "$OUT/gemver.md" || status=1 ;;
  apps)
    for b in before after; do
      "$V/run-apps-$b" --set hw="$V/apps-$b/hw" ${APPS:+--apps $APPS} --json "$OUT/apps-$b.json" \
        > "$OUT/apps-$b.md" 2>&1 || { echo "FAIL apps $b: $(tail -2 "$OUT/apps-$b.md")"; status=1; }
    done ;;
  *) echo "gpu-v3-check.sh: unknown step '$s' (tests, bench, gemver, apps)" >&2; exit 2 ;;
  esac
  echo "=== $s done in $(( $(date +%s) - start )) s (status so far $status)"
  # The commit: .carry/commit.txt (gpu-prepare.sh writes it; the device's
  # copy of .git may be older than the tree it was given).
  { nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%FT%TZ
    cat .carry/commit.txt 2>/dev/null || git rev-parse HEAD; } > "$OUT/env.txt" 2>&1
  pack
done
exit $status
