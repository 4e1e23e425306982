#!/usr/bin/env bash
# regs.sh - registers (ptxas -v, sm_90) of every variant, and warps/SM from the block size
cd /tmp/sass-study
declare -A W=([lav]=4 [bkp]=8 [cut]=4 [knn]=8 [cop]=4 [gus]=8 [nbo]=16)
printf "%-5s" app; for v in o3 fast hand ours spec0 specmax nosplit fixunroll fix0 fixmax clang; do printf "%-11s" $v; done; echo
for a in lav bkp cut knn cop gus nbo; do
  printf "%-5s" $a
  for v in o3 fast hand ours spec0 specmax nosplit fixunroll fix0 fixmax clang; do
    r=$(grep -o 'Used [0-9]* registers' $v/$a.ptxas.txt | grep -o '[0-9]*')
    ra=$(( (r + 7) / 8 * 8 )); w=${W[$a]}
    b=$(( 65536 / (ra * 32 * w) )); [ $b -gt 32 ] && b=32; ww=$(( b * w )); [ $ww -gt 64 ] && ww=$(( 64 / w * w ))
    printf "%-11s" "$r/${ww}w"
  done; echo
done
