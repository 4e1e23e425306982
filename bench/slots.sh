#!/usr/bin/env bash
# slots.sh - the three warp-slot sources side by side (not a test).
#
#   bench/slots.sh EXAMPLES_DIR
#
# EXAMPLES_DIR holds NAME-{hw,virtual,software}.ptx/.manifest.json, compiled
# with approx-opt --approx-to-ptx="slot=..." (bench/slots-compile.sh makes
# them). For each, approx-tune sweeps every lambda twice (OMG, QoS_ratio 0.8)
# on the same inputs, each lambda timed under issue 30's rule (SLOT_REPS:
# at least 30 launches, then until the median's 95% interval is within
# ±1%, at most 100); bench/slots-table.py prints T(0) and T(lambda_max)
# with their intervals, the speedup, E(lambda_max), OMG's lambda*, and how
# much E(lambda) moved between the two sweeps (0 = bit-reproducible).
# Needs approx-tune ($BUILD/bin).
set -u -o pipefail
cd "$(dirname "$0")/.."
EX=$1
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/slots-out}
mkdir -p "$OUT"
T="$BUILD/bin/approx-tune"
read -ra reps <<<"${SLOT_REPS:---reps 30 --until-ci 0.01 --max-reps 100}"
status=0
for slot in hw virtual software; do
  for rep in 1 2; do
    "$T" "$EX/box_muller-$slot.manifest.json" --method omg --qos-ratio 0.8 \
      "${reps[@]}" --quiet --json "$OUT/box_muller-$slot-$rep.json" \
      --inout 0=uniform:1e-7:1 --size 4194304 --scalar 1=16 \
      --scalar 2=262144 --grid 1024 > /dev/null || status=1
    "$T" "$EX/black_scholes-$slot.manifest.json" --method omg --qos-ratio 0.8 \
      "${reps[@]}" --quiet --json "$OUT/black_scholes-$slot-$rep.json" \
      --input 2=uniform:5:30 --input 3=uniform:1:100 --input 4=uniform:0.25:10 \
      --scalar 5=0.02 --scalar 6=0.30 --scalar 7=size --size 4194304 \
      > /dev/null || status=1
  done
done
python3 bench/slots-table.py "$OUT" | tee "$OUT/slots.md"
exit $status
