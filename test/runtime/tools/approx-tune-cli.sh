#!/usr/bin/env bash
# approx-tune-cli.sh - approx-tune's command line without a GPU (ctest).
#
#   approx-tune-cli.sh APPROX_TUNE DATA_DIR WORK_DIR CASE
#
# Each CASE runs approx-tune on test/runtime/data (or on files made here in
# WORK_DIR/CASE) and checks its exit status and output:
#   fails RC REGEX CMD...   exits RC, stdout empty, stderr exactly one line
#                           matching the extended REGEX;
#   passes FILE CMD...      exits 0 and stdout holds FILE's lines, in order
#                           (each compared exactly; other lines may come
#                           between them).
# Every error path approx-tune promises a one-line error for has a case.
set -u
T=$1 D=$2 W=$3 CASE=$4
W="$W/$CASE"
rm -rf "$W" && mkdir -p "$W" || exit 2
SFU="$D/sfu_test.manifest.json"
KINDS="$D/cli/kinds.manifest.json"
ROUNDS=(--kernel rounds_inplace --inout 0=uniform:-2:2 --scalar 1=32)

# fails RC REGEX CMD...: cli-checks.sh.
source "$(dirname "${BASH_SOURCE[0]}")/cli-checks.sh"

passes() {
  local want=$1
  shift
  "$@" >"$W/out" 2>"$W/err"
  local got=$?
  if [ "$got" -ne 0 ]; then
    echo "FAIL: exit status $got, expected 0: $*"
    cat "$W/err"
    exit 1
  fi
  # Every wanted line, in order.
  local n=0 line
  exec 3<"$W/out"
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    local found=0 have
    while IFS= read -r have <&3; do
      if [ "$have" = "$line" ]; then
        found=1
        break
      fi
    done
    if [ $found -eq 0 ]; then
      echo "FAIL: missing (or out of order) output line: $line"
      echo "--- stdout:"
      cat "$W/out"
      exit 1
    fi
    n=$((n + 1))
  done <"$want"
  exec 3<&-
  echo "ok: $n expected lines found"
}

want() { printf '%s\n' "$@" >"$W/want"; }

case $CASE in
# --- sizes: checked before anything is allocated -----------------------------
size-overflow)
  fails 1 '^approx-tune: argument 0 \(memref<\?xf32>\): shape 9223372036854775807 of f32 needs more than 2\^64 bytes' \
    "$T" "$SFU" "${ROUNDS[@]}" --size 9223372036854775807 ;;
shape-overflow)
  fails 1 'argument 0 \(memref<\?x4xf32>\): shape 4611686018427387904x4 has more than 2\^64 elements' \
    "$T" "$KINDS" --kernel k_lo --shape 0=4611686018427387904x4 --input 0=uniform:0:1 --scalar 1=1 --dry-run ;;
size-host-memory)
  fails 2 '^approx-tune: error: the arguments need [0-9]+ bytes of host memory .*; this machine has [0-9]+$' \
    "$T" "$SFU" "${ROUNDS[@]}" --size 1099511627776 --grid 1 ;;
static-2-40)
  # rounds_inplace's buffer made memref<1099511627776xf32> (2^40 elements):
  # 4 bytes + 8 (generated double) + 4 (download) + 16 (two doubles) each.
  python3 - "$SFU" "$W/big.manifest.json" <<'EOF' || exit 2
import json, sys
m = json.load(open(sys.argv[1]))
m["kernels"][1]["args"][0]["shape"] = [1 << 40]
json.dump(m, open(sys.argv[2], "w"))
EOF
  cp "$D/sfu_test.ptx" "$W/"
  fails 2 'the arguments need 35184372088832 bytes of host memory' \
    "$T" "$W/big.manifest.json" "${ROUNDS[@]}" --grid 1 ;;
grid-auto-too-large)
  fails 1 'grid auto: 4294967296 blocks of 256 threads exceed' \
    "$T" "$SFU" "${ROUNDS[@]}" --size 1099511627776 ;;
# --- file:PATH inputs --------------------------------------------------------
file-directory)
  fails 2 "input file '$W' is a directory, not a regular file" \
    "$T" "$SFU" --kernel rounds_inplace --inout "0=file:$W" --scalar 1=32 --size 16 ;;
file-dev-zero)
  fails 2 "input file '/dev/zero' is a character device, not a regular file" \
    "$T" "$SFU" --kernel rounds_inplace --inout 0=file:/dev/zero --scalar 1=32 --size 16 ;;
file-fifo)
  mkfifo "$W/fifo" || exit 2
  # Opening a FIFO with no writer for reading would block forever.
  fails 2 "input file '$W/fifo' is a FIFO, not a regular file" \
    timeout 20 "$T" "$SFU" --kernel rounds_inplace --inout "0=file:$W/fifo" --scalar 1=32 --size 16 ;;
file-size)
  head -c 60 /dev/urandom >"$W/in.bin"
  fails 2 "input file '$W/in.bin' has 60 bytes, the buffer \(16 x f32\) has 64" \
    "$T" "$SFU" --kernel rounds_inplace --inout "0=file:$W/in.bin" --scalar 1=32 --size 16 ;;
file-missing)
  fails 2 "cannot open input file '$W/none.bin': No such file or directory" \
    "$T" "$SFU" --kernel rounds_inplace --inout "0=file:$W/none.bin" --scalar 1=32 --size 16 ;;
file-ok)
  head -c 64 /dev/urandom >"$W/in.bin"
  want "arg 0: memref<?xf32> buffer#0 inout file:$W/in.bin, shape 16, 64 bytes"
  passes "$W/want" "$T" "$SFU" --kernel rounds_inplace --inout "0=file:$W/in.bin" --scalar 1=32 --size 16 --dry-run ;;
# --- the manifest file and its image path -------------------------------------
manifest-directory)
  fails 2 "manifest '$W' is a directory, not a regular file" "$T" "$W" --list ;;
manifest-dev-zero)
  fails 2 "manifest '/dev/zero' is a character device" "$T" /dev/zero --list ;;
manifest-fifo)
  mkfifo "$W/m.manifest.json" || exit 2
  fails 2 "is a FIFO, not a regular file" timeout 20 "$T" "$W/m.manifest.json" --list ;;
