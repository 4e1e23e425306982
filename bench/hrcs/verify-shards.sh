#!/usr/bin/env bash
# verify-shards.sh BIN_DIR OUT SHARDS_FILE: several approx-hrcs-verify runs
# at once, one per line of SHARDS_FILE ("NAME ARGS...", '#' comments), on
# every GPU. approx-hrcs-verify runs the settings of one binade one after
# another, so a few costly binades (sin and cos far from 0) leave most of a
# machine idle; shards by setting fill it. Each shard keeps its cells as
# JSON lines (OUT/NAME/cells.jsonl) as it goes, so a shard stopped by
# SHARD_TIME_LIMIT (seconds, default 540) keeps every binade it finished.
set -uo pipefail
BIN=${1:?usage: verify-shards.sh BIN_DIR OUT SHARDS_FILE}
OUT=${2:?usage: verify-shards.sh BIN_DIR OUT SHARDS_FILE}
SHARDS=${3:?usage: verify-shards.sh BIN_DIR OUT SHARDS_FILE}
[ -x "$BIN/approx-hrcs-verify" ] || { echo "verify-shards.sh: no $BIN/approx-hrcs-verify" >&2; exit 2; }
[ -r "$SHARDS" ] || { echo "verify-shards.sh: cannot read $SHARDS" >&2; exit 2; }
GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)
[ "$GPUS" -gt 0 ] || { echo "verify-shards.sh: no GPU (nvidia-smi -L lists none)" >&2; exit 2; }
ALLDEV=$(seq -s, 0 $((GPUS - 1)))
mapfile -t lines < <(grep -v '^[[:space:]]*\(#\|$\)' "$SHARDS")
n=${#lines[@]}
[ "$n" -gt 0 ] || { echo "verify-shards.sh: $SHARDS has no shard" >&2; exit 2; }
threads=$(( $(nproc) / n > 0 ? $(nproc) / n : 1 ))
pids=()
for line in "${lines[@]}"; do
  read -r name args <<< "$line"
  mkdir -p "$OUT/$name"
  # shellcheck disable=SC2086 # args are words by design
  timeout "${SHARD_TIME_LIMIT:-540}" "$BIN/approx-hrcs-verify" --backend gpu \
    --devices "$ALLDEV" --threads "$threads" $args \
    --json "$OUT/$name/verify.json" --cells "$OUT/$name/cells.jsonl" \
    > "$OUT/$name/log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
  read -r name _ <<< "${lines[$i]}"
  wait "${pids[$i]}"; rc=$?
  echo "$name: exit $rc, $(wc -l < "$OUT/$name/cells.jsonl") cells; $(tail -1 "$OUT/$name/log")"
  [ $rc -eq 0 ] || status=1
done
exit $status
