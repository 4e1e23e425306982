#!/bin/sh
# Regenerates sfu_test.ptx from sfu_test.cu (needs nvcc; no GPU).
set -e
cd "$(dirname "$0")"
nvcc -arch=sm_90 -rdc=true -ptx -O3 sfu_test.cu -o sfu_test.ptx
# perforation/gaussian3.*: a perforated module for approx-perforation-tune's
# command-line tests (needs a compiler build; no GPU).
# ../../../build/bin/approx-opt ../../../examples/perforation/gaussian3_plain.mlir \
#   --approx-to-ptx="chip=sm_90 output-dir=perforation name=gaussian3 perforate=accurate,rows1:nn perforate-blocks=32x8,16x16" -o /dev/null
