#!/usr/bin/env bash
# gpu-prepare.sh - fill .carry/ (git-ignored) with what scripts/gpu-check.sh
# needs on a GPU machine that has no MLIR: the examples compiled here, the
# corpus compiled by approx-to-ptx and by upstream (compare-upstream.sh
# prepare), approx-cc's PTX of examples/cuda/box_muller.cu, the accuracy kernels (bench/accuracy/gen-kernels.py), and a
# GoogleTest source tree, the LNS checks' kernels (bench/lns/gen-kernels.py),
# the LNS examples, the perforation check kernels
# (test/runtime/perforation/Inputs), the PolyBench/GPU apps, the mgpu
# precision example, nlohmann-json's and CLI11's headers. Run after
# scripts/setup.sh.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}
rm -rf .carry/examples .carry/corpus .carry/accuracy .carry/cuda .carry/apps .carry/lns .carry/lns-examples .carry/lns-tune .carry/perforation .carry/polybench
mkdir -p .carry/examples .carry/corpus .carry/cuda
cmake --build "$BUILD" --target approx-examples approx-combined-example >/dev/null
cp "$BUILD"/examples/*.ptx "$BUILD"/examples/*.manifest.json .carry/examples/
mkdir -p .carry/examples/combined # gpu.approx-tune-joint's image pipeline
cp "$BUILD"/examples/combined/image_pipeline.* .carry/examples/combined/
# gpu.approx-tune-programs: the MLIR host programs (objects, PTX, manifests)
# and approx-cc's box_muller for the cudaMemcpy program.
cmake --build "$BUILD" --target approx-mgpu-sin-example >/dev/null
mkdir -p .carry/examples/mgpu-sin .carry/examples/mgpu-gauss .carry/examples/cuda
cp "$BUILD"/examples/mgpu-sin/sin_host.* .carry/examples/mgpu-sin/
cp "$BUILD"/examples/mgpu-gauss/gauss_host.* .carry/examples/mgpu-gauss/
cp "$BUILD"/examples/cuda/box_muller.* .carry/examples/cuda/
APPROX_OPT=$PWD/$BUILD/bin/approx-opt bash test/Corpus/compare-upstream.sh prepare .carry/corpus \
  > .carry/corpus/prepare.log 2>&1 || true # a file upstream cannot compile is reported, not fatal
grep -c prepared .carry/corpus/prepare.log | sed 's/^/corpus files prepared: /'
"$BUILD/bin/approx-cc" examples/cuda/box_muller.cu -o .carry/cuda
bash bench/apps/compile-apps.sh "$PWD/$BUILD/bin/approx-cc" "$PWD/.carry/apps"
python3 bench/accuracy/gen-kernels.py "$BUILD/bin/approx-opt" .carry/accuracy > /dev/null
python3 bench/lns/gen-kernels.py "$BUILD/bin/approx-opt" .carry/lns
bash examples/lns/compile.sh "$BUILD/bin/approx-opt" .carry/lns-examples
mkdir -p .carry/lns-tune
"$BUILD/bin/approx-opt" examples/lns/logaddexp.mlir -o /dev/null \
  --approx-to-ptx="output-dir=.carry/lns-tune name=logaddexp lns-impls=precise,sfu,horner,texture1,texture2,texture3"
mkdir -p .carry/perforation
"$BUILD/bin/approx-opt" test/runtime/perforation/Inputs/kernels.mlir \
  --approx-to-ptx="chip=sm_90 output-dir=.carry/perforation name=perforation_check" -o /dev/null
# The transparent pass against the plain kernel (gpu.Perforation,
# RaisedMatchesDirect): two examples as written and raised, with block
# shapes that include several rows per thread.
for ex in gaussian3_plain hotspot; do
  "$BUILD/bin/approx-opt" examples/perforation/$ex.mlir \
    --approx-to-ptx="chip=sm_90 output-dir=.carry/perforation name=${ex}_direct" -o /dev/null
  "$BUILD/bin/approx-opt" examples/perforation/$ex.mlir \
    --approx-to-ptx="chip=sm_90 output-dir=.carry/perforation name=${ex}_raised perforate=accurate,rows1:nn,rows1:linear,stencil:nn perforate-blocks=32x8,16x16r3,64x4r2" -o /dev/null
done
# The same through the CUDA front door (CudaRaisedMatchesDirect).
"$BUILD/bin/approx-cc" examples/perforation/cuda/stencils.cu -o .carry/perforation --name stencils_direct
"$BUILD/bin/approx-cc" examples/perforation/cuda/stencils.cu -o .carry/perforation --name stencils_raised \
  --approx-options="perforate=accurate,rows1:nn,rows1:linear,stencil:nn perforate-blocks=32x8,16x16r3,64x4r2"
# The PolyBench/GPU apps of precision scaling (run-app, gpu.polybench.*).
mkdir -p .carry/polybench
for f in examples/precision/polybench/*.mlir; do
  "$BUILD/bin/approx-opt" "$f" \
    --approx-to-ptx="chip=sm_90 output-dir=.carry/polybench name=$(basename "$f" .mlir)" -o /dev/null
  # The storage variants approx-scale and run-app --config launch: every
  # kernel's float memref arguments in f64/f32/f16/bf16, every combination.
  "$BUILD/bin/approx-opt" "$f" \
    --approx-to-ptx="chip=sm_90 output-dir=.carry/polybench name=$(basename "$f" .mlir)_variants precision-all=f32,f16,bf16" -o /dev/null
done
# The MLIR host + device example of the mgpu* precision hooks
# (gpu-check.sh precision-mgpu): its plain and variants objects, PTX and
# manifests.
rm -rf .carry/precision-mgpu
bash examples/precision/mgpu/build.sh compile .carry/precision-mgpu
if [ ! -d .carry/googletest ] && [ -d /usr/src/googletest ]; then
  cp -r /usr/src/googletest .carry/googletest
fi
# nlohmann-json's headers (runtime/CMakeLists.txt looks in .carry/include):
# the GPU machine has no nlohmann-json3-dev.
if [ ! -d .carry/include/nlohmann ] && [ -d /usr/include/nlohmann ]; then
  mkdir -p .carry/include && cp -r /usr/include/nlohmann .carry/include/
fi
# CLI11's headers (every tool's command line, cmake/ApproxCli.cmake): the
# GPU machine has no libcli11-dev.
if [ ! -d .carry/cli11/CLI ] && [ -d /usr/include/CLI ]; then
  mkdir -p .carry/cli11 && cp -r /usr/include/CLI .carry/cli11/
fi
du -sh .carry
