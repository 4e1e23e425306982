#!/bin/sh
# exec-fake-test.sh - ctest approx-scale.exec.fake-*: approx-scale --exec over
# the fake-driver build of examples/precision/mgpu's GESUMMV (no GPU).
#
#   exec-fake-test.sh APPROX_SCALE PROGRAM MANIFEST DB WORKDIR ok|fail-f16|bad-report
#
# ok: the search runs, chooses, verifies and writes its report (exit 0).
# fail-f16: PROGRAM is wrapped by this script itself (as "stub") so that a
# scaled run storing any object in f16 exits 3 with one line on stderr, as
# a failing program would; those trials must be failed trials (FAILED, the
# line in the report's failed_trials) and the search must still finish.
# bad-report: the wrapped program's scale reports are malformed: each such
# trial fails with one line naming the report, and the search finishes.
# The database is a fixture from another machine: --no-machine-check.
set -u
if [ "${1:-}" = stub ]; then
  if [ "${APPROX_PRECISION:-}" = scale ] &&
     grep -q '"storage": "f16"' "$APPROX_PRECISION_CONFIG"; then
    echo "stub: refusing f16 storage" >&2
    exit 3
  fi
  exec "$APPROX_SCALE_TEST_PROGRAM"
fi
if [ "${1:-}" = bad-report-stub ]; then
  # The program runs, then its scale report is replaced by one whose
  # kernel_seconds is a string.
  "$APPROX_SCALE_TEST_PROGRAM" || exit $?
  if [ "${APPROX_PRECISION:-}" = scale ]; then
    printf '{"format": "approx-mgpu-scale-report", "wall_seconds": 1, "kernel_seconds": "x"}' \
      > "$APPROX_PRECISION_REPORT"
  fi
  exit 0
fi
scale=$1 program=$2 manifest=$3 db=$4 work=$5 mode=$6
rm -rf "$work" && mkdir -p "$work" || exit 1
if [ "$mode" = fail-f16 ] || [ "$mode" = bad-report ]; then
  APPROX_SCALE_TEST_PROGRAM=$program
  export APPROX_SCALE_TEST_PROGRAM
  program=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
  if [ "$mode" = fail-f16 ]; then set -- --arg stub; else set -- --arg bad-report-stub; fi
else
  set --
fi
GESUMMV_N=64 TMPDIR=$work "$scale" --exec "$program" "$@" \
  --manifest "$manifest" --db "$db" --toq 0.9 --reps 1 --warmups 1 \
  --no-machine-check -o "$work/report.json" >"$work/log" 2>&1
rc=$?
cat "$work/log"
die() { echo "exec-fake-test: $*"; exit 1; }
if [ "$mode" = bad-report ]; then
  # Each malformed report is a failed trial, one line naming the report
  # (no uncaught exception); the search keeps f64 and finishes.
  [ $rc -eq 0 ] || die "approx-scale exited $rc"
  grep -q "^approx-scale: .*: scale report '.*trial.report.json': .*type must be number" "$work/log" ||
    die "no one-line error naming the scale report"
  grep -q 'type must be number' "$work/report.json" ||
    die "no failed_trials in the report"
  if grep -q -- '-> f\(32\|16\)' "$work/log"; then die "chose a narrower type"; fi
  [ "$(ls "$work")" = "$(printf 'log\nreport.json')" ] ||
    die "left behind: $(ls "$work")"
  echo "exec-fake-test: $mode passed"
  exit 0
fi
[ $rc -eq 0 ] || die "approx-scale exited $rc"
grep -q '^f64 profile: .* 4 objects, 4 transfers, 1 outputs$' "$work/log" ||
  die "no f64 profile line"
grep -q '^strategy ours, toq 0.9: [0-9]* trials' "$work/log" ||
  die "no decision"
grep -q '"quality"' "$work/report.json" || die "no report"
# Only the stubs' own failures: every trial of the plain program runs.
if [ "$mode" = ok ] && grep -q 'FAILED' "$work/log"; then
  die "a trial failed: $(grep -m1 '^approx-scale: ' "$work/log")"
fi
# The temporary directory is gone (only the log and report remain).
[ "$(ls "$work")" = "$(printf 'log\nreport.json')" ] ||
  die "left behind: $(ls "$work")"
if [ "$mode" = fail-f16 ]; then
  grep -q 'exit status 3: stub: refusing f16 storage' "$work/log" ||
    die "no failed trial's stderr line"
  grep -q 'FAILED' "$work/log" || die "no FAILED trial"
  # The trials without f16 run.
  grep '^\[trial' "$work/log" | grep -v 'f16\[' | grep -v FAILED | grep -q 'f32\[' ||
    die "no f32 trial ran"
  if grep -q -- '-> f16' "$work/log"; then die "chose f16"; fi
  grep -q 'refusing f16 storage' "$work/report.json" ||
    die "no failed_trials in the report"
fi
echo "exec-fake-test: $mode passed"
