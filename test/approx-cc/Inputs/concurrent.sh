#!/usr/bin/env bash
# concurrent.sh APPROX_CC SOURCE DIR ROUNDS: two approx-cc runs at once, each
# round, writing the same names into DIR with different knob names; after
# each round every output must come from one run (PTX, manifest and header
# name the same knob). Prints "mixed: ..." and exits 1 at the first mix.
set -u
cc=$1 src=$2 dir=$3 rounds=$4
mkdir -p "$dir"
for r in $(seq "$rounds"); do
  for knob in alpha beta; do
    "$cc" "$src" -o "$dir" --name mix --emit-header --emit-raised \
      --approx-options="knob=$knob" 2>"$dir.$knob.err" &
  done
  wait
  for knob in alpha beta; do
    [ -s "$dir.$knob.err" ] && { echo "run $knob failed: $(cat "$dir.$knob.err")"; exit 1; }
  done
  ptx=$(grep -o -m1 -E '\.global \.align 4 \.u32 (alpha|beta)' "$dir/mix.ptx" | grep -o -E 'alpha|beta')
  man=$(grep -o -E '"symbol": *"(alpha|beta)"' "$dir/mix.manifest.json" | grep -o -E 'alpha|beta' | sort -u)
  hdr=$(grep -o -E 'set_(alpha|beta)' "$dir/mix.h" | grep -o -E 'alpha|beta' | sort -u)
  if [ -z "$ptx" ] || [ "$ptx" != "$man" ] || [ "$man" != "$hdr" ]; then
    echo "mixed: round $r: ptx '$ptx', manifest '$man', header '$hdr'"
    exit 1
  fi
done
ls -A "$dir"
echo "consistent after $rounds rounds"
