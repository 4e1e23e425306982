#!/usr/bin/env bash
# run-examples.sh - approx-tune (HEU) on the compiled examples, as a GPU test.
#
#   run-examples.sh APPROX_TUNE EXAMPLES_DIR
#
# EXAMPLES_DIR holds approx-opt's box_muller / black_scholes / coulomb_f64
# PTX + manifests. Exit 77 (skipped) when none is there or there is no GPU;
# otherwise nonzero if a run fails or misses its QoS.
set -u
T=$1 EX=$2
found=0 status=0
run() { # name, args...
  local name=$1; shift
  [ -f "$EX/$name.manifest.json" ] || return 0
  found=1
  echo "=== $name"
  "$T" "$EX/$name.manifest.json" --method heu --qos-ratio 0.8 --reps 5 \
    --quiet "$@"
  local rc=$?
  [ $rc -eq 77 ] && { echo "SKIPPED: no usable CUDA GPU"; exit 77; }
  [ $rc -eq 0 ] || status=1
}
run box_muller --inout 0=uniform:1e-7:1 --size 4194304 --scalar 1=16 \
  --scalar 2=262144 --grid 1024
run black_scholes --input 2=uniform:5:30 --input 3=uniform:1:100 \
  --input 4=uniform:0.25:10 --scalar 5=0.02 --scalar 6=0.30 --scalar 7=size \
  --size 4194304
run coulomb_f64 --shape 0=1024x4 --shape 1=65536x3 --shape 2=65536 \
  --input 0=uniform:0:64 --input 1=uniform:0:64 --scalar 3=1024 \
  --scalar 4=65536 --grid 256
# approx-tune's JSON gives every measured λ its median's 95% interval
# (time_ci95_ms: the TunePoint's interval, from the evaluator): present and
# around the median.
if [ -f "$EX/box_muller.manifest.json" ]; then
  J=$(mktemp -d)
  "$T" "$EX/box_muller.manifest.json" --method heu --qos-ratio 0.8 --reps 10 \
    --until-ci 0.05 --max-reps 60 --quiet --inout 0=uniform:1e-7:1 --size 4194304 \
    --scalar 1=16 --scalar 2=262144 --grid 1024 --json "$J/tune.json" > /dev/null || status=1
  python3 - "$J/tune.json" <<'PY' || { echo "FAIL: approx-tune's points lack their intervals"; status=1; }
import json, sys
points = json.load(open(sys.argv[1]))["points"]
bad = [p["lambda"] for p in points
       if not ("time_ci95_ms" in p and p["time_ci95_ms"][0] <= p["time_ms"] <= p["time_ci95_ms"][1])]
print(f"{len(points)} points, {len(bad)} without an interval around the median: {bad}")
sys.exit(1 if bad or not points else 0)
PY
  rm -rf "$J"
fi
if [ $found -eq 0 ]; then
  echo "SKIPPED: no example manifests in $EX (build the compiler's examples)"
  exit 77
fi
exit $status
