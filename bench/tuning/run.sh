#!/usr/bin/env bash
# run.sh - `approx tune` on the three combined applications, on a GPU
# machine (no MLIR there): prepare.sh's directory in, JSON + HTML reports
# and logs out. Each app is tuned on one input and verified on the others;
# the search times on the first GPU, and with two or more GPUs (DEVICES,
# e.g. 0,1) the verification also runs spread over them.
#
#   bench/tuning/run.sh PREPARED_DIR [APP...]     (APP: image image512
#                                                  blur blur-scheme options
#                                                  hmm; default all)
#
# Each app is tuned once per bound of its list (environment, space-separated):
# QOS_IMAGE (rmse; default "0.01"), QOS_BLUR (rmse of the blur alone, the
# perforation-only stencil; "0.005 0.01"), QOS_OPTIONS (mre; "1e-3 5e-3"),
# QOS_HMM (mre; "1e-4"), QOS_PROGRAM (mre of a whole program's outputs;
# "1e-3"); blur-scheme tunes the blur's perforation scheme
# alone (--knobs scheme), bounds QOS_BLUR_SCHEME ("0.02"), the guard's
# demonstration: a scheme picked on one photograph meets other images.
# Also OUT (default /tmp/tuning-out), BUDGET (64),
# DEVICES, REPS (timed launches per configuration, 50). Everything is also packed into OUT/tuning.tar.gz.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${1:?usage: run.sh PREPARED_DIR [APP...]}" && pwd); shift
out=${OUT:-/tmp/tuning-out}
mkdir -p "$out"
apps=${*:-image image512 blur blur-scheme options hmm program}
tune="$dir/bin/approx tune"
budget=${BUDGET:-64}
devices=${DEVICES:+--devices $DEVICES} # kernel apps only
data=$dir/data
smi() {
  nvidia-smi --query-gpu=timestamp,index,name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv 2>&1 | tee -a "$out/clocks.csv"
}
python3 "$here/box-data.py" "$data" || exit 2
smi
status=0
run() { # name, then approx tune's arguments
  local name=$1
  shift
  local t0=$SECONDS
  echo "== $name: $*" | tee "$out/$name.log"
  # The common options first: an app's own (--reps) win, and a program's
  # arguments after -- stay its own.
  $tune --budget "$budget" --reps "${REPS:-50}" --json "$out/$name.json" \
    --report "$out/$name.html" "$@" >>"$out/$name.log" 2>&1
  local rc=$?
  echo "== $name: exit $rc, $((SECONDS - t0)) s" | tee -a "$out/$name.log"
  sed -n '/^reference /,/^measured /p;/^verification took/,$p' "$out/$name.log"
  [ $rc -eq 0 ] || status=$rc
}
image_args() { # size grid suffix qos
  local size=$1 grid=$2 suffix=$3 qos=$4 verify=()
  for f in "$data"/image/verify-*"$suffix".src.f64; do
    case $f in *-512.src.f64) [ -n "$suffix" ] || continue ;; esac
    verify+=(--verify "0=file:$f")
  done
  echo --kernel blur_tonemap --input "0=file:$data/image/train-camera$suffix.src.f64" \
    --shape 0=$size --shape 1=$size --scalar 2=4.0 --scalar 3=1.0 --scalar 4=0.5 \
    --scalar 5=0.4545 --block 32,8 --grid $grid --metric rmse --qos "$qos" \
    --allow-zero-inputs "${verify[@]}" --cache "$dir/cache/image_pipeline" $devices
}
for app in $apps; do
  case $app in
  image|image512)
    for q in ${QOS_IMAGE:-0.01}; do
      if [ $app = image ]; then
        run image-$q "$dir/$(cat "$dir/image_pipeline.base")" $(image_args 2048x2048 64,256 "" $q)
      else
        run image512-$q "$dir/$(cat "$dir/image_pipeline.base")" $(image_args 512x512 16,64 -512 $q)
      fi
    done ;;
  blur|blur-scheme)
    # The stencil alone (perforation and its output's storage, or the
    # scheme alone): the case where a pick made on one photograph can miss
    # on others.
    bounds=${QOS_BLUR:-0.005 0.01} only=()
    if [ $app = blur-scheme ]; then
      bounds=${QOS_BLUR_SCHEME:-0.02} only=(--knobs scheme)
    fi
    for q in $bounds; do
      verify=()
      for f in "$data"/image/verify-*.src.f64; do
        case $f in *-512.src.f64) continue ;; esac
        verify+=(--verify "0=file:$f")
      done
      run $app-$q "$dir/$(cat "$dir/image_pipeline.base")" --kernel blur "${only[@]}" \
        --input "0=file:$data/image/train-camera.src.f64" --shape 0=2048x2048 \
        --shape 1=2048x2048 --block 32,8 --grid 64,256 --metric rmse --qos $q \
        --allow-zero-inputs "${verify[@]}" --cache "$dir/cache/image_pipeline" $devices
    done ;;
  options)
    o=$data/options n=4000000 verify=()
    for s in verify-1-uniform verify-2-deep-itm verify-3-deep-otm verify-4-atm-short verify-5-listed; do
      verify+=(--verify "2=file:$o/$s.price.f64;3=file:$o/$s.strike.f64;4=file:$o/$s.years.f64")
    done
    for q in ${QOS_OPTIONS:-1e-3 5e-3}; do
      run options-$q "$dir/$(cat "$dir/option_pricing.base")" --kernel black_scholes \
        --input "2=file:$o/train-uniform.price.f64" --input "3=file:$o/train-uniform.strike.f64" \
        --input "4=file:$o/train-uniform.years.f64" --shape 0=$n --shape 1=$n --shape 2=$n \
        --shape 3=$n --shape 4=$n --scalar 5=0.02 --scalar 6=0.3 --scalar 7=$n --block 128 \
        --grid 31250 --metric mre --qos $q "${verify[@]}" \
        --cache "$dir/cache/option_pricing" $devices
    done ;;
  hmm)
    h=$data/hmm verify=()
    for s in verify-1-cat128 verify-2-sticky128; do
      verify+=(--verify "0=file:$h/$s.la.f64;1=file:$h/$s.lb.f64;2=file:$h/$s.lpi.f64;3=file:$h/$s.obs.i32")
    done
    for q in ${QOS_HMM:-1e-4}; do
      run hmm-$q "$dir/$(cat "$dir/logsumexp.base")" --kernel hmm_forward \
        --input "0=file:$h/train-cat128.la.f64" --input "1=file:$h/train-cat128.lb.f64" \
        --input "2=file:$h/train-cat128.lpi.f64" --input "3=file:$h/train-cat128.obs.i32" \
        --shape 0=128x128 --shape 1=128x16 --shape 2=128 --shape 3=1024x100 --shape 4=1024 \
        --block 128 --grid 1024 --metric mre --qos $q "${verify[@]}" \
        --cache "$dir/cache/logsumexp" $devices
    done ;;
  program)
    # A whole program (examples/cuda/host.cpp, box_muller by approx-cc):
    # the knobs through APPROX_CONFIG, the outputs its device-to-host
    # copies, the time its wall time; verified at two other sizes.
    for q in ${QOS_PROGRAM:-1e-3}; do
      run program-$q "$dir/box_muller/box_muller.manifest.json" --joint \
        --metric mre --qos $q --warmup 1 --reps 5 --verify-arg 2=1048576 \
        --verify-arg 2=16777216 -- "$dir/bin/box_muller_host" \
        "$dir/box_muller/box_muller.manifest.json" 0 4194304
    done ;;
  *)
    echo "run.sh: unknown app '$app' (image image512 blur blur-scheme options hmm program)" >&2
    exit 2 ;;
  esac
done
smi
tar -C "$out" -czf "$out/tuning.tar.gz" --exclude tuning.tar.gz . 2>/dev/null
exit $status
