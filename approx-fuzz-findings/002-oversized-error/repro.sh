#!/usr/bin/env bash
# Reproducer 002-oversized-error: case -28 of seed 1 (pinned:escape-in-echoed-long-line).
# Recreates the sandbox under $ROOT and runs the command(s); prints the exit status.
# APPROX_BUILD: the build dir (default: the one the campaign used).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
B="${APPROX_BUILD:-/work/fuzzbin-run1}"
ROOT=/tmp/approx-fuzz-repro/002-oversized-error
chmod -R u+rwx "$ROOT" 2>/dev/null; rm -rf "$ROOT"
mkdir -p "$ROOT/a/b/c/d/out" "$ROOT/a/b/c/d/in" "$ROOT/a/b/c/d/cwd" "$ROOT/decoy" "$ROOT/tools"
printf '%s' $'decoy: a tool run must never change this file\x0a' > "$ROOT/decoy/victim.txt"
[ -d "$HERE/files" ] && cp -R "$HERE/files/." "$ROOT/"
find "$ROOT" -name "*.manifest.json" -type f -exec sed -i "s#@ROOT@#$ROOT#g" {} +
cd /tmp/approx-fuzz-repro/002-oversized-error/a/b/c/d/cwd
timeout -s KILL 20 "$B/bin/approx-opt" /tmp/approx-fuzz-repro/002-oversized-error/a/b/c/d/in/input.mlir '--approx-to-ptx=output-dir=/tmp/approx-fuzz-repro/002-oversized-error/a/b/c/d/out name=k' -o /dev/null
echo "exit status: $?"
ls -la /tmp/approx-fuzz-repro/002-oversized-error/a/b/c/d/out; ls -la /tmp/approx-fuzz-repro/002-oversized-error/decoy
