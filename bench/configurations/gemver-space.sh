#!/usr/bin/env bash
# gemver-space.sh BUILD_DIR OUT: Architecture v3's bound on a 9-object,
# 3-kernel f64 program (examples/precision/gemver.mlir), every float memory
# object f64, f32, f16 or bf16. Compares the cross product of storage
# variants compiled ahead of time (`precision-all=`, the old path) with
# build knobs built on demand (`precision-space=` through approx-build):
# PTX and manifest bytes, compile time, one more configuration, a cache hit.
# CPU only (no GPU: the first-run JIT is measured on a GPU separately).
# Prints a table; raw timings and sizes go to OUT/gemver-space.json.
set -euo pipefail
BUILD=${1:?usage: gemver-space.sh BUILD_DIR OUT}; OUT=${2:?}
SRC=$(cd "$(dirname "$0")/../.." && pwd)/examples/precision/gemver.mlir
mkdir -p "$OUT"; WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
now() { date +%s.%N; }
secs() { awk "BEGIN{printf \"%.3f\", $2 - $1}"; }
size() { du -cb "$@" | tail -1 | cut -f1; }

# The old path: every combination compiled into one PTX (clones).
mkdir -p "$WORK/all"
t0=$(now)
"$BUILD/bin/approx-opt" "$SRC" \
  --approx-to-ptx="precision-all=f32,f16,bf16 output-dir=$WORK/all name=gemver" >/dev/null
t1=$(now)
all_ptx=$(size "$WORK"/all/*.ptx); all_man=$(size "$WORK"/all/*.manifest.json)
all_kernels=$(grep -c '^.visible .entry' "$WORK"/all/*.ptx)
all_time=$(secs "$t0" "$t1")

# The new path: the space once, then configurations on demand.
B=("$BUILD/bin/approx-build" "$SRC" --cache "$WORK/cache" --options "precision-space=f64,f32,f16,bf16")
t0=$(now); "${B[@]}" > "$WORK/first.txt"; t1=$(now)
first_time=$(secs "$t0" "$t1")
dir=$(ls -d "$WORK"/cache/*/ | head -1)
one_ptx=$(size "$dir"/*.ptx); one_man=$(size "$dir"/*.manifest.json)
one_kernels=$(grep -c '^.visible .entry' "$dir"/*.ptx)
knobs=$(python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(sum(k['kind']=='build' for k in m['knobs']))" "$dir"/*.manifest.json)
t0=$(now); "${B[@]}" --config precision__A=f16 --config precision__w=bf16 > "$WORK/other.txt"; t1=$(now)
other_time=$(secs "$t0" "$t1")
hits=()
for i in 1 2 3 4 5; do
  t0=$(now); "${B[@]}" --config precision__A=f16 --config precision__w=bf16 > "$WORK/hit.txt"; t1=$(now)
  grep -q '^hit ' "$WORK/hit.txt" || { echo "gemver-space: expected a cache hit" >&2; exit 1; }
  hits+=("$(secs "$t0" "$t1")")
done
hit_median=$(printf '%s\n' "${hits[@]}" | sort -n | sed -n 3p)

printf '| path | kernels in the PTX | PTX bytes | manifest bytes | time |\n|---|---|---|---|---|\n'
printf '| precision-all=f32,f16,bf16 (cross product, one build) | %s | %s | %s | %s s |\n' "$all_kernels" "$all_ptx" "$all_man" "$all_time"
printf '| approx-build, first configuration (%s build knobs) | %s | %s | %s | %s s |\n' "$knobs" "$one_kernels" "$one_ptx" "$one_man" "$first_time"
printf '| approx-build, another configuration | %s | | | %s s |\n' "$one_kernels" "$other_time"
printf '| approx-build, cache hit (median of 5: %s) | | | | %s s |\n' "${hits[*]}" "$hit_median"
python3 - "$OUT/gemver-space.json" <<PY
import json, sys, platform, subprocess
json.dump({"date": subprocess.check_output(["date", "-u", "+%Y-%m-%dT%H:%M:%SZ"]).decode().strip(),
  "machine": platform.processor() or platform.machine(), "cores": __import__("os").cpu_count(),
  "cross_product": {"kernels": $all_kernels, "ptx_bytes": $all_ptx, "manifest_bytes": $all_man, "seconds": $all_time},
  "on_demand": {"build_knobs": $knobs, "kernels": $one_kernels, "ptx_bytes": $one_ptx, "manifest_bytes": $one_man,
                "first_seconds": $first_time, "other_seconds": $other_time,
                "hit_seconds": [$(IFS=,; echo "${hits[*]}")]}}, open(sys.argv[1], "w"), indent=1)
PY