manifest-too-large)
  cp "$SFU" "$W/big.manifest.json" && truncate -s 268435457 "$W/big.manifest.json" || exit 2
  fails 2 "has 268435457 bytes, more than the limit of 268435456" "$T" "$W/big.manifest.json" --list ;;
manifest-missing)
  fails 2 "^approx-tune: error: IoError: cannot open manifest '$W/none.json': No such file" \
    "$T" "$W/none.json" --list ;;
manifest-v1)
  sed -e 's/"version": 2/"version": 1/' "$SFU" >"$W/v1.manifest.json"
  fails 2 'manifest: version: format version 1 is no longer read \(this runtime reads versions 2 and 3\); recompile with approx-opt$' \
    "$T" "$W/v1.manifest.json" --list ;;
manifest-invalid)
  printf '{"format": "approx-manifest", "version": 2, "module": "m", "ptx": "m.ptx", "kernels": [{"name": "k\\u001b[2J", "args": [], "params": []}]}' >"$W/bad.manifest.json"
  fails 2 "manifest: kernels\[0\]\.name: 'k\\\\x1b\[2J' is not a PTX identifier" \
    "$T" "$W/bad.manifest.json" --list ;;
path-dotdot)
  mkdir -p "$W/sub" && sed -e 's#"ptx": "sfu_test.ptx"#"ptx": "../sfu_test.ptx"#' "$SFU" >"$W/sub/m.manifest.json"
  cp "$D/sfu_test.ptx" "$W/"
  fails 2 "manifest: ptx: '../sfu_test.ptx' has a '..' component; paths stay inside the manifest's directory \(allow it with --allow-outside-paths" \
    "$T" "$W/sub/m.manifest.json" "${ROUNDS[@]}" --size 16 --dry-run ;;
path-dotdot-list)
  # --list reads no image but still refuses a manifest that points outside.
  mkdir -p "$W/sub" && sed -e 's#"ptx": "sfu_test.ptx"#"ptx": "../sfu_test.ptx"#' "$SFU" >"$W/sub/m.manifest.json"
  cp "$D/sfu_test.ptx" "$W/"
  fails 2 "manifest: ptx: '../sfu_test.ptx' has a '..' component" \
    "$T" "$W/sub/m.manifest.json" --list ;;
path-cubin-outside)
  # The image this run does not read is checked too.
  sed -e 's#"ptx": "sfu_test.ptx"#"ptx": "sfu_test.ptx", "cubin": "../x.cubin"#' "$SFU" >"$W/m.manifest.json"
  cp "$D/sfu_test.ptx" "$W/"
  fails 2 "manifest: cubin: '../x.cubin' has a '..' component" \
    "$T" "$W/m.manifest.json" "${ROUNDS[@]}" --size 16 --dry-run ;;
path-cubin-absent)
  # An absent image the run does not read is no error.
  sed -e 's#"ptx": "sfu_test.ptx"#"ptx": "sfu_test.ptx", "cubin": "none.cubin"#' "$SFU" >"$W/m.manifest.json"
  cp "$D/sfu_test.ptx" "$W/"
  want "image $W/sfu_test.ptx"
  passes "$W/want" "$T" "$W/m.manifest.json" "${ROUNDS[@]}" --size 16 --dry-run ;;
path-dotdot-allowed)
  mkdir -p "$W/sub" && sed -e 's#"ptx": "sfu_test.ptx"#"ptx": "../sfu_test.ptx"#' "$SFU" >"$W/sub/m.manifest.json"
  cp "$D/sfu_test.ptx" "$W/"
  want "image $W/sub/../sfu_test.ptx" "kernel rounds_inplace"
  passes "$W/want" "$T" "$W/sub/m.manifest.json" "${ROUNDS[@]}" --size 16 --dry-run --allow-outside-paths ;;
path-absolute)
  sed -e "s#\"ptx\": \"sfu_test.ptx\"#\"ptx\": \"$D/sfu_test.ptx\"#" "$SFU" >"$W/m.manifest.json"
  fails 2 "manifest: ptx: '.*/sfu_test.ptx' is absolute" \
    "$T" "$W/m.manifest.json" "${ROUNDS[@]}" --size 16 --dry-run ;;
path-symlink)
  mkdir -p "$W/sub" && cp "$SFU" "$W/sub/m.manifest.json" && cp "$D/sfu_test.ptx" "$W/" &&
    ln -s ../sfu_test.ptx "$W/sub/sfu_test.ptx" || exit 2
  fails 2 "manifest: ptx: 'sfu_test.ptx' resolves to '.*', outside the manifest's directory" \
    "$T" "$W/sub/m.manifest.json" "${ROUNDS[@]}" --size 16 --dry-run ;;
# --- integer and other options -----------------------------------------------
device-range)
  fails 1 '^approx-tune: --device: 99999999999 is out of range \[0, 2147483647\] \(see approx-tune --help\)$' \
    "$T" "$SFU" --device 99999999999 ;;
reps-zero)
  fails 1 '--reps: 0 is out of range \[1, 1000000\]' "$T" "$SFU" --reps 0 ;;
reps-hex)
  fails 1 "--reps: '0x10' is not a decimal integer" "$T" "$SFU" --reps 0x10 ;;
warmup-negative)
  fails 1 '--warmup: -1 is out of range \[0, 1000000\]' "$T" "$SFU" --warmup -1 ;;
shared-huge)
  fails 1 '--shared: 99999999999 is out of range \[0, 4294967295\]' "$T" "$SFU" --shared 99999999999 ;;
size-negative)
  fails 1 '--size: -1 is out of range \[0, 9223372036854775807\]' "$T" "$SFU" --size -1 ;;
size-float)
  fails 1 "--size: '1e3' is not a decimal integer" "$T" "$SFU" --size 1e3 ;;
size-past-int64)
  fails 1 '--size: 9223372036854775808 is out of range' "$T" "$SFU" --size 9223372036854775808 ;;
seed-negative)
  fails 1 "--seed: '-1' is not a decimal integer >= 0" "$T" "$SFU" --seed -1 ;;
element-not-pointer)
  fails 1 "--element 0: argument 0 .* is not a pointer" "$T" "$SFU" "${ROUNDS[@]}" --element 0=f32 --dry-run ;;
