#!/usr/bin/env bash
# images.sh - scikit-image's photographs as .npy in OUT_DIR (images.py),
# scikit-image installed from PyPI into $BUILD_DIR/bench-venv (default
# build/bench-venv) on first use; nothing is committed. Shared by
# bench/perforation/prepare.sh and bench/precision/prepare.sh.
#
#   bench/perforation/images.sh OUT_DIR
set -euo pipefail
OUT=$(realpath -m "${1:?usage: images.sh OUT_DIR}")
cd "$(dirname "$0")/../.."
VENV=${BUILD_DIR:-build}/bench-venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q scikit-image
fi
"$VENV/bin/python" bench/perforation/images.py "$OUT"
