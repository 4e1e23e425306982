#!/usr/bin/env bash
# compile-apps.sh - approx-cc every app of bench/apps, once per slot source
# (hw: %warpid as in the paper; virtual: the deterministic slot), into
# OUTDIR/{hw,virtual}/<abbr>.{ptx,manifest.json}. Runs where MLIR is (here);
# run-apps.sh runs the result on a GPU machine.
#
#   bench/apps/compile-apps.sh APPROX_CC OUTDIR
set -eu
CC=${1:?usage: compile-apps.sh APPROX_CC OUTDIR}
OUTDIR=${2:?usage: compile-apps.sh APPROX_CC OUTDIR}
cd "$(dirname "$0")"
for slot in hw virtual; do
  mkdir -p "$OUTDIR/$slot"
  for f in [a-z]*.cu; do
    [ "$f" = run-apps.cu ] && continue
    "$CC" "$f" -o "$OUTDIR/$slot" --approx-options="slot=$slot"
  done
done
ls "$OUTDIR"/virtual/*.ptx | wc -l | sed 's/$/ apps compiled per slot source/'