element-bad-type)
  fails 1 "--element 2: 'f128' is not one of i8, i16, i32, i64, f16, bf16, f32, f64" \
    "$T" "$KINDS" --kernel k --input 0=uniform:0:1 --element 2=f128 --dry-run ;;
element-f32)
  # A pointer's buffer in f32 units: 64 floats, 256 bytes.
  want "arg 2: ptr (address space 1) buffer#2 output, shape 64, 256 bytes"
  passes "$W/want" "$T" "$KINDS" --kernel k --dry-run --size 16 --input 0=uniform:0:1 \
    --scalar 3=1 --scalar 4=1 --scalar 5=1 --scalar 6=1 --scalar 7=1 --scalar 8=1 \
    --scalar 9=1 --scalar 10=1 --scalar 11=1 --scalar 12=1 --scalar 13=1,2,3,4 --scalar 14=1,2,3,4 \
    --shape 2=64 --element 2=f32 ;;
run-once-empty)
  fails 1 '--run-once needs a non-empty prefix' "$T" "$SFU" --run-once "" ;;
run-once-no-gpu)
  # Without a driver: the one-line skip reason, exit 77, nothing written.
  fails 77 'CUDA driver|GPU' env APPROX_CUDA_DRIVER_PATH=/nonexistent/libcuda.so.1 \
    "$T" "$SFU" "${ROUNDS[@]}" --size 64 --grid 1 --run-once "$W/out"
  [ ! -e "$W/out.arg0" ] || { echo "FAIL: wrote $W/out.arg0"; exit 1; } ;;
block-too-large)
  fails 1 '--block: 2048 is out of range \[1, 1024\]' "$T" "$SFU" --block 2048 ;;
block-product)
  fails 1 '--block: 2048 threads per block; at most 1024' "$T" "$SFU" --block 64,32 ;;
grid-zero)
  fails 1 '--grid: 0 is out of range \[1, 2147483647\]' "$T" "$SFU" --grid 0 ;;
lambda-max-negative)
  fails 1 '--lambda-max: -5 is out of range' "$T" "$SFU" --lambda-max -5 ;;
lambda-step-zero)
  fails 1 '--lambda-step: 0 is out of range \[1, 64\]' "$T" "$SFU" --lambda-step 0 ;;
lambda-step-word)
  fails 1 "--lambda-step: 'often'" "$T" "$SFU" --lambda-step often ;;
qos-nan)
  fails 1 "--qos: 'nan' is not a finite number" "$T" "$SFU" --qos nan ;;
qos-negative)
  fails 1 '^approx-tune: --qos-ratio: -0.5 is out of range \[0, inf\] \(see approx-tune --help\)$' "$T" "$SFU" --qos-ratio -0.5 ;;
qos-twice)
  fails 1 'give one of --qos and --qos-ratio, once' "$T" "$SFU" --qos 0.1 --qos-ratio 0.5 ;;
unknown-option)
  fails 1 '^approx-tune: The following argument was not expected: --frobnicate \(see approx-tune --help\)$' "$T" "$SFU" --frobnicate ;;
no-manifest)
  fails 1 '^approx-tune: MANIFEST is required \(see approx-tune --help\)$' "$T" --dry-run ;;
two-manifests)
  fails 1 'The following argument was not expected: other.json' "$T" "$SFU" other.json --dry-run ;;
needs-value)
  fails 1 '^approx-tune: --reps: 1 required INT missing \(see approx-tune --help\)$' "$T" "$SFU" --reps ;;
seed-text)
  fails 1 "--seed: 'abc' is not a decimal integer >= 0" "$T" "$SFU" --seed abc ;;
seed-octal)
  fails 1 "--seed: '010' is not a decimal integer >= 0" "$T" "$SFU" --seed 010 ;;
help-wins)
  # --help prints the usage whatever else is on the line.
  want "  --dry-run              parse the manifest and every option, bind the"
  passes "$W/want" "$T" "$SFU" --reps 0 --frobnicate --help ;;
uniform-reversed)
  # [LO, HI) with HI < LO is no range; a linspace may run downwards.
  fails 1 "^approx-tune: --inout 0: 'uniform:1:0' is a reversed range \(LO > HI\) \(see approx-tune --help\)$" \
    "$T" "$SFU" --kernel rounds_inplace --inout 0=uniform:1:0 --scalar 1=32 --size 16 --dry-run ;;
linspace-downwards)
  want "arg 0: memref<?xf32> buffer#0 inout linspace:2:1, shape 16, 64 bytes"
  passes "$W/want" "$T" "$SFU" --kernel rounds_inplace --inout 0=linspace:2:1 --scalar 1=32 --size 16 --dry-run ;;
method-twice)
  fails 1 '--method is given twice' "$T" "$SFU" --method heu --method smp ;;
knob-twice)
  fails 1 "--knob 'mu' is given twice" "$T" "$KINDS" --knob mu=1 --knob mu=2 --dry-run ;;
scalar-range)
  fails 1 '--scalar 1 \(i32\): 99999999999 is out of range \[-2147483648, 4294967295\]' \
    "$T" "$SFU" --kernel rounds_inplace --inout 0=uniform:-2:2 --scalar 1=99999999999 --size 16 --dry-run ;;
scalar-missing)
  fails 1 'argument 1 \(i32\) needs --scalar 1=VALUE' \
    "$T" "$SFU" --kernel rounds_inplace --inout 0=uniform:-2:2 --size 16 --dry-run ;;
index-range)
  fails 1 "--input/--inout 7: kernel 'rounds_inplace' has 2 argument\(s\)" \
    "$T" "$SFU" "${ROUNDS[@]}" --input 7=uniform:0:1 --size 16 --dry-run ;;
read-needs-data)
  fails 1 'argument 0 \(memref<\?xf32>\) is read and written by the kernel: give it data' \
    "$T" "$SFU" --kernel rounds_inplace --scalar 1=32 --size 16 --dry-run ;;
vector-lanes)
  fails 1 '--scalar 13 \(vector<4xf32>\): 3 lane value\(s\) given, the type has 4' \
    "$T" "$KINDS" --kernel k --input 0=uniform:0:1 --scalar 3=1 --scalar 4=1 --scalar 5=1 --scalar 6=1 \
    --scalar 7=1 --scalar 8=1 --scalar 9=1 --scalar 10=1 --scalar 11=1 --scalar 12=1 \
    --scalar 13=1,2,3 --scalar 14=1,2,3,4 --size 16 --dry-run ;;
