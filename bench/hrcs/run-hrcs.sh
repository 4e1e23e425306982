#!/usr/bin/env bash
# run-hrcs.sh BIN_DIR OUT [sections]: the hard-to-round search's GPU checks
# and benchmark (docs/hrcs.md), on a GPU machine. BIN_DIR holds approx-hrcs,
# approx-hrcs-verify and approx-hrcs-mpi built by bench/hrcs/build-gpu.sh.
# Every run keeps its stats.json and log under OUT/<run>/ (large .wc files
# are replaced by their line count and sha256); bench/hrcs/report.py turns
# OUT into docs/hrcs.md's tables. Sections (default: all but twogpu, allgpu
# and mpi, which need 2 GPUs or more):
#   env      GPU, driver, clocks, cores
#   verify   every binary32 binade of exp, exp2, log, log2, sin, cos against
#            the oracle: 4 eps x 4 splits x 2 algorithms (approx-hrcs-verify)
#   agree    CPU and GPU backends give the same cases on random segments
#   table1   exp over [1, 1+2^-13), eps 2^-32, the paper's Table 1: six
#            configurations (REPEATS times, in turn)
#   speed    the same 2^42 arguments on 1 core, all cores and the GPU
#            (SPEED_REPEATS times, in turn)
#   binade   exp over [1, 2), p 53, q 54, eps 2^-32 on one GPU
#   twogpu   the same on GPUs 0 and 1 in one process
#   allgpu   the same on every GPU of the machine in one process
#   mpi      the same through approx-hrcs-mpi, one rank per GPU
#   multi    exp over [2^-16, 2^-8) (8 binades), p 53, q 54, eps 2^-43:
#            interrupted, resumed, against an uninterrupted run and
#            CORE-MATH's cases (needs CORE_MATH_WC, python3 with mpmath)
# REPEATS [1] repeats table1's six runs and the binade, twogpu, allgpu and
# mpi sections' runs, SPEED_REPEATS [1] speed's three, in rounds (every
# configuration, then again; binade, twogpu, allgpu and mpi given next to
# each other on the command line take their rounds together, in the order
# given): runs 2.. go to <run>-rK, and each run's log ends with GPU 0's
# clocks, temperature and power (nvidia-smi) before and after it
# (state_before, state_after).
# PACK_TO [unset]: a folder that gets OUT packed as results.tgz every minute
# and at exit (scripts/pack-results.sh): the device tool returns only a few
# files, so give it PACK_TO=$OUT and OUT a folder of its own.
set -uo pipefail
BIN=${1:?usage: run-hrcs.sh BIN_DIR OUT [sections]}; OUT=${2:?}; shift 2
sections=${*:-env verify agree table1 speed binade multi}
for v in SPEED_REPEATS REPEATS; do
  case ${!v:-1} in
    ''|*[!0-9]*|0*) echo "run-hrcs.sh: $v wants a positive integer, not '${!v}'" >&2; exit 2 ;;
  esac
done
if [ -n "${PACK_TO:-}" ]; then
  mkdir -p "$PACK_TO" 2>/dev/null ||
    { echo "run-hrcs.sh: PACK_TO: cannot create '$PACK_TO'" >&2; exit 2; }
fi
mkdir -p "$OUT"
if [ -n "${PACK_TO:-}" ]; then
  source "$(dirname "$0")/../../scripts/pack-results.sh"
  pack_results_start "$OUT" "$PACK_TO"
