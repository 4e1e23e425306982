#!/usr/bin/env bash
# run.sh - the corpus benchmark on a GPU machine (no MLIR needed there).
# Builds run-corpus against the driver API, logs the GPU's clocks and
# temperature around the run, checks the launches once under
# compute-sanitizer (memcheck, a few rounds), then times every kernel.
# Table in $OUT/corpus.md, raw results in $OUT/corpus.json.
#
#   bench/cuda-corpus/run.sh CORPUSDIR [run-corpus options...]
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:?usage: run.sh CORPUSDIR [run-corpus options]}; shift
out=${OUT:-/tmp/corpus-out}
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cuda=${CUDA_PATH:-/usr/local/cuda}
g++ -O2 -std=c++17 -I"$cuda/include" -I"$here/../../accuracy/include" "$here/run-corpus.cpp" -L"$cuda/lib64/stubs" \
  -L"$cuda/lib64" -lcuda -o "$bin/run-corpus" || exit 2
smi() {
  nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv 2>&1 | tee -a "$out/clocks.csv"
}
smi
status=0
if [ -z "${SKIP_MEMCHECK:-}" ] && command -v compute-sanitizer >/dev/null; then
  compute-sanitizer --tool memcheck --error-exitcode 3 "$bin/run-corpus" "$corpus" --rounds 5 \
    ${MEMCHECK_ONLY:+--only "$MEMCHECK_ONLY"} >"$out/memcheck.log" 2>&1 || status=$?
  tail -3 "$out/memcheck.log"
fi
"$bin/run-corpus" "$corpus" --json "$out/corpus.json" "$@" | tee "$out/corpus.md" || status=$?
smi
exit $status