kernel-unknown)
  fails 1 "--kernel: no kernel 'nope' in the manifest \(known: sin_exp, rounds_inplace\)" \
    "$T" "$SFU" --kernel nope --dry-run ;;
# --- --knob NAME=VALUE --------------------------------------------------------
knob-unknown)
  fails 1 "--knob 'nope': unknown knob \(known: lambda, mu, prec, lut, lut2\)" \
    "$T" "$KINDS" --knob nope=1 --dry-run ;;
knob-range)
  fails 1 '--knob mu=6: outside the knob.s range \[-5, 5\]' "$T" "$KINDS" --knob mu=6 --dry-run ;;
knob-syntax)
  fails 1 "--knob mu: 'x' is not a decimal integer" "$T" "$KINDS" --knob mu=x --dry-run ;;
knob-tuned)
  fails 1 '--knob lambda=...: that is the knob being tuned' \
    "$T" "$SFU" "${ROUNDS[@]}" --size 16 --knob lambda=3 ;;
knob-variant-dry-run)
  want "kernel k -> k_lo (knob prec = 1)" \
    "knob lut = 0 (resource, path global, symbol lut_tex, i64, table 2x1x1 f32, linear, clamp, not read)" \
    "arg 1: i32 = 3" "param 7: arg 1 value i32 4 3" "global lambda i32 = 7"
  passes "$W/want" "$T" "$KINDS" --knob prec=1 --knob lut=0 --knob lambda=7 --size 16 \
    --inout 0=linspace:1:2 --scalar 1=3 --dry-run ;;
# --- --list and --dry-run ----------------------------------------------------
help)
  want "  --dry-run              parse the manifest and every option, bind the" \
    "  --knob NAME=VALUE      set another knob (global, variant or resource) for"
  passes "$W/want" "$T" --help ;;
list-escapes)
  # Control bytes from the manifest never reach the terminal raw.
  sed -e 's/"module": "sfu_test"/"module": "evil\\u001b[2J\\nname"/' \
      -e 's#"loc": "sfu_test.cu:52"#"loc": "a\\tb"#' "$SFU" >"$W/m.manifest.json"
  cp "$D/sfu_test.ptx" "$W/"
  want 'module evil\x1b[2J\x0aname (sm_90), produced by hand-written (test/runtime/data/sfu_test.cu)' \
    '    site 0: sfu sin f32, tunable (knob lambda) at a\x09b {"demote_to_f32":false,"newton_steps":0,"range_reduction":false,"sfu":"sin.approx.ftz.f32","versioning":"region"}'
  passes "$W/want" "$T" "$W/m.manifest.json" --list
  if LC_ALL=C grep -q "$(printf '\033')" "$W/out"; then
    echo "FAIL: a raw escape byte reached stdout"
    exit 1
  fi ;;
list-kinds)
  want "  knob prec: variant, [0, 1], default 0" "    dispatch k -> k k_lo" \
    "    table 1: 1x1x4 f32, linear, clamp" "    arg 1: memref<8xf64> (bare), write" \
    "    arg 2: ptr (address space 1)" "    arg 14: vector<2x2xf16>" \
    "    knob parameter: lut2 (i64)" \
    "    site 1: sfu sin f64, precise at kinds.mlir:4:9: f64 sin has no SFU form; pass f64-demote for the f32-demoted form"
  passes "$W/want" "$T" "$KINDS" --list ;;
list-texture3d)
  # A texture_3d resource lists its tables as "3-D WxHxDxC".
  want "  knob lut3: resource, path global, symbol lut3_tex, i64, [0, 1], default 0" \
    "    table 0: 3-D 2x2x2x1 f32, linear, clamp" \
    "    table 1: 3-D 3x2x4x2 f32, linear, clamp"
  passes "$W/want" "$T" "$D/texture3d/lut3.manifest.json" --list ;;
dry-run-sfu)
  want "module sfu_test" "kernel rounds_inplace" "launch grid 4,1,1 block 256,1,1 shared 0" \
    "knob lambda = 0 (global, path global, symbol lambda, i32, warp slot hw, tuned)" \
    "arg 0: memref<?xf32> buffer#0 inout uniform:-2:2, shape 1024, 4096 bytes" "arg 1: i32 = 32" \
    "param 0: arg 0 allocated ptr 8 buffer#0" "param 1: arg 0 aligned ptr 8 buffer#0" \
    "param 2: arg 0 offset i64 8 0" "param 3: arg 0 size0 i64 8 1024" "param 4: arg 0 stride0 i64 8 1" \
    "param 5: arg 1 value i32 4 32" "global lambda i32 = 0"
  passes "$W/want" "$T" "$SFU" "${ROUNDS[@]}" --size 1024 --dry-run ;;
