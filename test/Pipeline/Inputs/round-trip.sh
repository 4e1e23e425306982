#!/usr/bin/env bash
# Compile -> parse -> pack for each approx-to-ptx option (round-trip.test).
# Usage: round-trip.sh OUT-DIR INPUTS-DIR EXAMPLES-DIR
set -eu
out=$1 in=$2 ex=$3
static=$in/static-shapes.mlir all=$in/all-functions.mlir
compile() { # name, input, options...
  local name=$1 input=$2; shift 2
  approx-opt "$input" --approx-to-ptx="output-dir=$out name=$name $*" -o /dev/null
}
pack() { # manifest, approx-tune arguments...
  approx-tune "$@" --dry-run
}
scale_args=(--input 0=uniform:0:1 --block 256 --grid 4)
all_args=(--kernel f32_all --input 0=uniform:0.1:1 --input 1=uniform:1:2 --size 1024)

echo "=== default"
compile rt_default "$static"
pack "$out/rt_default.manifest.json" "${scale_args[@]}"
echo "=== bare-ptr"
compile rt_bare "$static" bare-ptr=true
pack "$out/rt_bare.manifest.json" "${scale_args[@]}"
echo "=== knob-path=param"
compile rt_param "$static" knob-path=param
pack "$out/rt_param.manifest.json" "${scale_args[@]}"
for slot in virtual software; do
  echo "=== slot=$slot"
  compile rt_$slot "$static" slot=$slot
  pack "$out/rt_$slot.manifest.json" "${scale_args[@]}"
done
echo "=== knob=tau knob-max=48"
compile rt_tau "$static" knob=tau knob-max=48
pack "$out/rt_tau.manifest.json" "${scale_args[@]}"
echo "=== f64-demote range-reduction newton-steps=3 max-versions=2"
compile rt_f64 "$all" f64-demote=true range-reduction=true newton-steps=3 max-versions=2
pack "$out/rt_f64.manifest.json" "${all_args[@]}"
echo "=== functions=sin,exp kernels=f32_all"
compile rt_sel "$all" functions=sin,exp kernels=f32_all
pack "$out/rt_sel.manifest.json" "${all_args[@]}"
echo "=== chip=sm_80 O=1 fmad=false"
compile rt_sm80 "$all" chip=sm_80 O=1 fmad=false
pack "$out/rt_sm80.manifest.json" "${all_args[@]}"
echo "=== cubin"
compile rt_cubin "$static" cubin=true
pack "$out/rt_cubin.manifest.json" --cubin "${scale_args[@]}"
echo "=== libdevice"
compile rt_lib "$static" libdevice=${LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}
pack "$out/rt_lib.manifest.json" "${scale_args[@]}"

echo "=== two modules"
compile two "$in/two-modules.mlir"
for m in m1 m2; do
  pack "$out/two.$m.manifest.json" --input 0=uniform:0.5:2 --size 256
done

echo "=== examples"
compile box_muller "$ex/box_muller.mlir"
pack "$out/box_muller.manifest.json" --inout 0=uniform:1e-7:1 --scalar 1=16 --scalar 2=262144 --size 4194304 --grid 1024
compile black_scholes "$ex/black_scholes.mlir"
pack "$out/black_scholes.manifest.json" --input 2=uniform:5:30 --input 3=uniform:1:100 --input 4=uniform:0.25:10 --scalar 5=0.02 --scalar 6=0.30 --scalar 7=size --size 65536
compile coulomb "$ex/coulomb_f64.mlir"
pack "$out/coulomb.manifest.json" --shape 0=1024x4 --shape 1=4096x3 --shape 2=4096 --input 0=uniform:0:64 --input 1=uniform:0:64 --scalar 3=1024 --scalar 4=4096 --grid 16
compile iterate "$ex/iterated_map.mlir"
pack "$out/iterate.manifest.json" --inout 0=uniform:0:1 --scalar 1=size --scalar 2=64 --scalar 3=0.5 --size 65536
