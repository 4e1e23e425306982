#!/usr/bin/env bash
# run-hrcs.sh BIN OUT [sections]: the hard-to-round search's GPU checks and
# benchmark (docs/hrcs.md), on a GPU machine. BIN: approx-hrcs built by
# bench/hrcs/build-gpu.sh. Sections (default all):
#   agree    CPU and GPU give the same cases on random segments (check 4)
#   brute    binary32 exp/log binades: search == GPU brute force (check 2)
#   table1   exp over [1, 1+2^-13), p=53, q=54, eps=2^-32, both algorithms
#   speed    one segment on 1 core, all cores and the GPU (speedups)
#   scale    rates at scale: 2^40 arguments on 1 core and on all cores,
#            2^48 on the GPU (p = 53)
#   twogpu   2^48 arguments on GPU 0, then on GPUs 0 and 1 (--devices):
#            same cases, and the time (needs 2 GPUs)
# Every run's stdout is kept under OUT; a summary line per check.
set -uo pipefail
BIN=${1:?usage: run-hrcs.sh BIN OUT [sections]}; OUT=${2:?}; shift 2
sections=${*:-agree brute table1 speed}
mkdir -p "$OUT"
CORES=$(nproc)
status=0
run() { # name args...: run BIN, keep stdout, print its HR line
  local name=$1; shift
  rm -rf "$OUT/run-$name"
  "$BIN" "$@" -o "$OUT/run-$name" --quiet > "$OUT/$name.txt" 2>&1
  local rc=$?
  [ $rc -ne 0 ] && { echo "FAIL $name (exit $rc): $(tail -1 "$OUT/$name.txt")"; status=1; }
  return $rc
}
cases() { grep -v '^#' "$1" | cut -d' ' -f1 | sort; }
for s in $sections; do
  t0=$(date +%s)
  case $s in
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
      if cmp -s <(cases "$OUT/run-agree-$i-cpu/$fn.wc") <(cases "$OUT/run-agree-$i-gpu/$fn.wc"); then
        echo "agree $i $fn [$lo, $hi): $(cases "$OUT/run-agree-$i-gpu/$fn.wc" | wc -l) cases, CPU == GPU"
      else
        echo "agree $i $fn [$lo, $hi): CPU != GPU"; status=1
      fi
    done < "$OUT/segments.txt"
    ;;
  brute)
    for spec in "exp 1,2" "exp 0x1p-3,0x1p-2" "exp -0x1.fffffep1,-0x1.fffffep0" \
                "log 1,2" "log 0x1p20,0x1p21" "log 0x1p-1,1"; do
      set -- $spec
      name="brute-$1-$(echo "$2" | tr -c 'a-zA-Z0-9' _)"
      if run "$name" --function "$1" --domain "$2" --arg-precision 24 --precision 25 \
           --epsilon 0x1p-12 --backend gpu --check-gpu; then
        echo "brute $1 [$2): $(grep -E 'check|HR cases' "$OUT/$name.txt" | tr -s ' ' | tr '\n' ' ')"
      fi
    done
    ;;
  table1)
    # The paper's Table 1 domain under four readings of "(64, 2^-32)":
    # arguments of p bits, boundaries of q bits (docs/hrcs.md).
    for cfg in "53 54 lefevre" "53 54 regular" "53 53 regular" "53 64 regular" \
               "64 64 lefevre" "64 64 regular"; do
      set -- $cfg
      run "table1-p$1-q$2-$3" --function exp --domain 1,0x1.0008p0 --arg-precision $1 \
        --precision $2 --epsilon 0x1p-32 --algorithm $3 --backend gpu \
        --threads "$CORES" && cat "$OUT/table1-p$1-q$2-$3.txt"
    done
    ;;
  speed)
    # The same 2^38 arguments on one core, on all cores and on the GPU.
    for cfg in "cpu 1" "cpu $CORES" "gpu $CORES"; do
      set -- $cfg
      run "speed-$1-$2" --function exp --domain 1,0x1.0004p0 --arg-precision 53 \
        --precision 54 --epsilon 0x1p-32 --backend $1 --threads $2 \
        && echo "speed $1 x$2: $(grep -E 'HR cases' "$OUT/speed-$1-$2.txt")"
    done
    ;;
  scale)
    for cfg in "cpu 1 0x1.001p0" "cpu $CORES 0x1.001p0" "gpu $CORES 0x1.1p0"; do
      set -- $cfg
      run "scale-$1-$2" --function exp --domain 1,$3 --arg-precision 53 \
        --precision 54 --epsilon 0x1p-32 --backend $1 --threads $2 \
        && echo "scale $1 x$2 [1,$3): $(grep -E 'HR cases' "$OUT/scale-$1-$2.txt")"
    done
    ;;
  twogpu)
    for devs in 0 0,1; do
      run "twogpu-$devs" --function exp --domain 1,0x1.1p0 --arg-precision 53 \
        --precision 54 --epsilon 0x1p-32 --backend gpu --threads "$CORES" \
        --devices $devs \
        && echo "twogpu --devices $devs: $(grep -E 'HR cases' "$OUT/twogpu-$devs.txt")"
    done
    if [ "$(cases "$OUT/run-twogpu-0/exp.wc")" = "$(cases "$OUT/run-twogpu-0,1/exp.wc")" ]; then
      echo "twogpu: same cases on 1 and 2 GPUs"
    else
      echo "twogpu: 1 and 2 GPUs DIFFER"; status=1
    fi
    ;;
  binade)
    # Whole binades on the GPU: [1, 2) and [128, 256) at p = 53, q = 54.
    for dom in 1,2 128,256; do
      run "binade-$dom" --function exp --domain $dom --arg-precision 53 \
        --precision 54 --epsilon 0x1p-32 --backend gpu --threads "$CORES" \
        && cat "$OUT/binade-$dom.txt"
    done
    ;;
  *) echo "unknown section $s"; exit 2 ;;
  esac
  echo "=== $s done in $(( $(date +%s) - t0 )) s"
done
exit $status