dry-run-kinds)
  want "module kinds" "kernel k -> k (knob prec = 0)" "launch grid 1,1,1 block 256,1,1 shared 0" \
    "knob lambda = 0 (global, path global, symbol lambda, i32, warp slot hw, tuned)" \
    "knob mu = -2 (global, path param, symbol mu, i16)" \
    "knob prec = 0 (variant, k -> k)" \
    "knob lut = 1 (resource, path global, symbol lut_tex, i64, table 1x1x4 f32, linear, clamp)" \
    "knob lut2 = 0 (resource, path param, symbol lut2_tex, i64, table 2x2x2 f32, point, border)" \
    "arg 0: memref<?x4xf32> buffer#0 input uniform:0:1, shape 16x4, 256 bytes" \
    "arg 1: memref<8xf64> (bare) buffer#1 output, shape 8, 64 bytes" \
    "arg 2: ptr (address space 1) buffer#2 output, shape 64, 64 bytes" \
    "param 0: arg 0 allocated ptr 8 buffer#0" "param 1: arg 0 aligned ptr 8 buffer#0" \
    "param 2: arg 0 offset i64 8 0" "param 3: arg 0 size0 i64 8 16" "param 4: arg 0 size1 i64 8 4" \
    "param 5: arg 0 stride0 i64 8 4" "param 6: arg 0 stride1 i64 8 1" \
    "param 7: arg 1 aligned ptr 8 buffer#1" "param 8: arg 2 value ptr 8 buffer#2" \
    "param 9: arg 3 value i1 1 1" "param 10: arg 4 value i8 1 -128" "param 11: arg 5 value i16 2 -1" \
    "param 12: arg 6 value i32 4 -7" "param 13: arg 7 value i64 8 9223372036854775807" \
    "param 14: arg 8 value index 8 16" "param 15: arg 9 value f16 2 1.5 (0x3e00)" \
    "param 16: arg 10 value bf16 2 -2.5 (0xc020)" "param 17: arg 11 value f32 4 0.100000001 (0x3dcccccd)" \
    "param 18: arg 12 value f64 8 0.10000000000000001 (0x3fb999999999999a)" \
    "param 19: arg 13 value vector<4xf32> 16 [1, 2, 3, 4]" \
    "param 20: arg 14 value vector<2x2xf16> 8 [0.5, 1, 1.5, 2]" \
    "param 21: knob mu i16 2 -2" "param 22: knob lut2 i64 8 texture(lut2 = 0)" \
    "global lambda i32 = 0" "global lut_tex i64 = texture(lut = 1)"
  passes "$W/want" "$T" "$KINDS" --kernel k --dry-run --size 16 --input 0=uniform:0:1 \
    --scalar 3=1 --scalar 4=-128 --scalar 5=65535 --scalar 6=-7 --scalar 7=9223372036854775807 \
    --scalar 8=size --scalar 9=1.5 --scalar 10=-2.5 --scalar 11=0.1 --scalar 12=0.1 \
    --scalar 13=1,2,3,4 --scalar 14=0.5,1,1.5,2 --shape 2=64 ;;
dry-run-null-pointer)
  want "arg 2: ptr (address space 1) = null" "param 8: arg 2 value ptr 8 null"
  passes "$W/want" "$T" "$KINDS" --kernel k --dry-run --size 16 --input 0=uniform:0:1 \
    --scalar 2=null --scalar 3=0 --scalar 4=1 --scalar 5=1 --scalar 6=1 --scalar 7=1 --scalar 8=1 \
    --scalar 9=1 --scalar 10=1 --scalar 11=1 --scalar 12=1 --scalar 13=1,2,3,4 --scalar 14=1,2,3,4 ;;
# --- out of host memory is one line too -------------------------------------
host-memory-exhausted)
  # A 16 MiB table (22 MB of base64) under a 40 MiB address-space limit:
  # parsing and decoding it cannot fit; the runtime reports that as a
  # value, approx-tune as one line.
  python3 - "$KINDS" "$W/huge.manifest.json" <<'EOF' || exit 2
import base64, json, sys
m = json.load(open(sys.argv[1]))
t = m["knobs"][3]["resource"]["options"][0]
t["width"], t["height"], t["channels"] = 2048, 2048, 1
t["data"] = base64.b64encode(bytes([1]) * (2048 * 2048 * 4)).decode()
json.dump(m, open(sys.argv[2], "w"))
EOF
  cp "$D/cli/kinds.ptx" "$W/"
  "$T" "$W/huge.manifest.json" --list >/dev/null ||
    { echo "FAIL: the manifest does not load without a limit"; exit 1; }
  fails 2 'out of host memory' bash -c 'ulimit -v 40960 && exec "$0" "$@"' \
    "$T" "$W/huge.manifest.json" --list
  rm -f "$W/huge.manifest.json" ;;
joint-needs-qos)
  fails 1 '^approx-tune: joint tuning needs an error bound, --qos E' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint ;;
joint-qos-ratio)
  fails 1 '^approx-tune: --qos-ratio is relative to the pure-SFU error; joint tuning needs an absolute bound, --qos E' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos-ratio 0.8 ;;
joint-options-need-joint)
  fails 1 '^approx-tune: --knobs, --verify, --verify-seed, --report and --cache belong to joint tuning' \
    "$T" "$SFU" "${ROUNDS[@]}" --knobs lambda ;;
joint-method)
  fails 1 '^approx-tune: --method and --sweep belong to lambda tuning' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --method omg ;;
joint-unknown-knob)
  fails 1 "^approx-tune: --knobs: unknown knob 'nope'" \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --knobs lambda,nope ;;
joint-empty-knob)
  fails 1 '^approx-tune: --knobs expects A,B,... with no empty name' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --knobs lambda,, ;;
joint-pinned-and-searched)
  fails 1 "^approx-tune: --knobs: knob 'lambda' is also pinned" \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --knobs lambda --knob lambda=3 ;;
joint-verify-output)
  fails 1 '^approx-tune: --verify 1: argument 1 is not an input the kernel reads' \
    "$T" "$SFU" --kernel sin_exp --input 0=uniform:0:1 --scalar 3=size \
    --joint --qos 0.01 --verify 1=uniform:0:1 ;;
joint-verify-shape)
  # A verification input of the wrong size is refused before the GPU.
  head -c 12 /dev/zero >"$W/short.bin"
  fails 2 "input file '.*short.bin' has 12 bytes, the buffer has 4194304" \
    "$T" "$SFU" "${ROUNDS[@]}" --size 1048576 --joint --qos 0.01 \
    --verify "0=file:$W/short.bin" ;;
joint-verify-index)
  fails 1 '^approx-tune: --verify 9: argument 9 is not an input the kernel reads' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --verify 9=uniform:0:1 ;;
joint-build-knob)
  # The v3 test space: a build knob is not searched by one build.
  python3 - "$D/v3/cases.json" "$W/space.manifest.json" <<'EOF' || exit 2
import json, sys
for c in json.load(open(sys.argv[1])):
    if c["name"] == "good":
        json.dump(c["manifest"], open(sys.argv[2], "w"))
EOF
  : >"$W/space.ptx"
  fails 1 "^approx-tune: --knobs: 'storage__blur__a0' is a build knob: each of its values is another build .*; give --cache DIR or pin it with --knob" \
    "$T" "$W/space.manifest.json" --kernel blur --input 0=uniform:0:1 \
    --joint --qos 0.01 --knobs lambda,storage__blur__a0 ;;
joint-devices-twice)
  fails 1 '^approx-tune: --devices: device 1 is listed twice' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --devices 1,0,1 ;;
joint-devices-need-joint)
  fails 1 '^approx-tune: --devices belongs to joint tuning' \
    "$T" "$SFU" "${ROUNDS[@]}" --devices 0,1 ;;
