#!/usr/bin/env bash
# run-gpu-whole-programs.sh - `approx tune ... -- PROGRAM` on a GPU, on the
# two kinds of program the runtime does not load itself (docs/tuning.md,
# "Whole programs"):
#   - sin_host, an MLIR host program through libapprox_mgpu.so
#     (runtime/mgpu/example): the knobs file reaches it through the mgpu
#     hooks (APPROX_MANIFEST), its outputs are its mgpuMemcpy copies; tuned
#     with its own check ignored, then respected;
#   - box_muller_cudart (examples/cuda/host_cudart.cpp), whose memory goes
#     through cudaMalloc/cudaMemcpy: judged by the kernel's output argument
#     (--capture-arg);
#   - gauss_host (examples/combined/mgpu), an MLIR host program whose lambda
#     and two arrays' storage types are searched together (--storage).
# Each run must show the configuration reaching the device: lambda = 0
# reproduces the reference exactly, the largest lambda does not (for
# gauss_host: some configuration's error is not 0).
#
#   run-gpu-whole-programs.sh APPROX_TUNE MGPU_LIBDIR EXAMPLES_DIR CUDART_BIN OUT
# EXAMPLES_DIR holds mgpu-sin/ (runtime/mgpu/example's build.sh compile:
# sin_host.o, .ptx, .manifest.json), mgpu-gauss/ (the same for gauss_host)
# and cuda/ (approx-cc's box_muller PTX + manifest). Exit 77 (skipped, with
# the reason) when a part is missing or there is no GPU.
set -u
[ $# -eq 5 ] || { echo "usage: $0 APPROX_TUNE MGPU_LIBDIR EXAMPLES_DIR CUDART_BIN OUT" >&2; exit 2; }
T=$1 LIB=$2 EX=$3 CUDART=$4 OUT=$5
SIN=$EX/mgpu-sin GAUSS=$EX/mgpu-gauss CUDA=$EX/cuda
for f in "$T" "$LIB/libapprox_mgpu.so" "$SIN/sin_host.o" "$SIN/sin_host.manifest.json" \
         "$GAUSS/gauss_host.o" "$GAUSS/gauss_host.manifest.json" \
         "$CUDA/box_muller.manifest.json" "$CUDART"; do
  [ -e "$f" ] || { echo "SKIPPED: $f is missing (scripts/gpu-prepare.sh, or a build with MLIR and the CUDA toolkit)"; exit 77; }
done
if ! { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; }; then
  echo "SKIPPED: no NVIDIA GPU (nvidia-smi -L lists none)"
  exit 77
fi
mkdir -p "$OUT"
LIB=$(cd "$LIB" && pwd)
for p in "$SIN/sin_host" "$GAUSS/gauss_host"; do
  c++ "$p.o" -o "$OUT/${p##*/}" -L"$LIB" -lapprox_mgpu -lm -Wl,-rpath,"$LIB" ||
    { echo "FAIL: cannot link ${p##*/}"; exit 1; }
done
status=0
# check JSON: the reference configuration exact, the largest lambda tried
# (with every other knob at the reference's) not, every trial measured.
check() {
  python3 - "$1" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1]))
knobs = lambda t: dict(kv.split("=") for kv in t["config"].split(","))
ref = knobs({"config": j["reference"]})
ts = j["trials"]
exact = [t for t in ts if knobs(t) == ref]
assert exact and all(t["error"] == 0 for t in exact), exact
lam_only = [t for t in ts if {k: v for k, v in knobs(t).items() if k != "lambda"} ==
            {k: v for k, v in ref.items() if k != "lambda"}]
top = max(lam_only, key=lambda t: int(knobs(t)["lambda"]))
assert int(knobs(top)["lambda"]) > 0 and top["error"] > 0, top
others = [t for t in ts if t not in lam_only]
if others:
    assert any(t["error"] > 0 for t in others), others
p = j["pick"]
print("ok: %d trials, reference error 0, %s error %g, pick %s (%.3fx) [%s]" %
      (len(ts), top["config"], top["error"], p["config"], p["speedup"],
       ", ".join("%.1f" % x for x in p["time_ci95_ms"])))
PY
}
run() { # NAME ARGS...: one approx tune run, its log and JSON under OUT
  local name=$1; shift
  echo "=== $name"
  "$T" "$1" --json "$OUT/$name.json" "${@:2}" >"$OUT/$name.log" 2>&1
  local rc=$?
  tail -n 12 "$OUT/$name.log"
  if [ $rc -ne 0 ]; then echo "FAIL: $name exited $rc"; status=1; return; fi
  check "$OUT/$name.json" || { echo "FAIL: $name"; status=1; }
}
run mgpu-ignore "$SIN/sin_host.manifest.json" --joint --qos 1e-6 --metric maxabs \
  --warmup 1 --reps 5 --program-check ignore -- "$OUT/sin_host"
run mgpu-respect "$SIN/sin_host.manifest.json" --joint --qos 1e-6 --metric maxabs \
  --warmup 1 --reps 5 -- "$OUT/sin_host"
run mgpu-storage "$GAUSS/gauss_host.manifest.json" --joint --qos 1e-4 \
  --storage f32 --warmup 1 --reps 9 -- "$OUT/gauss_host"
K=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernels'][0]['name'])" "$CUDA/box_muller.manifest.json")
run cudart "$CUDA/box_muller.manifest.json" --joint --qos 1e-4 --warmup 1 --reps 5 \
  --capture-arg "$K:2:f32" -- "$CUDART" "$CUDA/box_muller.manifest.json" 16777216 20
exit $status
