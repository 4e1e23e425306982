#!/usr/bin/env bash
# approx-perforation-tune-cli.sh - approx-perforation-tune's command line
# without a GPU (ctest).
#
#   approx-perforation-tune-cli.sh TOOL DATA_DIR WORK_DIR CASE
#
# Each CASE runs the tool on data/perforation/gaussian3.manifest.json (a
# perforated 3x3 Gaussian: two 2-D f32 memrefs, schemes accurate and
# rows1:nn, block shapes 32x8 and 16x16) and checks, as approx-tune-cli.sh
# does: `fails RC REGEX CMD...` exits RC, stdout empty, stderr exactly one
# line matching the extended REGEX. The driver is forced absent
# (APPROX_CUDA_DRIVER_PATH names no file): a bad input must be reported as
# itself, i.e. checked before the GPU is opened; a good command line gets
# as far as the GPU (case no-gpu).
set -u
T=$1 D=$2 W=$3 CASE=$4
W="$W/$CASE"
rm -rf "$W" && mkdir -p "$W" || exit 2
export APPROX_CUDA_DRIVER_PATH=/nonexistent/libcuda.so.1
M="$D/perforation/gaussian3.manifest.json"
K=gaussian3_plain

# A HxW float32 .npy in $W.
npy() {
  python3 - "$1" "$2" "$3" <<'PY' || exit 2
import struct, sys
path, h, w = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
head = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (h, w)
head += " " * (63 - (10 + len(head)) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode())
    f.write(struct.pack("<%df" % (h * w), *[0.5] * (h * w)))
PY
}

# fails RC REGEX CMD...: cli-checks.sh.
source "$(dirname "${BASH_SOURCE[0]}")/cli-checks.sh"

P=approx-perforation-tune
case $CASE in
help)
  "$T" --help >"$W/out" 2>"$W/err" || { echo "FAIL: --help exited $?"; exit 1; }
  for want in '--guard-samples' '--image I=FILE' 'before the GPU is opened'; do
    grep -q -- "$want" "$W/out" || { echo "FAIL: --help lacks '$want'"; exit 1; }
  done
  [ -s "$W/err" ] && { echo "FAIL: --help wrote to stderr"; exit 1; }
  echo "ok" ;;
# --- the command line (approx/Support/Cli.h) ----------------------------------
missing-manifest)
  fails 2 "^$P: MANIFEST is required$" "$T" --kernel k --image 0=a.npy --output 1 ;;
missing-output)
  fails 2 "^$P: --output is required$" "$T" "$M" --kernel $K --image 0=a.npy ;;
unknown-option)
  fails 2 "^$P: The following argument was not expected: --frobnicate$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --frobnicate ;;
two-manifests)
  fails 2 "^$P: The following argument was not expected: other.json$" \
    "$T" "$M" other.json --kernel $K --image 0=a.npy --output 1 ;;
needs-value)
  fails 2 "^$P: --reps: 1 required INT missing$" "$T" "$M" --kernel $K --reps ;;
image-syntax)
  fails 2 "^$P: --image expects I=VALUE, got 'x'$" "$T" "$M" --kernel $K --image x --output 1 ;;
image-index)
  fails 2 "^$P: --image index: 'a' is not a decimal integer$" \
    "$T" "$M" --kernel $K --image a=x.npy --output 1 ;;
image-twice)
  fails 2 "^$P: argument 0 is given twice$" \
    "$T" "$M" --kernel $K --image 0=a.npy --image 0=b.npy --output 1 ;;
same)
  fails 2 "^$P: argument 0 is the output and also an input$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 0 ;;
output-range)
  fails 2 "^$P: --output: 4097 is out of range \[0, 4096\]$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 4097 ;;
output-negative)
  fails 2 "^$P: --output: -1 is out of range \[0, 4096\]$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output -1 ;;
block)
  fails 2 "^$P: --block: '64x64' is not XxY with 1 <= X\*Y <= 1024$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --block 64x64 ;;
block-junk)
  fails 2 "^$P: --block: '8x' is not XxY" "$T" "$M" --kernel $K --image 0=a.npy --output 1 --block 8x ;;
metric)
  fails 2 "^$P: --metric: 'psnr' is not one of mre, mean-error, ssim$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --metric psnr ;;
reps)
  fails 2 "^$P: --reps: 0 is out of range \[1, 10000\]$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --reps 0 ;;
reps-float)
  fails 2 "^$P: --reps: '2.0' is not a decimal integer$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --reps 2.0 ;;
qos-nan)
  fails 2 "^$P: --qos: 'nan' is not a finite number$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --qos nan ;;
qos-negative)
  fails 2 "^$P: --qos: -0.1 is out of range \[0, inf\]$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --qos -0.1 ;;
scalar-junk)
  fails 2 "^$P: --scalar 2: 'abc' is not a number$" \
    "$T" "$M" --kernel $K --image 0=a.npy --output 1 --scalar 2=abc ;;
# --- inputs that need the manifest or files: still before the GPU ------------
manifest-missing)
  fails 2 "^$P: manifest: .*cannot open manifest '$W/none.json'" \
    "$T" "$W/none.json" --kernel $K --image 0=a.npy --output 1 ;;
ptx-missing)
  cp "$M" "$W/" || exit 2
  fails 2 "^$P: manifest: .*gaussian3.ptx" \
    "$T" "$W/gaussian3.manifest.json" --kernel $K --image 0=a.npy --output 1 ;;
kernel-unknown)
  fails 2 "^$P: candidates: .*no perforation site of kernel 'nope'" \
    "$T" "$M" --kernel nope --image 0=a.npy --output 1 ;;
block-knob)
  # The module has a block-shape knob: --block is not needed, and not used.
  npy "$W/a.npy" 16 24
  fails 2 "^$P: GPU: " "$T" "$M" --kernel $K --image 0="$W/a.npy" --output 1 --block 8x8 ;;
arg-index)
  fails 2 "^$P: argument 5: kernel '$K' has 2 argument\(s\)$" \
    "$T" "$M" --kernel $K --image 0=a.npy --image 5=b.npy --output 1 ;;
image-missing)
  fails 2 "^$P: image: .*'/nonexistent/a.npy'" \
    "$T" "$M" --kernel $K --image 0=/nonexistent/a.npy --output 1 ;;
guard-halo)
  # The guard needs the tile loads' halo: checked up front when asked for.
  npy "$W/a.npy" 16 24
  python3 - "$M" "$W/m.manifest.json" <<'PY' || exit 2
import json, sys
m = json.load(open(sys.argv[1]))
for s in m["sites"]:
    s["data"].pop("halo")
json.dump(m, open(sys.argv[2], "w"))
PY
  cp "$D/perforation/gaussian3.ptx" "$W/" || exit 2
  fails 2 "^$P: guard: .*records its halo" \
    "$T" "$W/m.manifest.json" --kernel $K --image 0="$W/a.npy" --output 1 --guard-samples 4 ;;
no-gpu)
  # Everything checks out: the first thing to fail is the GPU.
  npy "$W/a.npy" 16 24
  fails 2 "^$P: GPU: .*cannot load the CUDA driver" \
    "$T" "$M" --kernel $K --image 0="$W/a.npy" --output 1 --guard-samples 4 ;;
*)
  echo "unknown case $CASE"
  exit 2 ;;
esac
