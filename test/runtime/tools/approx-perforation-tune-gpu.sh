#!/usr/bin/env bash
# approx-perforation-tune-gpu.sh TOOL WORK_DIR - approx-perforation-tune on a
# GPU (ctest gpu.perforation-tune), through the evaluation harness
# (tune/KernelEvaluator.h): the raised 3x3 Gaussian that gpu-prepare.sh
# compiles into $APPROX_PERFORATION_KERNELS (schemes accurate, rows1:nn,
# rows1:linear, stencil:nn; blocks 32x8, 16x16r3, 64x4r2) on a random
# 1024x1024 image. Checks every scheme x block was measured, the accurate
# versions match the reference exactly, the perforated ones do not, and a
# pick is made. Exits 77 (skip) with the reason without a GPU or kernels.
set -u
T=$1 W=$2
M=${APPROX_PERFORATION_KERNELS:-}/gaussian3_plain_raised.manifest.json
if [ -z "${APPROX_PERFORATION_KERNELS:-}" ] || [ ! -f "$M" ]; then
  echo "SKIPPED: no $M (APPROX_PERFORATION_KERNELS, scripts/gpu-prepare.sh)"; exit 77
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no GPU (nvidia-smi -L)"; exit 77
fi
rm -rf "$W" && mkdir -p "$W" || exit 2
python3 - "$W/in.npy" <<'PY' || exit 2
import random, struct, sys
random.seed(28)
h = w = 1024
head = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (h, w)
head += " " * (63 - (10 + len(head)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode())
    f.write(struct.pack("<%df" % (h * w), *[random.uniform(0.1, 1.0) for _ in range(h * w)]))
PY
"$T" "$M" --kernel gaussian3_plain --image 0="$W/in.npy" --output 1 \
  --metric mre --qos 0.05 --reps 5 --json "$W/out.json" > "$W/out.txt" 2>&1 ||
  { echo "FAIL: exit $?: $(tail -3 "$W/out.txt")"; exit 1; }
cat "$W/out.txt"
python3 - "$W/out.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
pts = j["points"]
schemes = {p["scheme"] for p in pts}
blocks = {tuple(p["block"]) for p in pts}
bad = []
if len(pts) != 12 or schemes != {"accurate", "rows1:nn", "rows1:linear", "stencil:nn"} or len(blocks) != 3:
    bad.append(f"{len(pts)} points, schemes {sorted(schemes)}, {len(blocks)} blocks")
for p in pts:
    if not (isinstance(p["ms"], float) and p["ms"] > 0):
        bad.append(f"{p['scheme']} {p['block']}: time {p['ms']}")
    if p["scheme"] == "accurate" and p["error"] != 0:
        bad.append(f"accurate {p['block']}: error {p['error']} against the reference")
    if p["scheme"] == "rows1:nn" and not (isinstance(p["error"], float) and p["error"] > 0):
        bad.append(f"rows1:nn {p['block']}: error {p['error']} (perforated, should differ)")
if j.get("pick") is None:
    bad.append("no pick at QoS 0.05")
print("\n".join(bad) if bad else "ok: 12 versions measured, accurate exact, pick " + j["pick"])
sys.exit(1 if bad else 0)
PY