joint-verify-set-twice)
  fails 1 '^approx-tune: --verify: argument 0 is given twice in one set' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --verify '0=uniform:0:1;0=uniform:1:2' ;;
exec-joint)
  # A whole program (a script standing in for one: it reads the knobs file
  # APPROX_CONFIG names and writes out.bin), tuned end to end: lambda alone
  # or rows1:nn alone, or both (rows1:nn and a small lambda), the fastest:
  # the separable model predicts the pair from either single pick.
  python3 - "$D/v3/cases.json" "$W/space.manifest.json" <<'EOF' || exit 2
import json, sys
for c in json.load(open(sys.argv[1])):
    if c["name"] == "good":
        json.dump(c["manifest"], open(sys.argv[2], "w"))
EOF
  cat >"$W/prog.sh" <<'EOF'
#!/bin/sh
# prog.sh OUT SCALE: T = 1 - 0.01 lambda - 0.5 [rows1:nn] s (gaps well
# above the jitter of starting python),
# E = SCALE * (1e-4 lambda + 0.004 [rows1:nn]) on 4 outputs.
exec python3 - "$@" <<'PY'
import json, os, struct, sys, time
k = json.load(open(os.environ["APPROX_CONFIG"]))["modules"]["space"]
lam = int(k.get("lambda", "0")); rows = k.get("perforation") == "rows1:nn"
e = float(sys.argv[2]) * (1e-4 * lam + 0.004 * rows)
time.sleep(1.0 - 0.01 * lam - 0.5 * rows)
open(sys.argv[1], "wb").write(struct.pack("<4d", *[v * (1 + e) for v in (1, 2, 3, 4)]))
PY
EOF
  chmod +x "$W/prog.sh"
  "$T" "$W/space.manifest.json" --joint --qos 0.005 --warmup 0 --reps 1 \
    --knobs lambda,perforation --exec-output "$W/out.bin:f64" \
    --verify-arg '1=3' --json "$W/r.json" -q -- "$W/prog.sh" "$W/out.bin" 1 >"$W/out" 2>"$W/err"
  rc=$?
  # Which configuration wins depends on the timings of real processes
  # (the unit tests check the search itself): here, that the program's
  # knobs, outputs and errors went through, that the pick meets the bound
  # and is no slower than the best single knob re-timed.
  python3 - "$W/r.json" <<'EOF' || { echo "FAIL: rc $rc"; cat "$W/out" "$W/err"; exit 1; }
import json, sys
j = json.load(open(sys.argv[1]))
p, s = j["pick"], j["single_pick"]
assert p["error"] <= 0.005, p
assert p["time_ms"] <= s["time_ms"], (p, s)
# Every trial's error is what the program computes for the knobs the
# knobs file gave it (exact here): the configuration reached the program
# and its outputs came back.
for t in j["trials"]:
    k = dict(kv.split("=") for kv in t["config"].split(","))
    want = 1e-4 * int(k["lambda"]) + 0.004 * (k["perforation"] == "rows1:nn")
    assert abs(t["error"] - want) < 1e-9, t
assert len(j["trials"]) >= 12, len(j["trials"])
EOF
  # On the verification run (errors 3x) the pick violates; the guard
  # falls back and keeps no violating output.
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); v=j['verification'][0]; e=[x for x in v['errors'] if x['config']==j['pick']['config']][0]; assert e['violates'], e" "$W/r.json" ||
    { echo "FAIL: the pick does not violate on the verification run"; cat "$W/out"; exit 1; }
  grep -q '^guard .*: 0 of 4 kept outputs violate; [1-9]' "$W/out" ||
    { echo "FAIL: the guard did not fall back"; cat "$W/out"; exit 1; }
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['program'].endswith('prog.sh') and j['program_runs'] > 0" "$W/r.json" ||
    { echo "FAIL: the JSON does not record the program"; exit 1; }
  echo "ok: exit $rc" ;;
exec-capture-args)
  # A program standing in for one linked with the runtime: it checks the
  # request file the tuner wrote, writes the requested argument as the
  # runtime would (arg-00.f32.bin, values off by 1e-4 lambda) and says it
  # spent 1 s capturing, in a run of 1.2 s: the tuner compares the
  # argument and subtracts the capture's time.
  cat >"$W/prog.sh" <<'EOF'
#!/bin/sh
exec python3 - "$@" <<'PY'
import json, os, struct, sys, time
cap = os.environ["APPROX_CAPTURE"]
req = json.load(open(cap + "/capture.json"))
if req != {"format": "approx-capture", "version": 1,
           "args": [{"kernel": "rounds_inplace", "index": 0}]}:
    sys.exit("unexpected requests: %r" % req)
k = json.load(open(os.environ["APPROX_CONFIG"]))["modules"]["sfu_test"]
lam = int(k.get("lambda", "0"))
vals = [v * (1 + 1e-4 * lam) for v in (1, 2, 3, 4)]
open(cap + "/arg-00.f32.bin", "wb").write(struct.pack("<4f", *vals))
open(cap + "/capture-seconds", "w").write("1.0\n")
time.sleep(1.2)
PY
EOF
  chmod +x "$W/prog.sh"
  "$T" "$SFU" --joint --qos 0.003 --warmup 0 --reps 1 --grid-points 5 \
    --capture-arg rounds_inplace:0 --json "$W/r.json" -q -- "$W/prog.sh" \
    >"$W/out" 2>"$W/err"
  rc=$?
  python3 - "$W/r.json" <<'EOF' || { echo "FAIL: rc $rc"; cat "$W/out" "$W/err"; exit 1; }
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["trials"]) >= 3, j["trials"]
for t in j["trials"]:
    lam = int(dict(kv.split("=") for kv in t["config"].split(","))["lambda"])
    # f32 outputs: the error is 1e-4 lambda to f32's rounding.
    assert abs(t["error"] - 1e-4 * lam) < 1e-6, t
    # Over 1.2 s of run, 1 s of it capturing: under 1 s counted, however
    # slowly python starts on a loaded machine.
    assert t["time_ms"] < 1000, t
EOF
  echo "ok: exit $rc" ;;
