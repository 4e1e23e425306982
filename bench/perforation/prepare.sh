#!/usr/bin/env bash
# prepare.sh - fill .carry/perforation-bench (git-ignored) with what
# bench/perforation/run.sh needs on a GPU machine without MLIR or network:
# the examples compiled by compile.sh, and scikit-image's photographs as
# .npy (scikit-image is installed from PyPI into build/bench-venv; no image
# is committed). Run after scripts/setup.sh.
#
#   bench/perforation/prepare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD_DIR:-build}
DEST=.carry/perforation-bench
rm -rf "$DEST"
mkdir -p "$DEST/kernels" "$DEST/images"
bash bench/perforation/compile.sh "$PWD/$BUILD/bin/approx-opt" "$DEST/kernels"
VENV=$BUILD/bench-venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q scikit-image
fi
"$VENV/bin/python" bench/perforation/images.py "$DEST/images"
du -sh "$DEST"
