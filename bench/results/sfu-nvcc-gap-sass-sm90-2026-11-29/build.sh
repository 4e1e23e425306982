#!/usr/bin/env bash
# build.sh - plain nvcc -O3 / -use_fast_math / Listing-3 hand builds, ours (.carry/apps/hw), ours recompiled
set -u
R=/work/main; S=/tmp/sass-study; export PATH=/usr/local/cuda/bin:$PATH
NVCC="nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 2810 -I$R/runtime/include"
APPS=${APPS:-"lav bkp cut knn cop gus nbo"}
for a in $APPS; do
  $NVCC -ptx $R/bench/apps/$a.cu -o $S/o3/$a.ptx &
  $NVCC -use_fast_math -ptx $R/bench/apps/$a.cu -o $S/fast/$a.ptx &
  $NVCC -DAX_LISTING3 -ptx $R/bench/apps/$a.cu -o $S/hand/$a.ptx &
  cp $R/.carry/apps/hw/$a.ptx $R/.carry/apps/hw/$a.manifest.json $S/ours/
  wait
done
