#!/usr/bin/env bash
# rerun-dispersion.sh [STEP...]: the older suites again under issue 30's
# timing rule (each median repeated until its 95% bootstrap interval is
# within +-1%, at least 30 times; clocks, temperature and power logged), on
# a lent GPU, one call per group of steps. Needs .carry/ from
# scripts/gpu-prepare.sh (apps, lns, polybench) and
# .carry/perforation-bench (bench/perforation/prepare.sh).
#
#   apps       run-apps (Table-6 curves, ours/hand, SMP/HEU/OMG re-timed,
#              the paper's mean relative error) on every set under
#              APPS_PTX [.carry/apps-hw: hw only] (compile-apps.sh's
#              OUTDIR/<set>/, e.g. SETS="hw hw-base virtual" for the slot
#              and loop-pass comparison), side by side, one JSON per app
#              so that a call cut off keeps the apps before; APPS=a,b,...
#   perforation  perforation-bench at PERFORATION_SIZES [1024,2048,16384]
#   lns        lns-bench, every section
#   precision  approx-scale on the 14 PolyBench apps, PRECISION_INPUTS
#              [random] (default, image: .carry/precision-bench/images from
#              bench/precision/prepare.sh), PRECISION_SIZES [paper] (or
#              16x; CORR and COVAR are not run at 16x), TOQ 0.9, with the
#              pinned-f64 control and NVML energy; PRECISION_APPS [the 14]
#              (a subset, e.g. the apps a cut-off call did not reach),
#              PRECISION_CALL_TIMEOUT [120] seconds per approx-scale call
#   slots      bench/slots.sh on SLOTS_PTX [.carry/slots] (bench/slots-
#              compile.sh's examples, one module per warp-slot source):
#              approx-tune sweeps each twice, each λ under the timing rule
#
# Every step writes under $WORK/<step>; the lot is packed into
# $OUT/results.tgz after each step and every minute (the device tool
# returns only a few files, and a step the call's limit cuts off keeps
# what it finished). DEADLINE [540] seconds from the start: a step (or an
# app) that would start later is skipped and said so; each is cut at the
# deadline by timeout(1).
set -u -o pipefail
cd "$(dirname "$0")/.."
T0=$(date +%s)
DEADLINE=${DEADLINE:-540}
BUILD=${BUILD:-build-gpu}
# The apps step runs every set it finds under APPS_PTX, as run-apps.sh does.
APPS_PTX=${APPS_PTX:-.carry/apps-hw}
RESULTS=${OUT:-$PWD/gpu-out}
WORK=${WORK:-$(mktemp -d)}
case $DEADLINE in
  ''|*[!0-9]*) echo "rerun-dispersion.sh: DEADLINE wants seconds, not '$DEADLINE'" >&2; exit 2 ;;
esac
for i in ${PRECISION_INPUTS:-random}; do
  case $i in
    default|image|random) ;;
    *) echo "rerun-dispersion.sh: PRECISION_INPUTS: unknown input set '$i' (default, image, random)" >&2; exit 2 ;;
  esac
done
for z in ${PRECISION_SIZES:-paper}; do
  case $z in
    paper|16x) ;;
    *) echo "rerun-dispersion.sh: PRECISION_SIZES: unknown size '$z' (paper, 16x)" >&2; exit 2 ;;
  esac
done
PRECISION_ALL="gemm syrk 3mm 2dconv atax bicg mvt 3dconv gesummv syr2k fdtd2d 2mm covar corr"
for a in ${PRECISION_APPS:-$PRECISION_ALL}; do
  case " $PRECISION_ALL " in
    *" $a "*) ;;
    *) echo "rerun-dispersion.sh: PRECISION_APPS: unknown app '$a' ($PRECISION_ALL)" >&2; exit 2 ;;
  esac
done
case ${PRECISION_CALL_TIMEOUT:-120} in
  ''|*[!0-9]*|0*) echo "rerun-dispersion.sh: PRECISION_CALL_TIMEOUT wants a positive number of seconds, not '$PRECISION_CALL_TIMEOUT'" >&2; exit 2 ;;
esac
for step in "$@"; do
  case $step in
    apps|perforation|lns|precision|slots) ;;
    *) echo "rerun-dispersion.sh: unknown step '$step' (apps, perforation, lns, precision, slots)" >&2; exit 2 ;;
  esac
