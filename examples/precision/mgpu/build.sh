#!/usr/bin/env bash
# build.sh - GESUMMV as an MLIR host program, precision-scaled through the
# mgpu* hooks of libapprox_mgpu.so (README.md; docs/precision.md, "MLIR host
# programs: mgpu* hooks").
#
#   build.sh compile OUTDIR   (approx-opt, LLVM/MLIR 22 tools, libdevice)
#       gesummv_host.mlir twice through approx-opt --approx-to-ptx (export
#       on: the gpu.binary stays in the module for the host lowering, and
#       NAME.ptx + NAME.manifest.json are written for the hooks):
#         gesummv           the kernel as written
#         gesummv_variants  precision-all=f32,f16,bf16: gesummv itself plus
#                           its 255 storage variants (4 arrays x 4 types)
#       then mlir-opt gpu-to-llvm, convert-to-llvm -> mlir-translate -> llc:
#       OUTDIR/{gesummv,gesummv_variants}.{o,ptx,manifest.json}.
#   build.sh configs OUTDIR [THREADS] [CHUNK]
#       writes the two scaling configurations (threads: host conversion
#       threads, default nproc; chunk: pipelined chunk bytes, default 16 MiB):
#         all_f32.config.json       obj0..obj3 (A, B, x, y) stored as f32,
#                                   converted on the host (A, B, x on the way
#                                   in, y on the way out)
#         matrices_f16.config.json  A and B stored as f16, converted on the
#                                   host pipelined with the copy; x, y f64
#   build.sh run OUTDIR LIBDIR  (a GPU; LIBDIR holds libapprox_mgpu.so)
#       links both objects, writes the configurations, then runs
#         plain             gesummv, no hooks
#         variants-plain    gesummv_variants, no hooks (runs the kept original)
#         profile           gesummv, APPROX_PRECISION=profile
#                           -> OUTDIR/gesummv.profile.json
#         scale-f32         gesummv_variants, all_f32.config.json
#         scale-f16         gesummv_variants, matrices_f16.config.json
#       The scaled runs check their transfers against the profile's
#       (APPROX_PRECISION_EXPECT) and write OUTDIR/scale-<f32|f16>.report.json
#       (APPROX_PRECISION_REPORT: wall, kernel and per-object transfer
#       seconds, the variant that ran, overflowed objects).
#       Each run prints the program's line (its own GPU-section time and
#       error), its wall time and exit status; exits 1 if any run failed,
#       77 (skipped) without the compiled files or a GPU.
#       GESUMMV_N=<n> in the environment changes the size (default 4096).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  echo "usage: $0 compile OUTDIR | configs OUTDIR [THREADS] [CHUNK] | run OUTDIR LIBDIR" >&2
  exit 2
}
[ $# -ge 2 ] || usage
mode=$1 out=$2
mkdir -p "$out"

# One configuration object: name storage h2d-method d2h-method.
object() {
  printf '    {"name": "%s", "declared": "f64", "storage": "%s", "h2d": %s, "d2h": %s}' "$@"
}

write_configs() {
  local threads=$1 chunk=$2
  local host="{\"kind\": \"host\", \"threads\": $threads}" none='{"kind": "none"}'
  local piped="{\"kind\": \"pipelined\", \"where\": \"host\", \"threads\": $threads, \"chunk\": $chunk}"
  {
    echo '{"format": "approx-precision-config", "version": 1, "toq": 0.99, "strategy": "example",'
    echo ' "objects": ['
    object obj0 f32 "$host" "$none"; echo ,
    object obj1 f32 "$host" "$none"; echo ,
    object obj2 f32 "$host" "$none"; echo ,
    object obj3 f32 "$none" "$host"; echo
    echo ' ],'
    echo ' "kernels": []}'
  } >"$out/all_f32.config.json"
  {
    echo '{"format": "approx-precision-config", "version": 1, "toq": 0.99, "strategy": "example",'
    echo ' "objects": ['
    object obj0 f16 "$piped" "$none"; echo ,
    object obj1 f16 "$piped" "$none"; echo
    echo ' ],'
    echo ' "kernels": []}'
  } >"$out/matrices_f16.config.json"
  echo "wrote $out/all_f32.config.json $out/matrices_f16.config.json"
}

case $mode in
compile)
  [ $# -eq 2 ] || usage
  export APPROX_OPT=${APPROX_OPT:-$here/../../../build/bin/approx-opt}
  for name in gesummv gesummv_variants; do
    extra=
    [ $name = gesummv_variants ] && extra="precision-all=f32,f16,bf16"
    bash "$here/../../mgpu-compile.sh" "$here/gesummv_host.mlir" "$out" $name "$extra"
  done
  ;;
configs)
  [ $# -le 4 ] || usage
  write_configs "${3:-$(nproc)}" "${4:-16777216}"
  ;;
run)
  [ $# -eq 3 ] || usage
  lib=$(cd "$3" && pwd)
  out=$(cd "$out" && pwd)
  # 77: skipped (ctest gpu.mgpu-example), with the reason.
  for name in gesummv gesummv_variants; do
    for f in "$out/$name.o" "$out/$name.manifest.json"; do
      [ -f "$f" ] || { echo "SKIPPED: $f is missing (run '$0 compile $out' where approx-opt is)"; exit 77; }
    done
  done
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L 2>/dev/null | grep -q '^GPU ' ||
      { echo "SKIPPED: no NVIDIA GPU (nvidia-smi -L lists none)"; exit 77; }
  elif [ ! -e /dev/nvidiactl ]; then
    echo "SKIPPED: no NVIDIA GPU (no nvidia-smi, no /dev/nvidiactl)"
    exit 77
  fi
  for name in gesummv gesummv_variants; do
    c++ "$out/$name.o" -o "$out/$name" -L"$lib" -lapprox_mgpu -lm \
      -Wl,-rpath,"$lib"
  done
  write_configs "$(nproc)" 16777216
  failed=0
  # run NAME BINARY [VAR=VALUE...]: one run, timed from outside.
  run() {
    local label=$1 bin=$2 rc=0 t0 t1
    shift 2
    echo "== $label"
    t0=$(date +%s.%N)
    env "$@" "$out/$bin" || rc=$?
    t1=$(date +%s.%N)
    echo "$label: exit status $rc, wall $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') s"
    [ $rc -eq 0 ] || failed=1
  }
  profile=$out/gesummv.profile.json
  rm -f "$profile" "$out"/scale-*.report.json
  run plain gesummv
  run variants-plain gesummv_variants
  run profile gesummv APPROX_PRECISION=profile \
    APPROX_PRECISION_MANIFEST="$out/gesummv.manifest.json" \
    APPROX_PRECISION_OUT="$profile"
  for cfg in f32:all_f32 f16:matrices_f16; do
    run "scale-${cfg%%:*}" gesummv_variants APPROX_PRECISION=scale \
      APPROX_PRECISION_MANIFEST="$out/gesummv_variants.manifest.json" \
      APPROX_PRECISION_CONFIG="$out/${cfg#*:}.config.json" \
      APPROX_PRECISION_EXPECT="$profile" \
      APPROX_PRECISION_REPORT="$out/scale-${cfg%%:*}.report.json"
  done
  if [ $failed -ne 0 ]; then
    echo "$0: a run failed" >&2
    exit 1
  fi
  echo "all runs passed"
  ;;
*)
  usage
  ;;
esac
