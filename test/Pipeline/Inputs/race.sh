#!/usr/bin/env bash
# Two approx-to-ptx runs writing the same NAME into one directory at once.
# Usage: race.sh OUTPUT-DIR INPUT.mlir
set -u
out=$1 in=$2
for i in 1 2 3 4; do
  approx-opt "$in" --approx-to-ptx="output-dir=$out name=r" -o /dev/null &
done
status=0
for job in $(jobs -p); do wait "$job" || status=1; done
grep -q '"format": "approx-manifest"' "$out/r.manifest.json" || status=1
grep -q '.entry f32_all' "$out/r.ptx" || status=1
exit $status
