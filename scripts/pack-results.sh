# pack-results.sh - sourced by the GPU-call scripts (scripts/gpu-v3-check.sh,
# bench/rerun-dispersion.sh): the device tool returns only a few files, so
# everything a call writes under one folder comes back as one archive.
#
#   source scripts/pack-results.sh; pack_results_start WORK RESULTS
#
# packs WORK into RESULTS/results.tgz every minute in the background (a
# step the call's time limit cuts off keeps what finished before), again at
# exit, and whenever the caller runs `pack`.
pack_results_start() {
  PACK_WORK=$1 PACK_RESULTS=$2
  mkdir -p "$PACK_WORK" "$PACK_RESULTS"
  (while sleep 60; do pack; done) &
  PACK_LOOP=$!
  trap 'kill $PACK_LOOP 2>/dev/null; pack' EXIT
}
pack() {
  tar czf "$PACK_RESULTS/results.tgz.tmp" -C "$PACK_WORK" . 2>/dev/null &&
    mv "$PACK_RESULTS/results.tgz.tmp" "$PACK_RESULTS/results.tgz"
}
