#!/usr/bin/env bash
# session-overhead.sh BEFORE AFTER PTX_DIR OUT [ROUNDS]: what a precision
# Session costs per launch, before and after a runtime change, on a GPU
# machine (not a test). BEFORE and AFTER are two builds' run-app
# (examples/precision/polybench); PTX_DIR is .carry/polybench (the plain and
# the _variants modules). Each round runs both builds in turn, the order
# alternating, on APP [fdtd2d] at the paper size, Random input, REPS [3]
# programs per call (run-app --reps; one engine for a call's programs):
#   plain    profile mode, the plain module: the f64 program as written
#   control  scale mode, the storage-variants module, every object kept f64
#            and moved by the pinned staging engine with every core
#            (approx-scale's pinned-f64 control)
# Prints (session_overhead.py), per build and mode, the median program
# time with its 95% bootstrap interval, the kernels' and copies' medians
# (CUDA events) and the rest divided by the launches, then AFTER / BEFORE
# per mode (the median of per-round ratios of the rounds' medians, with
# its interval).
# Every call's output is kept under OUT. ROUNDS [10].
set -u -o pipefail
usage="usage: session-overhead.sh BEFORE_RUN_APP AFTER_RUN_APP PTX_DIR OUT [ROUNDS]"
BEFORE=${1:?$usage}; AFTER=${2:?$usage}; PTX=${3:?$usage}; OUT=${4:?$usage}
ROUNDS=${5:-10}
APP=${APP:-fdtd2d}
REPS=${REPS:-3}
for n in "$ROUNDS" "$REPS"; do
  case $n in ''|*[!0-9]*|0) echo "session-overhead.sh: ROUNDS and REPS want positive integers, not '$n'" >&2; exit 2 ;; esac
done
for b in "$BEFORE" "$AFTER"; do
  [ -x "$b" ] || { echo "session-overhead.sh: no run-app at '$b'" >&2; exit 2; }
done
[ -f "$PTX/${APP}_variants.manifest.json" ] ||
  { echo "session-overhead.sh: $PTX has no ${APP}_variants.manifest.json (scripts/gpu-prepare.sh)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
common=(--app "$APP" --ptx-dir "$PTX" --size paper --input random --seed 1 --reps "$REPS")

# The control's configuration from the app's objects (a profile run).
"$AFTER" "${common[@]}" --profile "$OUT/profile.json" > "$OUT/profile.log" 2>&1 ||
  { echo "session-overhead.sh: profile run failed: $(tail -1 "$OUT/profile.log")" >&2; exit 1; }
python3 - "$OUT/profile.json" "$(nproc)" > "$OUT/control.json" <<'EOF' || exit 1
import json, sys
prof = json.load(open(sys.argv[1]))
staged = {"kind": "host", "threads": int(sys.argv[2])}
objects = [{"name": o["name"], "declared": o["declared"], "storage": o["declared"],
            "h2d": staged, "d2h": staged} for o in prof["objects"]]
json.dump({"format": "approx-precision-config", "version": 1, "toq": 1.0,
           "strategy": "pinned-f64-control", "objects": objects, "kernels": []},
          sys.stdout, indent=1)
EOF

status=0
for r in $(seq 1 "$ROUNDS"); do
  order="before after"; [ $((r % 2)) -eq 0 ] && order="after before"
  for b in $order; do
    bin=$BEFORE; [ "$b" = after ] && bin=$AFTER
    "$bin" "${common[@]}" > "$OUT/$b-plain-$r.log" 2>&1 || status=1
    "$bin" "${common[@]}" --config "$OUT/control.json" > "$OUT/$b-control-$r.log" 2>&1 || status=1
  done
done
[ $status -eq 0 ] || echo "session-overhead.sh: a call failed; see $OUT/*.log" >&2

python3 "$(dirname "$0")/session_overhead.py" "$OUT"
exit $status