fi
CORES=$(nproc)
GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)
ALLDEV=$(seq -s, 0 $((GPUS > 0 ? GPUS - 1 : 0)))
CORE_MATH_WC=${CORE_MATH_WC:-../shared/data/worst-cases/core-math-binary64-exp.wc}
status=0
# run NAME ARGS...: approx-hrcs into OUT/NAME, its stdout in OUT/NAME/log.
run() {
  local name=$1; shift
  rm -rf "$OUT/$name"; mkdir -p "$OUT/$name"
  local t0=$(date +%s.%N)
  "$BIN/approx-hrcs" "$@" -o "$OUT/$name/run" --quiet > "$OUT/$name/log" 2>&1
  local rc=$?
  echo "wall_seconds $(awk "BEGIN{print $(date +%s.%N) - $t0}")" >> "$OUT/$name/log"
  keep "$OUT/$name"
  [ $rc -ne 0 ] && { echo "FAIL $name (exit $rc): $(tail -2 "$OUT/$name/log" | head -1)"; status=1; }
  return $rc
}
# keep DIR: DIR/run/stats.json to DIR, the .wc summarised if large.
keep() {
  local d=$1
  [ -f "$d/run/stats.json" ] && cp "$d/run/stats.json" "$d/"
  for wc in "$d"/run/*.wc; do
    [ -f "$wc" ] || continue
    grep -vc '^#' "$wc" > "$d/cases.count"
    sha256sum "$wc" | cut -d' ' -f1 > "$d/cases.sha256"
    [ "$(stat -c %s "$wc")" -lt 2000000 ] && cp "$wc" "$d/"
  done
  rm -rf "$d/run"
}
# gpu_state: the GPU's SM and memory clocks, temperature and power, one line.
gpu_state() {
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1
}
# with_state NAME COMMAND...: COMMAND (which writes OUT/NAME/log), then the
# GPU's state before and after it appended to OUT/NAME/log (state_before,
# state_after).
with_state() {
  local name=$1 before rc; shift
  before=$(gpu_state)
  "$@"; rc=$?
  { echo "state_before $before"; echo "state_after $(gpu_state)"; } >> "$OUT/$name/log"
  return $rc
}
# run_state NAME ARGS...: run with the GPU's state logged around it.
run_state() { with_state "$1" run "$@"; }
# run_mpi NAME: the binade through approx-hrcs-mpi, one rank per GPU, into
# OUT/NAME as run does.
run_mpi() {
  local name=$1 t1 rc
  rm -rf "$OUT/$name"; mkdir -p "$OUT/$name"
  t1=$(date +%s.%N)
  # --bind-to none: Open MPI binds each of 2 ranks to one core otherwise,
  # and a rank's table-building and MPFR threads then share that core.
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --bind-to none -n "$GPUS" \
    "$BIN/approx-hrcs-mpi" --function exp --domain 1,2 --arg-precision 53 --precision 54 \
    --epsilon 0x1p-32 --backend gpu --threads $((CORES / GPUS)) -o "$OUT/$name/run" --quiet \
    > "$OUT/$name/log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && { echo "FAIL mpi$nth: $(tail -3 "$OUT/$name/log")"; status=1; }
  echo "wall_seconds $(awk "BEGIN{print $(date +%s.%N) - $t1}")" >> "$OUT/$name/log"
  keep "$OUT/$name"
  return $rc
}
# differs SECTION WHAT NAME: a note and a failure when OUT/NAME's cases are
# not OUT/binade-1gpu's (when that ran).
differs() {
  if [ -f "$OUT/binade-1gpu/cases.sha256" ] && ! cmp -s "$OUT/binade-1gpu/cases.sha256" "$OUT/$3/cases.sha256"; then
    echo "$1: $2 DIFFER$nth"; status=1
  fi
}
line() { grep -E 'HR cases|total' "$1" | tail -1 | tr -s ' '; }
# The sections in the order they run, SECTION:K (K: the round). Sections
# binade, twogpu, allgpu and mpi next to each other on the command line
# run in REPEATS rounds together; table1 and speed repeat inside.
schedule=() group=()
rounds() {
  local k g
  for k in $(seq 1 "${REPEATS:-1}"); do
    for g in ${group[@]+"${group[@]}"}; do schedule+=("$g:$k"); done
  done
  group=()
}
for s in $sections; do
  case $s in
  binade|twogpu|allgpu|mpi) group+=("$s") ;;
  *) rounds; schedule+=("$s:1") ;;
  esac
done
rounds
for item in "${schedule[@]}"; do
  s=${item%:*} k=${item##*:}
  # A repeated section's run name (runs 2.. in <run>-rK) and note.
  suffix= nth=
  case $s in
  binade|twogpu|allgpu|mpi)
    [ "$k" -gt 1 ] && suffix=-r$k
    [ "${REPEATS:-1}" -gt 1 ] && nth=" (run $k)" ;;
  esac
  t0=$(date +%s)
  case $s in
  env)
    { date -u +%Y-%m-%dT%H:%M:%SZ
      nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
      echo "cores $CORES"; uname -m
      git rev-parse HEAD 2>/dev/null; } > "$OUT/env.txt" 2>&1
    cat "$OUT/env.txt"
    ;;
  verify)
    # VERIFY_ARGS narrows the matrix (e.g. --functions log,log2); a list of
    # binades can come from a file: VERIFY_ARGS="--binades @FILE".
    name=${VERIFY_NAME:-verify}
    mkdir -p "$OUT/$name"
    vargs=(${VERIFY_ARGS:---binades all})
    [ "${vargs[0]}" = "--binades" ] && [ "${vargs[1]:0:1}" = "@" ] && vargs[1]=$(cat "${vargs[1]:1}")
    "$BIN/approx-hrcs-verify" --backend gpu --devices "$ALLDEV" --threads "$CORES" \
      "${vargs[@]}" --time-limit "${VERIFY_TIME_LIMIT:-420}" --json "$OUT/$name/verify.json" \
      --cells "$OUT/$name/cells.jsonl" \
      > "$OUT/$name/log" 2>&1 \
      || { echo "FAIL $name: $(tail -1 "$OUT/$name/log")"; status=1; }
    tail -1 "$OUT/$name/log"
    ;;
  agree)
    # Random segments of 2^22 arguments (seeded: reproducible), p = 53.
    python3 - "$OUT/segments.txt" <<'PY'
import random, sys
r = random.Random(20261122)
fns = [("exp", (-20, 9)), ("exp2", (-10, 9)), ("log", (-20, 60)),
       ("log2", (-20, 60)), ("sin", (-10, 4)), ("cos", (-10, 4))]
with open(sys.argv[1], "w") as f:
    for i in range(12):
        fn, (elo, ehi) = fns[i % len(fns)]
        e = r.randint(elo, ehi)
        start = r.randrange(0, 2**52 - 2**22)
        lo = (2**52 + start) * 2.0**(e - 52)
        hi = (2**52 + start + 2**22) * 2.0**(e - 52)
        if fn.startswith("exp") and r.random() < 0.5:
            lo, hi = -hi + 2.0**(e - 52), -lo + 2.0**(e - 52)
        f.write(f"{fn} {lo.hex()} {hi.hex()}\n")
PY
    i=0
    while read -r fn lo hi; do
      i=$((i+1))
      for b in cpu gpu; do
        run "agree-$i-$b" --function "$fn" --domain "$lo,$hi" --arg-precision 53 \
          --precision 54 --epsilon 0x1p-18 --backend $b --threads "$CORES" || true
      done
      if cmp -s "$OUT/agree-$i-cpu/$fn.wc" "$OUT/agree-$i-gpu/$fn.wc"; then
        echo "agree $i $fn [$lo, $hi): $(cat "$OUT/agree-$i-gpu/cases.count") cases, CPU == GPU"
      else
        echo "agree $i $fn [$lo, $hi): CPU != GPU"; status=1
      fi
    done < "$OUT/segments.txt"
    ;;
  table1)
    # The paper's Table 1 domain under four readings of "(64, 2^-32)", the
    # six runs REPEATS [1] times in turn (runs 2.. in table1-*-rK).
    for k in $(seq 1 "${REPEATS:-1}"); do
      for cfg in "53 54 lefevre" "53 54 regular" "53 53 regular" "53 64 regular" \
                 "64 64 lefevre" "64 64 regular"; do
        set -- $cfg
        name=table1-p$1-q$2-$3; [ "$k" -gt 1 ] && name=$name-r$k
        run_state "$name" --function exp --domain 1,0x1.0008p0 --arg-precision $1 \
          --precision $2 --epsilon 0x1p-32 --algorithm $3 --backend gpu \
          --threads "$CORES" && echo "table1 p$1 q$2 $3 (run $k): $(line "$OUT/$name/log")"
      done
    done
    ;;
  speed)
    # One build, one domain (2^42 arguments from 1): 1 core, all cores, GPU,
    # in turn, SPEED_REPEATS [1] times (runs 2.. in speed-*-rK), the GPU's
    # clocks, temperature and power logged before and after each run.
    for k in $(seq 1 "${SPEED_REPEATS:-1}"); do
      for cfg in "cpu 1" "cpu $CORES" "gpu $CORES"; do
        set -- $cfg
        name=speed-$1-$2; [ "$k" -gt 1 ] && name=$name-r$k
        run_state "$name" --function exp --domain 1,0x1.004p0 --arg-precision 53 \
          --precision 54 --epsilon 0x1p-32 --backend $1 --threads $2 \
          && echo "speed $1 x$2 (run $k): $(line "$OUT/$name/log")"
      done
    done
    ;;
  # binade, twogpu, allgpu, mpi: round K of REPEATS [1] (runs 2.. in
  # binade-*-rK), the cases compared with binade-1gpu's first run.
  binade)
    name=binade-1gpu$suffix
    run_state "$name" --function exp --domain 1,2 --arg-precision 53 --precision 54 \
      --epsilon 0x1p-32 --backend gpu --threads "$CORES" --devices 0 \
      && echo "binade [1,2) 1 GPU$nth: $(line "$OUT/$name/log")"
    differs binade "1 GPU's runs" "$name"
    ;;
  twogpu)
    name=binade-2gpu$suffix
    run_state "$name" --function exp --domain 1,2 --arg-precision 53 --precision 54 \
      --epsilon 0x1p-32 --backend gpu --threads "$CORES" --devices 0,1 \
      && echo "binade [1,2) 2 GPUs$nth: $(line "$OUT/$name/log")"
    differs twogpu "1 and 2 GPUs" "$name"
    ;;
  allgpu)
    name=binade-${GPUS}gpu$suffix
    run_state "$name" --function exp --domain 1,2 --arg-precision 53 --precision 54 \
      --epsilon 0x1p-32 --backend gpu --threads "$CORES" --devices "$ALLDEV" \
      && echo "binade [1,2) $GPUS GPUs$nth: $(line "$OUT/$name/log")"
    differs allgpu "1 and $GPUS GPUs" "$name"
    ;;
  mpi)
    name=binade-mpi$suffix
    with_state "$name" run_mpi "$name"
    echo "binade [1,2) MPI x$GPUS$nth: $(line "$OUT/$name/log")"
    differs mpi "1 GPU and MPI" "$name"
    ;;
  multi)
    args=(--function exp --domain 0x1p-16,0x1p-8 --arg-precision 53 --precision 54
          --epsilon 0x1p-43 --backend gpu --threads "$CORES")
    run multi-whole "${args[@]}"
    # Interrupted after a few seconds, then resumed from its checkpoint.
    rm -rf "$OUT/multi-resumed"; mkdir -p "$OUT/multi-resumed"
    timeout -s INT 4 "$BIN/approx-hrcs" "${args[@]}" -o "$OUT/multi-resumed/run" --quiet \
      > "$OUT/multi-resumed/log-interrupted" 2>&1
    echo "interrupted: exit $?, checkpoint: $(sed -n 3p "$OUT/multi-resumed/run/hrcs.state" | cut -d' ' -f1) units done" \
      | tee -a "$OUT/multi-resumed/log-interrupted"
    "$BIN/approx-hrcs" "${args[@]}" -o "$OUT/multi-resumed/run" --quiet --resume \
      > "$OUT/multi-resumed/log" 2>&1 || { echo "FAIL resume"; status=1; }
    cp "$OUT/multi-resumed/run/exp.wc" "$OUT/multi-resumed.wc"
    keep "$OUT/multi-resumed"
    if cmp -s "$OUT/multi-whole/exp.wc" "$OUT/multi-resumed.wc"; then
      echo "multi: resumed .wc == uninterrupted .wc ($(cat "$OUT/multi-whole/cases.count") cases)"
    else
      echo "multi: resumed .wc DIFFERS"; status=1
    fi
    rm -f "$OUT/multi-resumed.wc"
    python3 "$(dirname "$0")/coremath-check.py" "$OUT/multi-whole/exp.wc" "$CORE_MATH_WC" \
      0x1p-16 0x1p-8 54 0x1p-43 | tee "$OUT/multi-whole/coremath.txt" || status=1
    ;;
  *) echo "unknown section $s"; exit 2 ;;
  esac
  echo "=== $s$nth done in $(( $(date +%s) - t0 )) s"
done
exit $status
