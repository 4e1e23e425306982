#!/usr/bin/env bash
# compare-upstream.sh - run each corpus kernel compiled by approx-to-ptx and by
# upstream MLIR 22's gpu-lower-to-nvvm-pipeline at lambda = 0 on the same
# inputs, and compare their outputs bit for bit (max ulp per output).
#
# The promise it checks (docs/coverage.md): what upstream compiles, approx-to-ptx
# compiles too, with the same results at lambda = 0.
#
# Two steps, on two machines:
#
#   compare-upstream.sh prepare OUT [FILE.mlir ...]     (compiler machine, no GPU)
#     For each corpus file with a `// LAUNCH:` line (default: all of them),
#     compiles ours with `approx-to-ptx{chip=sm_90 fmad=false}` (no contraction
#     into fma, as upstream) into OUT/<file>/ours/ (one NAME.ptx +
#     NAME.manifest.json per gpu.module, named after it), and upstream's PTX
#     into OUT/<file>/upstream/<gpu.module>.ptx; copies the LAUNCH and
#     NONDETERMINISTIC lines. Tools: APPROX_OPT (default approx-opt on PATH, else
#     ../../build/bin/approx-opt), MLIR_OPT (default mlir-opt-22, else
#     mlir-opt), CUDA_HOME (default /usr/local/cuda; upstream finds libdevice
#     there), python3.
#
#     It also writes, beside each upstream PTX, a manifest for it: ours with
#     the knobs and sites taken out (upstream's PTX has the same kernel ABI
#     and no knob global).
#
#   compare-upstream.sh run OUT                         (GPU machine)
#     For each LAUNCH line: finds the manifest under OUT/<file>/ours/ that holds
#     the kernel, runs
#       approx-tune MANIFEST LAUNCH... --run-once OUT/<file>/run/<kernel>.ours
#     (one launch, knobs at their defaults: lambda = 0; every output and
#     inout buffer I written to PREFIX.argI as raw little-endian bytes) and
#     the same on the upstream manifest, then compares every output and inout
#     argument I of the kernel. Writes OUT/report.md and prints it. Tool:
#     APPROX_TUNE (default approx-tune on PATH, else
#     ../../build/bin/approx-tune).
#
# Differences it expects and reports as such (never hides):
#   * sqrt/rsqrt: MLIR 22 lowers math.sqrt to libdevice __nv_sqrtf, whose
#     __nvvm_reflect("__CUDA_PREC_SQRT") LLVM folds to 0, so upstream gets
#     sqrt.approx.f32; __nv_rsqrtf/__nv_rsqrt are rsqrt.approx. Ours are
#     sqrt.rn and sqrt.rn + rcp.rn (docs/pipeline.md). Where upstream's PTX
#     holds sqrt.approx/rsqrt.approx, prepare also compiles ours with sqrt and
#     rsqrt left out of functions= and precise-sqrt=false (upstream's sqrt)
#     into OUT/<file>/ours-sqrt/; a differing output is "sqrt only" when that
#     build matches upstream bit for bit, and DIFFERS otherwise.
#   * atomics: outputs listed by the file's `// NONDETERMINISTIC: I ...` line
#     depend on the order of atomic float additions; "order-dependent".
# `!llvm.ptr` arguments have no element type in the manifest: a file's
# `// OUTPUT-TYPES: I=TYPE ...` line gives it for those it writes.
#
# Exit status: 0 when every compared output is identical or an expected
# difference, 1 when some output differs otherwise or a step failed, 2 on
# usage errors.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
inputs=$here/Inputs

usage() {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}

find_tool() { # VAR default-name fallback-path
  local var=$1 name=$2 fallback=$3
  if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
  echo "$fallback"
}

