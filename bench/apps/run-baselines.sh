#!/usr/bin/env bash
# run-baselines.sh - the Table-6 suite against nvcc -O3 and nvcc -O3
# -use_fast_math of the same sources (run-baselines.cu), on a GPU machine or to
# build the runner for one.
#
#   bench/apps/run-baselines.sh build BINDIR        (here or there: nvcc)
#   bench/apps/run-baselines.sh run BINDIR OURS_PTXDIR OUT [options...]
#
# build: the runtime (bench/build-runtime.sh $BUILD, default build-gpu,
# unless $BUILD already holds libapprox_runtime.a), every app's host side
# (-DAX_LISTING3, as run-apps.sh), the runner BINDIR/baselines, and the two
# plain builds of every app, BINDIR/plain/<abbr>.O3.ptx and .fast.ptx
# (nvcc -O3 -arch=sm_90 -ptx, and the same with -use_fast_math).
# run: the runner on OURS_PTXDIR (compile-apps.sh's set, e.g. hw), with
# GPU, driver and clocks before and after in OUT/gpu.txt, the table in
# OUT/baselines.md, the raw results in OUT/baselines.json.
set -u -o pipefail
cd "$(dirname "$0")/../.."
usage() {
  echo "usage: run-baselines.sh build BINDIR | run BINDIR OURS_PTXDIR OUT [options]" >&2
  exit 2
}
mode=${1:-}; BIN=${2:-}
[ -n "$BIN" ] || usage
ARCH=${ARCH:-sm_90}
case $mode in
build)
  BUILD=${BUILD:-build-gpu}
  if [ ! -f "$BUILD/runtime/libapprox_runtime.a" ]; then
    bash bench/build-runtime.sh "$BUILD" || exit 2
  fi
  mkdir -p "$BIN/obj" "$BIN/plain" || exit 2
  NVCC="nvcc -O3 -std=c++17 -arch=$ARCH -diag-suppress 2810 -Iruntime/include"
  apps=$(ls bench/apps/[a-z]*.cu | grep -v '/run-')
  # Host sides (with the hand build, which registers the App), then the
  # plain builds a user would make of the same file.
  echo "$apps" | xargs -P "$(nproc)" -I{} sh -c \
    "$NVCC -DAX_LISTING3 -Xcompiler -fopenmp -c {} -o $BIN/obj/\$(basename {} .cu).o" || exit 2
  echo "$apps" | xargs -P "$(nproc)" -I{} sh -c \
    "$NVCC -ptx {} -o $BIN/plain/\$(basename {} .cu).O3.ptx && \
     $NVCC -use_fast_math -ptx {} -o $BIN/plain/\$(basename {} .cu).fast.ptx" || exit 2
  $NVCC -DAX_LISTING3 -Xcompiler -fopenmp bench/apps/run-baselines.cu "$BIN"/obj/*.o \
    "$BUILD/runtime/libapprox_runtime.a" -ldl -o "$BIN/baselines" || exit 2
  echo "built $BIN/baselines and $(ls "$BIN"/plain/*.ptx | wc -l) plain builds"
  ;;
run)
  PTX=${3:-}; OUT=${4:-}
  [ -n "$PTX" ] && [ -n "$OUT" ] || usage
  shift 4
  mkdir -p "$OUT" || exit 2
  q="name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw"
  { date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=$q --format=csv; } > "$OUT/gpu.txt"
  "$BIN/baselines" --ours "$PTX" --plain "$BIN/plain" --json "$OUT/baselines.json" "$@" |
    tee "$OUT/baselines.md"
  status=${PIPESTATUS[0]}
  nvidia-smi --query-gpu=$q --format=csv,noheader >> "$OUT/gpu.txt"
  exit "$status"
  ;;
*) usage ;;
esac
