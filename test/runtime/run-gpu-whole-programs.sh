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
#     (--capture-arg).
# Each run must show the configuration reaching the device: lambda = 0
# reproduces the reference exactly, the largest lambda does not.
#
#   run-gpu-whole-programs.sh APPROX_TUNE MGPU_LIBDIR SIN_DIR CUDA_DIR CUDART_BIN OUT
# SIN_DIR: build.sh compile's output (sin_host.o, .ptx, .manifest.json);
# CUDA_DIR: approx-cc's box_muller PTX + manifest. Exit 77 (skipped, with
# the reason) when a part is missing or there is no GPU.
set -u
[ $# -eq 6 ] || { echo "usage: $0 APPROX_TUNE MGPU_LIBDIR SIN_DIR CUDA_DIR CUDART_BIN OUT" >&2; exit 2; }
T=$1 LIB=$2 SIN=$3 CUDA=$4 CUDART=$5 OUT=$6
for f in "$T" "$LIB/libapprox_mgpu.so" "$SIN/sin_host.o" "$SIN/sin_host.manifest.json" \
         "$CUDA/box_muller.manifest.json" "$CUDART"; do
  [ -e "$f" ] || { echo "SKIPPED: $f is missing (scripts/gpu-prepare.sh, or a build with MLIR and the CUDA toolkit)"; exit 77; }
done
if ! { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; }; then
  echo "SKIPPED: no NVIDIA GPU (nvidia-smi -L lists none)"
  exit 77
fi
mkdir -p "$OUT"
LIB=$(cd "$LIB" && pwd)
c++ "$SIN/sin_host.o" -o "$OUT/sin_host" -L"$LIB" -lapprox_mgpu -lm -Wl,-rpath,"$LIB" ||
  { echo "FAIL: cannot link sin_host"; exit 1; }
status=0
# check JSON: lambda=0 exact, the largest lambda tried not, every trial
# measured.
check() {
  python3 - "$1" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1]))
lam = lambda t: int(dict(kv.split("=") for kv in t["config"].split(","))["lambda"])
ts = j["trials"]
zero = [t for t in ts if lam(t) == 0]
top = max(ts, key=lam)
assert zero and all(t["error"] == 0 for t in zero), zero
assert lam(top) > 0 and top["error"] > 0, top
print("ok: %d trials, lambda=0 error 0, lambda=%d error %g, pick %s (%.3fx)" %
      (len(ts), lam(top), top["error"], j["pick"]["config"], j["pick"]["speedup"]))
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
K=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernels'][0]['name'])" "$CUDA/box_muller.manifest.json")
run cudart "$CUDA/box_muller.manifest.json" --joint --qos 1e-4 --warmup 1 --reps 5 \
  --capture-arg "$K:2:f32" -- "$CUDART" "$CUDA/box_muller.manifest.json" 16777216 20
exit $status
