#!/usr/bin/env bash
# prepare.sh - fill .carry/precision-bench/images (git-ignored) with the
# photographs of the Image input set of bench/precision/run-scaling.sh:
# scikit-image's, as grayscale uint8 .npy at their own size (the apps
# resample them to their arrays), through bench/perforation/images.sh. The
# PTX comes from .carry/polybench (scripts/gpu-prepare.sh). Run here, not on
# the GPU machine (it needs PyPI on first use).
#
#   bench/precision/prepare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
DEST=.carry/precision-bench
rm -rf "$DEST/images"
mkdir -p "$DEST/images"
bash bench/perforation/images.sh "$DEST/images"
du -sh "$DEST"