prepare() {
  local out=$1; shift
  local approx mlir files
  approx=$(find_tool APPROX_OPT approx-opt "$here/../../build/bin/approx-opt")
  mlir=${MLIR_OPT:-}
  if [ -z "$mlir" ]; then
    if command -v mlir-opt-22 >/dev/null 2>&1; then mlir=mlir-opt-22; else mlir=mlir-opt; fi
  fi
  local cuda=${CUDA_HOME:-/usr/local/cuda}
  if [ $# -gt 0 ]; then files=("$@"); else files=("$here"/*.mlir); fi
  mkdir -p "$out"
  local status=0
  for f in "${files[@]}"; do
    grep -q '^// LAUNCH:' "$f" || continue
    local name d
    name=$(basename "$f" .mlir)
    d=$out/$name
    rm -rf "$d"; mkdir -p "$d/ours" "$d/upstream"
    grep '^// LAUNCH:' "$f" | sed 's|^// LAUNCH: *||' > "$d/launch.txt"
    grep '^// NONDETERMINISTIC:' "$f" | sed 's|^// NONDETERMINISTIC: *||' > "$d/nondeterministic.txt"
    grep '^// OUTPUT-TYPES:' "$f" | sed 's|^// OUTPUT-TYPES: *||' > "$d/output-types.txt"
    if ! "$approx" "$f" --approx-to-ptx="chip=sm_90 fmad=false output-dir=$d/ours" \
        -o /dev/null 2> "$d/ours.err"; then
      echo "$name: ours: $(grep -m1 error "$d/ours.err" || head -1 "$d/ours.err")" | tee "$d/ours.failed"
      status=1
    fi
    if ! CUDA_HOME=$cuda "$mlir" "$f" --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa" \
        -o "$d/upstream.mlir" 2> "$d/upstream.err"; then
      echo "$name: upstream: $(grep -m1 error "$d/upstream.err" || head -1 "$d/upstream.err")" | tee "$d/upstream.failed"
    elif ! python3 "$inputs/extract-ptx.py" "$d/upstream.mlir" "$d/upstream" > /dev/null; then
      echo "$name: upstream: no PTX in its gpu.binary" | tee "$d/upstream.failed"
      status=1
    elif grep -l '\.extern \.func.*__nv_' "$d"/upstream/*.ptx > /dev/null 2>&1; then
      echo "$name: upstream: libdevice not linked (is CUDA_HOME=$cuda right?)" | tee "$d/upstream.failed"
      status=1
    fi
    if [ ! -e "$d/ours.failed" ] && [ ! -e "$d/upstream.failed" ] &&
       grep -qE '\b(sqrt|rsqrt)\.approx\.' "$d"/upstream/*.ptx; then
      mkdir -p "$d/ours-sqrt"
      "$approx" "$f" --approx-to-ptx="chip=sm_90 fmad=false precise-sqrt=false functions=sin,cos,tan,exp,exp2,log,log2,log10,pow,div,rcp,tanh output-dir=$d/ours-sqrt" \
        -o /dev/null 2> "$d/ours-sqrt.err" || rm -rf "$d/ours-sqrt"
    fi
    if [ ! -e "$d/ours.failed" ] && [ ! -e "$d/upstream.failed" ]; then
      if python3 "$inputs/upstream-manifests.py" "$d/ours" "$d/upstream"; then
        echo "$name: prepared"
      else
        echo "$name: cannot write the upstream manifests" | tee "$d/upstream.failed"
        status=1
      fi
    fi
  done
  return $status
}

run() {
  local out=$1
  local tune
  tune=$(find_tool APPROX_TUNE approx-tune "$here/../../build/bin/approx-tune")
  python3 "$inputs/compare-outputs.py" --self-test > /dev/null || exit 1
  local report=$out/report.md
  {
    echo "# approx-to-ptx vs upstream gpu-lower-to-nvvm-pipeline at lambda = 0"
    echo
    echo "ours: approx-to-ptx{chip=sm_90 fmad=false}; upstream: MLIR 22 gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90}."
    echo "Generated by test/Corpus/compare-upstream.sh on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ)."
    echo
    echo "| file | kernel | arg | type | elements | differ | max ulp | NaN mismatch | verdict |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  } > "$report"
  local status=0
  for d in "$out"/*/; do
    d=${d%/}
    local name
    name=$(basename "$d")
    [ -f "$d/launch.txt" ] || continue
    if [ -e "$d/upstream.failed" ]; then
      # Outside the promise: nothing to compare against. Say how ours fared.
      local up us
      up=$(sed 's/|/\\|/g' "$d/upstream.failed" | tr '\n' ' ')
      if [ -e "$d/ours.failed" ]; then
        us="ours fails too: $(sed 's/|/\\|/g' "$d/ours.failed" | tr '\n' ' ')"
      else
        us="ours compiles"
      fi
      echo "| $name | - | - | - | - | - | - | - | no upstream result ($up); $us |" >> "$report"
      continue
    fi
    if [ -e "$d/ours.failed" ]; then
      echo "| $name | - | - | - | - | - | - | - | NOT COMPILED by ours: $(sed 's/|/\\|/g' "$d/ours.failed" | tr '\n' ' ') |" >> "$report"
      status=1
      continue
    fi
    mkdir -p "$d/run"
    while IFS= read -r launch; do
      [ -n "$launch" ] || continue
      # shellcheck disable=SC2086
      set -- $launch
      local kernel="" prev=""
      for a in "$@"; do [ "$prev" = "--kernel" ] && kernel=$a; prev=$a; done
      local info
      if ! info=$(python3 - "$d/ours" "$kernel" "$launch" "$d/output-types.txt" <<'EOF'
import glob, json, sys
ours, kernel, launch, types_file = sys.argv[1:]
toks = launch.split()
inputs = {int(toks[i + 1].split('=')[0]) for i, t in enumerate(toks) if t == '--input'}
given = dict(kv.split('=') for kv in open(types_file).read().split())
for path in sorted(glob.glob(ours + '/*.manifest.json')):
    m = json.load(open(path))
    for k in m.get('kernels', []):
        if k.get('name') != kernel:
            continue
        outs = [str(i) + ':' + given.get(str(i), a.get('element', '?'))
                for i, a in enumerate(k.get('args', []))
                if a.get('kind') in ('memref', 'pointer') and i not in inputs]
        print(path, m.get('gpu_module', ''), ' '.join(outs))
        sys.exit(0)
sys.exit('no manifest under %s holds kernel %s' % (ours, kernel))
EOF
      ); then
        echo "| $name | $kernel | - | - | - | - | - | - | NO MANIFEST for the kernel |" >> "$report"
        status=1
        continue
      fi
      local manifest module outs
      read -r manifest module outs <<< "$info"
      local image=$d/upstream/$module.ptx
      local ok=1
      # shellcheck disable=SC2086
      if ! "$tune" "$manifest" $launch \
          --run-once "$d/run/$kernel.ours" > "$d/run/$kernel.ours.log" 2>&1; then
        echo "| $name | $kernel | - | - | - | - | - | - | ours did not run: $(tail -1 "$d/run/$kernel.ours.log" | sed 's/|/\\|/g') |" >> "$report"
        ok=0
      fi
      # shellcheck disable=SC2086
      if ! "$tune" "$d/upstream/$module.manifest.json" $launch \
          --run-once "$d/run/$kernel.upstream" > "$d/run/$kernel.upstream.log" 2>&1; then
        echo "| $name | $kernel | - | - | - | - | - | - | upstream did not run: $(tail -1 "$d/run/$kernel.upstream.log" | sed 's/|/\\|/g') |" >> "$report"
        ok=0
      fi
      if [ $ok = 0 ]; then status=1; continue; fi
      # With upstream's sqrt (when prepare built it): one more run.
      local sqrt_run=""
      if [ -d "$d/ours-sqrt" ]; then
        local sqrt_manifest=$d/ours-sqrt/$(basename "$manifest")
        # shellcheck disable=SC2086
        if "$tune" "$sqrt_manifest" $launch \
            --run-once "$d/run/$kernel.ours-sqrt" > "$d/run/$kernel.ours-sqrt.log" 2>&1; then
          sqrt_run=yes
        fi
      fi
      for o in $outs; do
        local i=${o%%:*} ty=${o#*:}
        local a=$d/run/$kernel.ours.arg$i b=$d/run/$kernel.upstream.arg$i
        if [ ! -f "$a" ] || [ ! -f "$b" ]; then
          echo "| $name | $kernel | $i | $ty | - | - | - | - | MISSING DUMP (--run-once wrote no $(basename "$a") / $(basename "$b")) |" >> "$report"
          status=1
          continue
        fi
        local line rc verdict
        line=$(python3 "$inputs/compare-outputs.py" "$ty" "$a" "$b"); rc=$?
        if [ $rc = 0 ]; then
          verdict=identical
        elif [ $rc = 2 ]; then
          verdict="CANNOT COMPARE: $(python3 "$inputs/compare-outputs.py" "$ty" "$a" "$b" 2>&1 >/dev/null)"
          status=1
        elif grep -qw "$i" "$d/nondeterministic.txt"; then
          verdict="order-dependent (atomics; see the file's NONDETERMINISTIC line)"
        elif [ -n "$sqrt_run" ] &&
             python3 "$inputs/compare-outputs.py" "$ty" "$d/run/$kernel.ours-sqrt.arg$i" "$b" > /dev/null; then
          verdict="sqrt only: identical when ours uses upstream's sqrt (precise-sqrt=false, sqrt/rsqrt not approximated)"
        else
          verdict=DIFFERS
          status=1
        fi
        # elements=N differ=D max_ulp=U nan_mismatch=M first=F
        local n df u nm
        n=$(sed -n 's/.*elements=\([0-9-]*\).*/\1/p' <<< "$line")
        df=$(sed -n 's/.*differ=\([0-9-]*\).*/\1/p' <<< "$line")
        u=$(sed -n 's/.*max_ulp=\([0-9-]*\).*/\1/p' <<< "$line")
        nm=$(sed -n 's/.*nan_mismatch=\([0-9-]*\).*/\1/p' <<< "$line")
        echo "| $name | $kernel | $i | $ty | ${n:--} | ${df:--} | ${u:--} | ${nm:--} | $verdict |" >> "$report"
      done
    done < "$d/launch.txt"
  done
  cat "$report"
  return $status
}

[ $# -ge 2 ] || usage
cmd=$1; shift
case $cmd in
  prepare) prepare "$@" ;;
  run) [ $# -eq 1 ] || usage; run "$1" ;;
  *) usage ;;
esac
