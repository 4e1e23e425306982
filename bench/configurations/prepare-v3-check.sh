#!/usr/bin/env bash
# prepare-v3-check.sh BEFORE_COMMIT: fills .carry/v3/ for
# scripts/gpu-v3-check.sh, here (MLIR, nvcc, no GPU), after setup.sh and
# gpu-prepare.sh. The tree of BEFORE_COMMIT (the last commit before
# Architecture v3: f824b4b) is built in a worktree beside this one
# (approx-opt, approx-cc and the runtime only); both trees compile the bench
# examples and the Table-6 apps (set hw) and link approx-bench and run-apps
# against their own runtime, and the PTX of the two is compared (printed:
# identical or not). GEMVER (examples/precision/gemver.mlir) is built
# plain, as the precision-all cross product, and by approx-build as its
# default and one other configuration (build times in
# .carry/v3/gemver/build-times.txt); gemver-first-run is linked here.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BEFORE=${1:?usage: prepare-v3-check.sh BEFORE_COMMIT}
WT=${WT:-/tmp/approx-before-$BEFORE}
V=$ROOT/.carry/v3
rm -rf "$V" && mkdir -p "$V"
[ -d "$WT" ] || git worktree add -f "$WT" "$BEFORE" >/dev/null
cmake -G Ninja -S "$WT" -B "$WT/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$WT/build" approx-opt approx-cc approx_runtime >/dev/null
NV="nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 2810"
APPS="$NV -DAX_LISTING3 -Xcompiler -fopenmp"
obj=$(mktemp -d); trap 'rm -rf "$obj"' EXIT
# Every app's object in its own folder (s3d's name has a digit).
mkdir -p "$obj/apps"
for f in bench/apps/[a-z]*.cu; do
  case $(basename "$f") in run-*) ;; *) $APPS -c "$f" -o "$obj/apps/$(basename "$f" .cu).o" ;; esac # not the runners
done
for side in before after; do
  tree=$([ $side = before ] && echo "$WT" || echo "$ROOT")
  mkdir -p "$V/ex-$side" "$V/apps-$side/hw"
  for e in box_muller black_scholes coulomb_f64; do
    "$tree/build/bin/approx-opt" "$ROOT/examples/$e.mlir" \
      "--approx-to-ptx=chip=sm_90 output-dir=$V/ex-$side name=$e" -o /dev/null
  done
  (cd "$ROOT/bench/apps" && for f in [a-z]*.cu; do
     case $f in run-*) ;; *) "$tree/build/bin/approx-cc" "$f" -o "$V/apps-$side/hw" \
       --approx-options="slot=hw" >/dev/null ;; esac
   done)
  (cd "$tree" && $NV bench/approx-bench.cu -Iruntime/include build/runtime/libapprox_runtime.a \
     -ldl -o "$V/approx-bench-$side" &&
   $APPS -Iruntime/include -c bench/apps/run-apps.cu -o "$obj/run-apps-$side.o" &&
   $APPS "$obj"/apps/*.o "$obj/run-apps-$side.o" build/runtime/libapprox_runtime.a \
     -ldl -o "$V/run-apps-$side")
done
for d in ex apps; do
  n=0; diff=0
  for f in $(cd "$V/$d-before" && find . -name '*.ptx'); do
    n=$((n + 1)); cmp -s "$V/$d-before/$f" "$V/$d-after/$f" || diff=$((diff + 1))
  done
  echo "$d: $n PTX files, $diff differ between $BEFORE and $(git rev-parse --short HEAD)"
done
G=$V/gemver SRC=$ROOT/examples/precision/gemver.mlir
mkdir -p "$G/plain" "$G/all" "$G/default" "$G/mixed"
build/bin/approx-opt "$SRC" --approx-to-ptx="output-dir=$G/plain name=gemver" -o /dev/null
build/bin/approx-opt "$SRC" --approx-to-ptx="precision-all=f32,f16,bf16 output-dir=$G/all name=gemver" -o /dev/null
cache=$(mktemp -d)
B=(build/bin/approx-build "$SRC" --cache "$cache" --options precision-space=f64,f32,f16,bf16)
t0=$(date +%s.%N); "${B[@]}" > "$cache/1.txt"; t1=$(date +%s.%N)
"${B[@]}" --config precision__A=f16 --config precision__w=bf16 > "$cache/2.txt"
t2=$(date +%s.%N)
cp "$cache/$(grep -o '^built [0-9a-f]*' "$cache/1.txt" | cut -d' ' -f2)"/gemver.* "$G/default/"
cp "$cache/$(grep -o '^built [0-9a-f]*' "$cache/2.txt" | cut -d' ' -f2)"/gemver.* "$G/mixed/"
awk "BEGIN{print \"default_build_s\", $t1 - $t0; print \"mixed_build_s\", $t2 - $t1}" > "$G/build-times.txt"
rm -rf "$cache"
g++ -O2 -std=c++17 -Iruntime/include bench/configurations/gemver-first-run.cpp \
  build/runtime/libapprox_runtime_core.a -ldl -lpthread -o "$V/gemver-first-run"
du -sh "$V"
