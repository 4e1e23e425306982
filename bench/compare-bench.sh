#!/usr/bin/env bash
# compare-bench.sh OUT LABEL=BIN:EXAMPLES_DIR LABEL=BIN:EXAMPLES_DIR [ROUNDS]:
# two builds of approx-bench (e.g. before and after a runtime change, each
# with the examples its compiler made) run in turn, ROUNDS times each
# (default 3), on one GPU in one call, so that their ours/hand ratios at
# lambda = 0 and lambda_max compare side by side. Each run's table and JSON
# go to OUT/LABEL-N.{md,json}; a table of every run's ratios and each
# label's median is printed.
set -u -o pipefail
OUT=${1:?usage: compare-bench.sh OUT LABEL=BIN:DIR LABEL=BIN:DIR [ROUNDS]}
A=${2:?}; B=${3:?}; ROUNDS=${4:-3}
mkdir -p "$OUT"
status=0
for r in $(seq 1 "$ROUNDS"); do
  for spec in "$A" "$B"; do
    label=${spec%%=*}; rest=${spec#*=}; bin=${rest%%:*}; ex=${rest#*:}
    [ -x "$bin" ] || { echo "compare-bench.sh: $bin is not executable" >&2; exit 2; }
    "$bin" "$ex" --reps 20 --json "$OUT/$label-$r.json" > "$OUT/$label-$r.md" 2>&1 ||
      { echo "FAIL $label round $r: $(tail -1 "$OUT/$label-$r.md")"; status=1; }
  done
done
python3 - "$OUT" "${A%%=*}" "${B%%=*}" "$ROUNDS" <<'PY'
import json, os, statistics, sys
out, la, lb, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = {}
for label in (la, lb):
    for r in range(1, rounds + 1):
        p = os.path.join(out, f"{label}-{r}.json")
        if not os.path.exists(p):
            continue
        for e in json.load(open(p)):
            rows.setdefault((e["example"], label), []).append(
                (e["ours_t0"] / e["hand_t0"], e["ours_tmax"] / e["hand_tmax"]))
print("| example | build | ours/hand at 0 (each run) | median | ours/hand at max (each run) | median |")
print("|---|---|---|---|---|---|")
for (name, label), v in sorted(rows.items()):
    z = [a for a, _ in v]; m = [b for _, b in v]
    print(f"| {name} | {label} | {', '.join(f'{x:.3f}' for x in z)} | {statistics.median(z):.3f} "
          f"| {', '.join(f'{x:.3f}' for x in m)} | {statistics.median(m):.3f} |")
for name in sorted({n for n, _ in rows}):
    if (name, la) in rows and (name, lb) in rows:
        for i, what in ((0, "at 0"), (1, "at max")):
            a = statistics.median(x[i] for x in rows[(name, la)])
            b = statistics.median(x[i] for x in rows[(name, lb)])
            print(f"{name} {what}: {lb}/{la} of the medians {b / a:.4f} ({100 * (b / a - 1):+.2f}%)")
PY
exit $status