done
case " $* " in
  *" apps "*)
    if ! ls "$APPS_PTX"/*/*.manifest.json > /dev/null 2>&1; then
      echo "rerun-dispersion.sh: APPS_PTX '$APPS_PTX' holds no set of apps (compile-apps.sh's OUTDIR/<set>/<app>.manifest.json)" >&2
      exit 2
    fi ;;
esac
SLOTS_PTX=${SLOTS_PTX:-.carry/slots}
case " $* " in
  *" slots "*)
    for f in box_muller-hw box_muller-virtual box_muller-software black_scholes-hw \
             black_scholes-virtual black_scholes-software; do
      if [ ! -f "$SLOTS_PTX/$f.manifest.json" ]; then
        echo "rerun-dispersion.sh: SLOTS_PTX '$SLOTS_PTX' lacks $f.manifest.json (bench/slots-compile.sh APPROX_OPT DIR makes it)" >&2
        exit 2
      fi
    done ;;
esac
source scripts/pack-results.sh
pack_results_start "$WORK" "$RESULTS"
left() { echo $(( DEADLINE - ($(date +%s) - T0) )); }
say() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a "$WORK/steps.log"; }
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory \
    --format=csv,noheader; } > "$WORK/machine.txt" 2>&1
# The runtime once, the targets every step links or runs.
bash bench/build-runtime.sh "$BUILD" approx_runtime_archive approx-tune \
  approx-scale approx-inspect approx_lns_math > "$WORK/build.log" 2>&1 ||
  { say "runtime build failed"; tail -20 "$WORK/build.log"; exit 2; }
say "runtime built"
status=0
for step in "$@"; do
  l=$(left)
  if [ "$l" -lt 20 ]; then say "$step: skipped (deadline)"; continue; fi
  mkdir -p "$WORK/$step"
  case $step in
  apps)
    apps=${APPS:-$(ls bench/apps/[a-z]*.cu | xargs -n1 basename | sed 's/\.cu$//' | grep -v '^run-' | paste -sd,)}
    # run-apps.sh builds the runner with the first app; the others call it.
    for app in ${apps//,/ }; do
      l=$(left)
      if [ "$l" -lt 20 ]; then say "apps: $app skipped (deadline)"; continue; fi
      args=(--apps "$app" --min-reps 30 --until-ci 0.01 --max-reps 100)
      if [ -x "$BUILD/run-apps" ]; then
        sets=()
        for d in "$APPS_PTX"/*/; do sets+=(--set "$(basename "$d")=$d"); done
        timeout -k 5 "$l" "$BUILD/run-apps" "${sets[@]}" \
          --json "$WORK/apps/apps-$app.json" "${args[@]}" > "$WORK/apps/$app.log" 2>&1
        rc=$?
      else
        OUT=$WORK/apps BUILD=$BUILD timeout -k 5 "$l" bash bench/apps/run-apps.sh \
          "$APPS_PTX" "${args[@]}" > "$WORK/apps/$app.log" 2>&1
        rc=$?
        mv "$WORK/apps/apps.json" "$WORK/apps/apps-$app.json" 2>/dev/null
      fi
      say "apps: $app exit $rc"
      [ $rc -eq 0 ] || status=1
    done ;;
  perforation)
    OUT=$WORK/perforation BUILD=$BUILD timeout -k 5 "$l" bash bench/perforation/run.sh \
      --sizes "${PERFORATION_SIZES:-1024,2048,16384}" --min-reps 30 --until-ci 0.01 --max-reps 200 \
      > "$WORK/perforation/run.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    say "perforation: exit $rc" ;;
  lns)
    OUT=$WORK/lns BUILD=$BUILD timeout -k 5 "$l" bash bench/lns/run-lns.sh .carry/lns \
      --min-reps 30 --until-ci 0.01 --max-reps 200 > "$WORK/lns/run.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    say "lns: exit $rc" ;;
  precision)
    OUT=$WORK/precision BUILD=$BUILD PTX=.carry/polybench INPUTS="${PRECISION_INPUTS:-random}" SIZES="${PRECISION_SIZES:-paper}" \
      TOQS=0.9 REPS=5 UNTIL_CI=0.01 MAX_REPS=30 HOLDOUT=0 QUICK=1 \
      BUDGET=$(( l - 10 )) CALL_TIMEOUT=${PRECISION_CALL_TIMEOUT:-120} \
      APPS="${PRECISION_APPS:-$PRECISION_ALL}" \
      bash bench/precision/run-scaling.sh > "$WORK/precision/run.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    say "precision: exit $rc" ;;
  slots)
    OUT=$WORK/slots BUILD=$BUILD timeout -k 5 "$l" bash bench/slots.sh "$SLOTS_PTX" \
      > "$WORK/slots/run.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    say "slots: exit $rc" ;;
  *) say "unknown step $step (apps, perforation, lns, precision, slots)"; status=2 ;;
  esac
  pack
done
say "done, status $status"
exit $status
