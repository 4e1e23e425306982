#!/usr/bin/env bash
# tune-impl.sh - approx-tune chooses the LNS impl (GPU machine).
#
#   bench/lns/tune-impl.sh KERNELS_DIR
#
# KERNELS_DIR holds examples/lns/logaddexp.mlir compiled with
# lns-impls=precise,sfu,horner,texture1,texture2,texture3 (scripts/
# gpu-prepare.sh writes .carry/lns-tune). For each kernel and each QoS (max
# |error| of the log2 result against the precise variant, value 0), runs
# approx-tune's exhaustive method over the variant knob @lns_impl, then
# prints the choices and every variant's time and error
# (bench/lns/tune-impl-report.py). Writes approx-tune's files to $OUT/raw,
# all of them merged into $OUT/tune-impl.json, and the tables to
# $OUT/tune-impl.md.
#
# Timing (approx-tune's options, every variant of every call):
#   REPS [20]        --reps: timed launches per variant (after 3 warm-up)
#   UNTIL_CI [off]   --until-ci: then more, until the median's 95% bootstrap
#                    interval is within +-UNTIL_CI of it (0.01: 1%; issue
#                    30), at most MAX_REPS [200] launches (--max-reps);
#                    unset or empty: off
# A bad value is one line on stderr and exit 2, before anything is built
# or written.
set -u -o pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: tune-impl.sh KERNELS_DIR}
REPS=${REPS:-20}
MAX_REPS=${MAX_REPS:-200}
case $REPS in
  ''|*[!0-9]*|0*) echo "tune-impl.sh: REPS wants a positive integer, not '$REPS'" >&2; exit 2 ;;
esac
case $MAX_REPS in
  ''|*[!0-9]*|0*) echo "tune-impl.sh: MAX_REPS wants a positive integer, not '$MAX_REPS'" >&2; exit 2 ;;
esac
timing=(--reps "$REPS")
if [ -n "${UNTIL_CI:-}" ]; then
  # approx-tune takes a relative half-width in [1e-6, 0.5].
  if [[ ! $UNTIL_CI =~ ^0?\.[0-9]+$ ]] ||
     ! awk -v x="$UNTIL_CI" 'BEGIN { exit !(x >= 1e-6 && x <= 0.5) }'; then
    echo "tune-impl.sh: UNTIL_CI wants a relative half-width from 0.000001 to 0.5, e.g. 0.01, not '$UNTIL_CI'" >&2
    exit 2
  fi
  if [ "$MAX_REPS" -lt "$REPS" ]; then
    echo "tune-impl.sh: MAX_REPS $MAX_REPS is below REPS $REPS" >&2
    exit 2
  fi
  timing+=(--until-ci "$UNTIL_CI" --max-reps "$MAX_REPS")
fi
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/lns-tune-out}
SIZE=${SIZE:-16777216}
mkdir -p "$OUT"
bash bench/build-runtime.sh "$BUILD" >/dev/null || exit 2
status=0
mkdir -p "$OUT/raw"
for kernel in logaddexp logsumexp16 logsubexp; do
  case $kernel in
  logaddexp) inputs=(--input 0=uniform:-40:0 --input 1=uniform:-40:0) ;;
  logsumexp16) inputs=(--input 0=uniform:-40:0) ;;
  # a < b everywhere, differences down to the f32 spacing: db near 0.
  logsubexp) inputs=(--input 0=uniform:-1:-0.5 --input 1=uniform:-0.5:0) ;;
  esac
  for qos in 1e-6 1e-5 1e-4 1e-3 1e-2; do
    "$BUILD/bin/approx-tune" "$DIR/logaddexp.manifest.json" --kernel "$kernel" \
      --knob lns_impl --method omg --qos "$qos" --metric maxabs \
      --lambda-step 1 --size "$SIZE" --seed 7 "${inputs[@]}" "${timing[@]}" --quiet \
      --json "$OUT/raw/$kernel@$qos.json" > "$OUT/raw/$kernel@$qos.log" 2>&1 ||
      { echo "approx-tune $kernel qos $qos failed:"; cat "$OUT/raw/$kernel@$qos.log"; status=1; }
  done
done
python3 bench/lns/tune-impl-report.py "$OUT/raw" "$DIR/logaddexp.manifest.json" \
  "$OUT/tune-impl.json" | tee "$OUT/tune-impl.md"
exit $status
