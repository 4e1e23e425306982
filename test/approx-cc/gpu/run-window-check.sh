#!/usr/bin/env bash
# run-window-check.sh CARRY: approx-cc's unrolled window loops on a GPU (no
# MLIR there). CARRY holds box5_perf.{ptx,manifest.json} (approx-cc
# test/approx-cc/Inputs/box5_loops.cu --name box5_perf --approx-options
# "perforate=accurate,rows1:nn perforate-blocks=32x8") and box5_plain.* (the
# same file without perforate=). Builds approx-tune (runtime-only), runs the
# 5x5 box blur of each once on the same 1024 x 1024 input and prints: the
# perforated kernel's accurate scheme against the plain kernel (must be
# bit-identical), and its rows1 scheme's mean and max relative error.
# Exit 1 when the accurate scheme differs. Log in $OUT/window.log.
set -u -o pipefail
cd "$(dirname "$0")/../../.."
carry=${1:?usage: run-window-check.sh CARRY}
out=${OUT:-/tmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash bench/build-runtime.sh build-gpu approx-tune > "$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log"; exit 2; }
n=1024
run() { # manifest prefix [knob=value...]
  local m=$1 p=$2; shift 2
  local knobs=()
  for k in "$@"; do knobs+=(--knob "$k"); done
  build-gpu/bin/approx-tune "$m" --kernel box5 --run-once "$p" \
    --element 0=f32 --shape 0=$((n * n)) --element 1=f32 --shape 1=$((n * n)) \
    --input 0=uniform:0:1 --seed 7 --scalar 2=$n --scalar 3=$n \
    --block 32,8 --grid $((n / 32)),$((n / 8)) "${knobs[@]}"
}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  date -u +%FT%TZ
  run "$carry/box5_plain.manifest.json" "$work/plain" &&
  run "$carry/box5_perf.manifest.json" "$work/accurate" perforation=0 &&
  run "$carry/box5_perf.manifest.json" "$work/rows1" perforation=1 || exit 1
  python3 - "$work" <<'PY'
import array, sys
w = sys.argv[1]
def load(name):
    a = array.array("f")
    with open(f"{w}/{name}.arg1", "rb") as f:
        a.frombytes(f.read())
    return a
plain, acc, rows = load("plain"), load("accurate"), load("rows1")
same = plain.tobytes() == acc.tobytes()
rel = [abs(r - p) / abs(p) for p, r in zip(plain, rows) if p != 0]
print(f"accurate vs plain: {'bit-identical' if same else 'DIFFERENT'} ({len(plain)} outputs)")
print(f"rows1 vs plain: mean relative error {sum(rel) / len(rel):.3e}, max {max(rel):.3e}")
sys.exit(0 if same else 1)
PY
} 2>&1 | tee "$out/window.log"
