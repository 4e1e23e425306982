#!/usr/bin/env bash
# sass.sh - ptxas -v (sm_90, -O3) + cuobjdump -sass + nvdisasm -c for every variant
set -u
S=/tmp/sass-study; export PATH=/usr/local/cuda/bin:$S/venv/lib/python3.11/site-packages/nvidia/cu13/bin:$PATH
for v in ${VARIANTS:-o3 fast hand ours nosplit spec0 specmax}; do
  for p in $S/$v/*.ptx; do
    b=${p%.ptx}
    ( ptxas -O3 -arch=sm_90 -v $p -o $b.cubin 2> $b.ptxas.txt &&
      cuobjdump -sass $b.cubin > $b.sass && nvdisasm -c -g $b.cubin > $b.nvd 2>/dev/null || nvdisasm -c $b.cubin > $b.nvd ) &
  done
done
wait
