#!/usr/bin/env bash
# compile-apps.sh - approx-cc every app of bench/apps, once per set, into
# OUTDIR/<set>/<abbr>.{ptx,manifest.json}. Sets (SETS, default "hw
# virtual"): hw (%warpid as in the paper), virtual (the deterministic
# slot), hw-cap (hw with approx-to-ptx occupancy-cap: docs/sfu-apps-sass.md),
# hw-base (hw without the unroll counts and load hoisting of approx-to-ptx
# unroll-versioned and hoist-loads, for comparison).
# Runs where MLIR is (here); run-apps.sh runs every set it finds side by
# side on a GPU machine.
#
#   [SETS="hw hw-cap"] bench/apps/compile-apps.sh APPROX_CC OUTDIR
set -eu
CC=${1:?usage: compile-apps.sh APPROX_CC OUTDIR}
OUTDIR=${2:?usage: compile-apps.sh APPROX_CC OUTDIR}
SETS=${SETS:-hw virtual}
cd "$(dirname "$0")"
for set in $SETS; do
  case $set in
    hw | virtual) opts="slot=$set" ;;
    hw-cap) opts="slot=hw occupancy-cap=true" ;;
    hw-base) opts="slot=hw unroll-versioned=0 hoist-loads=false" ;;
    *) echo "compile-apps.sh: unknown set '$set' (hw, virtual, hw-cap, hw-base)" >&2; exit 2 ;;
  esac
  mkdir -p "$OUTDIR/$set"
  for f in [a-z]*.cu; do
    case $f in run-*) continue ;; esac # the runners
    "$CC" "$f" -o "$OUTDIR/$set" --approx-options="$opts"
  done
done
for set in $SETS; do
  ls "$OUTDIR/$set"/*.ptx | wc -l | sed "s/\$/ apps compiled in set $set/"
done
