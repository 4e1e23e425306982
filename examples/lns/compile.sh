#!/usr/bin/env bash
# compile.sh - approx-opt the LNS examples into
# OUTDIR/{hmm_forward,lns_dot}.{lns,f32}.{ptx,manifest.json} (chip sm_90,
# or $CHIP). Runs where MLIR is (scripts/gpu-prepare.sh); run-lns-examples.sh
# runs the result on a GPU machine. The manifests carry the LNS tables
# (base64), a few hundred KB each.
#
#   examples/lns/compile.sh APPROX_OPT OUTDIR
set -eu
OPT=${1:?usage: compile.sh APPROX_OPT OUTDIR}
OUTDIR=${2:?usage: compile.sh APPROX_OPT OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUTDIR"
for e in hmm_forward lns_dot; do
  rm -f "$OUTDIR/$e".*.ptx "$OUTDIR/$e".*.manifest.json
  "$OPT" "$HERE/$e.mlir" \
    --approx-to-ptx="chip=${CHIP:-sm_90} output-dir=$OUTDIR name=$e" -o /dev/null
done
# Two gpu.modules per file (@lns, @f32): four modules in all.
n=$(ls "$OUTDIR"/hmm_forward.*.manifest.json "$OUTDIR"/lns_dot.*.manifest.json | wc -l)
if [ "$n" -ne 4 ]; then
  echo "compile.sh: expected 4 LNS example modules in $OUTDIR, found $n" >&2
  exit 1
fi
echo "4 LNS example modules compiled into $OUTDIR"