exec-capture-arg-form)
  fails 1 "^approx-tune: --capture-arg expects KERNEL:INDEX or KERNEL:INDEX:TYPE \(a scalar type\), got 'rounds_inplace:x'" \
    "$T" "$SFU" --joint --qos 0.01 --capture-arg rounds_inplace:x -- /bin/true ;;
exec-capture-arg-kernel)
  fails 1 "^approx-tune: --capture-arg 'nope':0: module 'sfu_test' has no kernel 'nope'" \
    "$T" "$SFU" --joint --qos 0.01 --capture-arg nope:0 -- /bin/true ;;
exec-capture-arg-index)
  fails 1 "^approx-tune: --capture-arg 'rounds_inplace':2: kernel 'rounds_inplace' has 2 arguments" \
    "$T" "$SFU" --joint --qos 0.01 --capture-arg rounds_inplace:2 -- /bin/true ;;
exec-capture-arg-scalar)
  fails 1 "^approx-tune: --capture-arg 'rounds_inplace':1 is a scalar: only memory can be captured" \
    "$T" "$SFU" --joint --qos 0.01 --capture-arg rounds_inplace:1 -- /bin/true ;;
exec-capture-arg-pointer-type)
  fails 1 "^approx-tune: --capture-arg 'k':2 is a pointer: give its element type" \
    "$T" "$KINDS" --joint --qos 0.01 --capture-arg k:2 -- /bin/true ;;
exec-capture-arg-no-capture)
  fails 1 '^approx-tune: --no-capture turns capturing off; --capture-arg needs it' \
    "$T" "$SFU" --joint --qos 0.01 --no-capture --exec-output o.bin:f32 --capture-arg rounds_inplace:0 -- /bin/true ;;
exec-storage)
  # --storage on a program standing in for an MLIR host program: it writes
  # a profile when APPROX_PRECISION=profile (two f64 objects, one f16: no
  # narrower type), and
  # under APPROX_PRECISION=scale reads the configuration the tuner wrote;
  # its output is off by 1e-5 lambda plus a share per narrowed object. The
  # module (kinds) has a variant knob, prec: with --storage the hooks choose
  # the variants, so prec never reaches the knobs file.
  cat >"$W/prog.sh" <<'EOF'
#!/bin/sh
exec python3 - "$@" <<'PY'
import json, os, struct, sys
mode = os.environ.get("APPROX_PRECISION")
if not os.path.isabs(os.environ.get("APPROX_PRECISION_MANIFEST" if mode else
                                    "APPROX_MANIFEST", "")):
    sys.exit("the manifest's path is not absolute")
def obj(name, t, d):
    return {"name": name, "declared": t, "elements": 4, "host_memory": "pageable",
            "events": [{"direction": d, "elements": 4, "seconds": 1e-4}],
            "read_by": ["k"], "written_by": ["k"]}
if mode == "profile":
    json.dump({"format": "approx-precision-profile", "version": 1,
               "kernels": [{"name": "k", "seconds": 1e-4,
                            "can_compute_lower": False}],
               "objects": [obj("obj0", "f64", "h2d"), obj("obj1", "f64", "d2h"),
                           obj("obj2", "f16", "h2d")],
               "total_seconds": 1e-3, "transfers": []},
              open(os.environ["APPROX_PRECISION_OUT"], "w"))
    sys.exit(0)
rel = {"f64": 0, "f32": 1e-4, "f16": 1e-3, "bf16": 2e-3}
st = {"obj0": "f64", "obj1": "f64"}
if mode == "scale":
    cfg = json.load(open(os.environ["APPROX_PRECISION_CONFIG"]))
    for o in cfg["objects"]:
        st[o["name"]] = o["storage"]
        moved = o["h2d"] if o["name"] == "obj0" else o["d2h"]
        if o["storage"] != o["declared"] and moved["kind"] != "host":
            sys.exit("not converted on the host: %r" % o)
    if st == {"obj0": "f64", "obj1": "f64"}:
        sys.exit("scale mode for a configuration that changes nothing")
elif mode is not None:
    sys.exit("APPROX_PRECISION=%s" % mode)
if st["obj0"] == "bf16":
    sys.exit("obj0 in bf16 refused")  # a failing configuration: its reason shows
k = json.load(open(os.environ["APPROX_CONFIG"]))["modules"]["kinds"]
if any(n.startswith("storage__") for n in k) or "prec" in k:
    sys.exit("a host or variant knob reached the knobs file: %r" % k)
e = 1e-5 * int(k.get("lambda", "0")) + rel[st["obj0"]] + rel[st["obj1"]]
vals = [v * (1 + e) for v in (1, 2, 3, 4)]
if st["obj1"] == "bf16":
    vals = vals[:3]  # an output that went missing: not comparable, said so
open(os.environ["APPROX_CAPTURE"] + "/d2h-000000.f64.bin", "wb").write(
    struct.pack("<%dd" % len(vals), *vals))
PY
EOF
  chmod +x "$W/prog.sh"
  "$T" "$KINDS" --joint --qos 1.5e-3 --warmup 0 --reps 1 --grid-points 3 \
    --knobs lambda --storage f32,f16,bf16 --json "$W/r.json" -q -- "$W/prog.sh" \
    >"$W/out" 2>"$W/err"
  rc=$?
  python3 - "$W/r.json" <<'EOF' || { echo "FAIL: rc $rc"; cat "$W/out" "$W/err"; exit 1; }
import json, sys
j = json.load(open(sys.argv[1]))
rel = {"f64": 0, "f32": 1e-4, "f16": 1e-3, "bf16": 2e-3}
seen = set()
for t in j["trials"]:
    k = dict(kv.split("=") for kv in t["config"].split(","))
    assert {"lambda", "storage__obj0", "storage__obj1"} <= set(k), k
    assert "prec" not in k and "storage__obj2" not in k, k
    seen.add(k["storage__obj0"])
    if k["storage__obj0"] == "bf16":
        assert t["failure"] == "exit status 1: obj0 in bf16 refused", t
        assert t["error"] == "inf" and not t["feasible"], t
        continue
    if k["storage__obj1"] == "bf16":
        assert t["failure"] == "its outputs hold 3 values, the reference's 4", t
        assert t["error"] == "inf", t
        continue
    want = 1e-5 * int(k["lambda"]) + rel[k["storage__obj0"]] + rel[k["storage__obj1"]]
    assert abs(t["error"] - want) < 1e-9 and "failure" not in t, (t, want)
