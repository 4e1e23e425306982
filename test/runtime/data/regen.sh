#!/bin/sh
# Regenerates sfu_test.ptx from sfu_test.cu (needs nvcc; no GPU).
set -e
cd "$(dirname "$0")"
nvcc -arch=sm_90 -rdc=true -ptx -O3 sfu_test.cu -o sfu_test.ptx
