#!/usr/bin/env bash
# gpu-check.sh - every GPU check in one call, for a lent GPU machine (no MLIR
# there): the runtime's GPU tests with compute-sanitizer, the benchmark
# (ours vs hand-written CUDA, tuner cost), the corpus's lambda = 0
# comparison with upstream's pipeline, the accuracy of every form, and
# approx-cc's PTX of an unmodified CUDA file against nvcc's build (cuda),
# the evaluation suite of bench/apps (apps), the LNS family's checks,
# benchmark and examples (lns, lns-examples), the tuner's choice of LNS
# impl (lns-tune), the precision-scaling
# benchmark (precision) and the mgpu precision example (precision-mgpu).
# Prepare .carry/ first with scripts/gpu-prepare.sh and carry it. Logs and
# results go to $OUT.
#
#   scripts/gpu-check.sh [tests] [bench] [corpus] [accuracy] [cuda] [apps] [lns] [lns-examples] [lns-tune]
#                        [precision] [precision-mgpu]  (default: all but the last two)
set -u -o pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-$PWD/gpu-out}
export BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
steps=${*:-tests bench corpus accuracy cuda apps lns lns-examples}
status=0
for s in $steps; do
  start=$(date +%s)
  case $s in
  tests)
    EXAMPLES=.carry/examples bash test/runtime/run-gpu-tests.sh || status=1 ;;
  bench)
    OUT=$OUT/bench bash bench/run-bench.sh .carry/examples > "$OUT/bench.log" 2>&1 || status=1
    tail -40 "$OUT/bench.log" ;;
  corpus)
    APPROX_TUNE=$PWD/$BUILD/bin/approx-tune bash test/Corpus/compare-upstream.sh run .carry/corpus \
      > "$OUT/corpus.log" 2>&1 || status=1
    cp .carry/corpus/report.md "$OUT/corpus-report.md" 2>/dev/null
    tail -60 "$OUT/corpus.log" ;;
  cuda)
    OUT=$OUT APPROX_TUNE=${APPROX_TUNE:-$PWD/$BUILD/bin/approx-tune} \
      bash test/approx-cc/gpu/run-gpu-check.sh "$PWD/.carry/cuda" || status=1 ;;
  apps)
    # APPS=a,b,c runs a subset (one GPU call holds 10 minutes).
    OUT=$OUT/apps bash bench/apps/run-apps.sh .carry/apps ${APPS:+--apps $APPS} ${APPS_REPS:+--reps $APPS_REPS} || status=1 ;;
  lns)
    # The filter model's bit check, the accuracy sweep, Table 1 (bench/lns).
    OUT=$OUT/lns bash bench/lns/run-lns.sh .carry/lns ${LNS_ARGS:-} || status=1 ;;
  lns-examples)
    OUT=$OUT/lns-examples bash examples/lns/run-lns-examples.sh .carry/lns-examples || status=1 ;;
  lns-tune)
    # approx-tune choosing the LNS impl (bench/lns/tune-impl.sh).
    OUT=$OUT/lns-tune bash bench/lns/tune-impl.sh .carry/lns-tune || status=1 ;;
  precision)
    # The precision-scaling benchmark (bench/precision/run-scaling.sh; its
    # environment: PLAN, APPS, INPUTS, SIZES, BUDGET, CALL_TIMEOUT, ...).
    OUT=$OUT/precision bash bench/precision/run-scaling.sh > "$OUT/precision.log" 2>&1 || status=1
    tail -60 "$OUT/precision.log" ;;
  precision-mgpu)
    # The MLIR host program through libapprox_mgpu's precision hooks:
    # plain, profile, two scaled runs (examples/precision/mgpu/build.sh).
    mkdir -p "$OUT/precision-mgpu" && cp .carry/precision-mgpu/* "$OUT/precision-mgpu/" &&
      bash bench/build-runtime.sh "$BUILD" approx_mgpu > "$OUT/precision-mgpu/build.log" 2>&1 &&
      bash examples/precision/mgpu/build.sh run "$OUT/precision-mgpu" \
        "$(dirname "$(find "$BUILD" -name libapprox_mgpu.so | head -1)")" || status=1 ;;
  accuracy)
    OUT=$OUT/accuracy bash bench/accuracy/run-accuracy.sh .carry/accuracy > "$OUT/accuracy.log" 2>&1 || status=1
    tail -30 "$OUT/accuracy.log" ;;
  *) echo "unknown step $s"; exit 2 ;;
  esac
  echo "=== $s done in $(( $(date +%s) - start )) s (status so far $status)"
done
exit $status