assert {"f32", "f16", "bf16"} <= seen, seen
assert j["pick"]["error"] <= 1.5e-3, j["pick"]
# NVML's readings, or why there are none (no driver here).
ds = j["device_state"]
assert ("energy_j" in ds and "start" in ds) or "NVML" in ds["unavailable"], ds
EOF
  grep -q '^profile  3 memory objects, 2 with a storage knob' "$W/out" ||
    { echo "FAIL: no profile line"; cat "$W/out"; exit 1; }
  grep -q 'storage__obj0=bf16  failed: exit status 1: obj0 in bf16 refused$' "$W/out" ||
    { echo "FAIL: the failed trial's reason is not in the table"; cat "$W/out"; exit 1; }
  echo "ok: exit $rc" ;;
exec-storage-types)
  fails 1 "^approx-tune: --storage expects a list of f32, f16, bf16, got 'f32,f64'" \
    "$T" "$SFU" --joint --qos 0.01 --storage f32,f64 -- /bin/true ;;
exec-storage-variant)
  fails 1 "^approx-tune: --knobs: 'prec' is a variant knob: with --storage the precision hooks choose the variants" \
    "$T" "$KINDS" --joint --qos 0.01 --knobs prec --storage f32 -- /bin/true ;;
exec-storage-profile-fails)
  fails 2 "^approx-tune: error: InvalidArgument: --storage: the profile run of '/bin/false' failed \(exit status 1\): is it an MLIR host program linked with libapprox_mgpu.so\?" \
    "$T" "$SFU" --joint --qos 0.01 --storage f32 -- /bin/false ;;
exec-until-ci)
  # --until-ci: past --reps, runs repeat until the median's interval is
  # within +-R, at most --max-reps: at R = 1e-6 a process's wall time never
  # is, so every measurement takes exactly --max-reps runs.
  cat >"$W/prog.sh" <<'EOF'
#!/bin/sh
printf '\000\000\200\077' > "$1"
EOF
  chmod +x "$W/prog.sh"
  "$T" "$SFU" --joint --qos 0.5 --warmup 0 --reps 1 --until-ci 1e-6 --max-reps 4 \
    --grid-points 3 --exec-output "$W/out.bin:f32" --no-capture --json "$W/r.json" -q \
    -- "$W/prog.sh" "$W/out.bin" >"$W/out" 2>"$W/err"
  rc=$?
  python3 - "$W/r.json" <<'EOF' || { echo "FAIL: rc $rc"; cat "$W/out" "$W/err"; exit 1; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j["timing"]["until_ci"] == 1e-6 and j["timing"]["max_reps"] == 4, j["timing"]
assert j["program_runs"] == 4 * len(j["trials"]), (j["program_runs"], len(j["trials"]))
EOF
  grep -q "then until the median's 95% interval is within +-1e-06 of it, at most 4" "$W/out" ||
    { echo "FAIL: the policy is not printed"; cat "$W/out"; exit 1; }
  echo "ok: exit $rc" ;;
max-reps-range)
  fails 1 "^approx-tune: --max-reps" \
    "$T" "$SFU" "${ROUNDS[@]}" --until-ci 0.01 --max-reps 0 ;;
exec-until-ci-range)
  fails 1 "^approx-tune: --until-ci" \
    "$T" "$SFU" --joint --qos 0.01 --until-ci 2 -- /bin/true ;;
exec-bad-program)
  fails 1 "^approx-tune: -- '.*nope': not an executable file" \
    "$T" "$SFU" --joint --qos 0.01 -- "$W/nope" ;;
exec-kernel-options)
  fails 1 '^approx-tune: --kernel, --input, --inout, --shape, --scalar, --verify, --verify-seed, --devices and --cache bind a kernel' \
    "$T" "$SFU" --joint --qos 0.01 --kernel rounds_inplace -- /bin/true ;;
exec-options-need-program)
  fails 1 '^approx-tune: --exec-output, --capture-arg, --storage, --verify-arg, --no-capture and --program-check belong to tuning a whole program' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --exec-output out.bin:f32 ;;
exec-output-type)
  fails 1 "^approx-tune: --exec-output expects PATH:TYPE with a float TYPE \(f16, bf16, f32, f64\), got 'out.bin:i32'" \
    "$T" "$SFU" --joint --qos 0.01 --exec-output out.bin:i32 -- /bin/true ;;
exec-verify-arg-index)
  fails 1 '^approx-tune: --verify-arg 3: the program has 1 arguments' \
    "$T" "$SFU" --joint --qos 0.01 --verify-arg 3=x -- /bin/echo a ;;
exec-nothing-to-compare)
  fails 1 '^approx-tune: --no-capture leaves nothing to compare' \
    "$T" "$SFU" --joint --qos 0.01 --no-capture -- /bin/true ;;
exec-needs-joint)
  fails 1 '^approx-tune: a program after -- is tuned by approx tune' \
    "$T" "$SFU" -- /bin/true ;;
joint-cache-missing)
  fails 1 "^approx-tune: --cache '.*nocache' is not a directory" \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --cache "$W/nocache" ;;
joint-budget-range)
  fails 1 '^approx-tune: --budget' \
    "$T" "$SFU" "${ROUNDS[@]}" --joint --qos 0.01 --budget 1 ;;
exec-program-check)
  fails 1 "^approx-tune: --program-check expects respect or ignore, not 'maybe'" \
    "$T" "$SFU" --joint --qos 0.01 --program-check maybe -- /bin/true ;;
exec-output-missing)
  # The program exits 0 but never writes the output it is said to: exit 2
  # and one line on stderr, at the first (reference) run; no record written.
  "$T" "$SFU" --joint --qos 0.01 --exec-output "$W/never.bin:f32" \
    --warmup 0 --reps 1 --json "$W/r.json" -- /bin/true >"$W/out" 2>"$W/err"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$W/err")" -eq 1 ] &&
    grep -q "output file '.*never.bin'" "$W/err" && [ ! -e "$W/r.json" ] ||
    { echo "FAIL: rc $rc"; cat "$W/err"; exit 1; }
  echo "ok: $(cat "$W/err")" ;;
*)
  echo "unknown case $CASE"
  exit 2 ;;
esac
