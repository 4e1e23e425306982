#!/usr/bin/env bash
# gemver-gpu.sh RUNNER GEMVER_DIR OUT [N] [RUNS]: GEMVER's first run on the
# GPU, end to end (driver, context, PTX JIT, data, three kernels), for each
# build under GEMVER_DIR (one folder each holding gemver.ptx and
# gemver.manifest.json: plain, the default and another configuration built
# on demand by approx-build, the precision-all cross product). RUNNER is
# gemver-first-run (bench/configurations/gemver-first-run.cpp). Every run is
# a fresh process with the driver's JIT cache off (CUDA_CACHE_DISABLE=1), so
# each is a first run; RUNS runs (default 5) per build give the median and
# the range. N: the matrix order (default 4096, PolyBench/GPU's). Raw lines
# in OUT/BUILD-K.txt, the table on stdout.
set -u -o pipefail
RUNNER=${1:?usage: gemver-gpu.sh RUNNER GEMVER_DIR OUT [N] [RUNS]}
DIR=${2:?}; OUT=${3:?}; N=${4:-4096}; RUNS=${5:-5}
mkdir -p "$OUT"
status=0
printf '| build | kernels in the PTX | PTX bytes | manifest bytes | JIT load ms (median, range) | first run end to end ms (median, range) |\n|---|---|---|---|---|---|\n'
for d in "$DIR"/*/; do
  b=$(basename "$d")
  [ -f "$d/gemver.manifest.json" ] || continue
  for k in $(seq 1 "$RUNS"); do
    CUDA_CACHE_DISABLE=1 "$RUNNER" "$d/gemver.manifest.json" "$N" > "$OUT/$b-$k.txt" 2>&1 ||
      { echo "FAIL $b run $k: $(tail -1 "$OUT/$b-$k.txt")"; status=1; }
  done
  python3 - "$OUT" "$b" "$RUNS" <<'PY'
import statistics, sys
out, b, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
vals = []
for k in range(1, runs + 1):
    try:
        vals.append(dict(l.split() for l in open(f"{out}/{b}-{k}.txt") if len(l.split()) == 2))
    except (OSError, ValueError):
        pass
ok = [v for v in vals if "total_ms" in v]
if not ok:
    print(f"| {b} | | | | failed | failed |"); sys.exit()
def col(key):
    x = [float(v[key]) for v in ok]
    return f"{statistics.median(x):.0f} ({min(x):.0f}-{max(x):.0f})"
v = ok[0]
print(f"| {b} | {v['kernels_in_ptx']} | {int(v['ptx_bytes']):,} | {int(v['manifest_bytes']):,} | {col('load_jit_ms')} | {col('total_ms')} |")
PY
done
exit $status
