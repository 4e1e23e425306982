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
set -u -o pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: tune-impl.sh KERNELS_DIR}
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
      --lambda-step 1 --size "$SIZE" --seed 7 "${inputs[@]}" --quiet \
      --json "$OUT/raw/$kernel@$qos.json" > "$OUT/raw/$kernel@$qos.log" 2>&1 ||
      { echo "approx-tune $kernel qos $qos failed:"; cat "$OUT/raw/$kernel@$qos.log"; status=1; }
  done
done
python3 bench/lns/tune-impl-report.py "$OUT/raw" "$DIR/logaddexp.manifest.json" \
  "$OUT/tune-impl.json" | tee "$OUT/tune-impl.md"
exit $status
