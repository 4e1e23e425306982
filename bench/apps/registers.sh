#!/usr/bin/env bash
# registers.sh OURS_PTX_DIR [APP...]: static, no GPU. For each Table-6 app
# (bench/apps/APP.cu; all by default), ptxas -v at sm_90 of ours (approx-cc's
# PTX in OURS_PTX_DIR, e.g. .carry/apps/hw from scripts/gpu-prepare.sh) and
# of the Listing-3 hand build (the device side of run-apps.sh's nvcc flags):
# registers, spill bytes and shared memory of each kernel, as a Markdown
# table. The registers bound how many warps an SM holds, one cause of an
# ours/hand gap that docs/benchmarks.md and docs/sfu-apps-sass.md discuss.
set -u -o pipefail
cd "$(dirname "$0")/../.."
OURS=${1:?usage: registers.sh OURS_PTX_DIR [APP...]}; shift
[ -d "$OURS" ] || { echo "registers.sh: no directory '$OURS'" >&2; exit 2; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
PTXAS=${PTXAS:-$(dirname "$NVCC")/ptxas}
apps=("$@")
[ ${#apps[@]} -gt 0 ] || mapfile -t apps < <(ls bench/apps/[a-z]*.cu | xargs -n1 basename | sed 's/\.cu$//' | grep -v '^run-')
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# "kernel regs spill smem" per entry of one ptxas -v log.
entries() {
  awk '/Compiling entry function/ { match($0, /'\''[^'\'']*'\''/); k = substr($0, RSTART + 1, RLENGTH - 2) }
       /bytes spill stores/ { s = $5 }
       /Used [0-9]+ registers/ { r = $5; m = 0; if (match($0, /[0-9]+ bytes smem/)) m = substr($0, RSTART, RLENGTH) + 0
                                 print k, r, s + 0, m; s = 0 }' "$1"
}
echo "| app | kernel | ours registers | hand registers | ours / hand spill bytes | ours / hand smem bytes |"
echo "| --- | --- | --- | --- | --- | --- |"
status=0
for a in "${apps[@]}"; do
  [ -f "bench/apps/$a.cu" ] && [ -f "$OURS/$a.ptx" ] ||
    { echo "registers.sh: no bench/apps/$a.cu or $OURS/$a.ptx" >&2; status=1; continue; }
  "$NVCC" -O3 -std=c++17 -arch=sm_90 -DAX_LISTING3 -diag-suppress 2810 -Iruntime/include \
    -ptx "bench/apps/$a.cu" -o "$tmp/$a-hand.ptx" 2> "$tmp/$a.nvcc" ||
    { echo "registers.sh: $a: nvcc failed: $(head -1 "$tmp/$a.nvcc")" >&2; status=1; continue; }
  for s in ours hand; do
    f=$tmp/$a-hand.ptx; [ $s = ours ] && f=$OURS/$a.ptx
    "$PTXAS" -O3 -arch=sm_90 -v "$f" -o /dev/null 2> "$tmp/$a-$s.log" ||
      { echo "registers.sh: $a: ptxas failed on $s" >&2; status=1; continue 2; }
  done
  join <(entries "$tmp/$a-ours.log" | sort) <(entries "$tmp/$a-hand.log" | sort) |
    while read -r k r1 s1 m1 r2 s2 m2; do
      echo "| $(echo "$a" | tr a-z A-Z) | $k | $r1 | $r2 | $s1 / $s2 | $m1 / $m2 |"
    done
done
exit $status
