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
if [ $found -eq 0 ]; then
  echo "SKIPPED: no example manifests in $EX (build the compiler's examples)"
  exit 77
fi
exit $status
