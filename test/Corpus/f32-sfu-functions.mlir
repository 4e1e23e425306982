// Audio parameter conversions, one voice per thread: MIDI note -> frequency
// 440 * 2^((note - 69) / 12) (exp2), frequency -> octave log2(f / 440),
// bilinear-transform prewarping tan(pi f / fs), a tanh soft clipper on the
// gain, and the gain in decibels 20 log10(g). Feature: f32 exp2, log2, tan,
// tanh, log10 (functions with an SFU form beside the paper's Table 1).
// LAUNCH: --kernel voices --block 128 --grid 32 --size 4096 --input 0=uniform:21:108 --input 1=uniform:0.01:4 --scalar 6=size --scalar 7=48000
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/audio.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=f32_sfu" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/f32_sfu.ptx -o %t/f32_sfu.cubin
// RUN: %summary %t/f32_sfu.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/f32_sfu.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=f32_sfu gpu_module=audio chip=sm_90 kernels=1 sites=6
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel voices args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}, scalar f32) knobs=[lambda] sites=6

module attributes {gpu.container_module} {
  gpu.module @audio {
    gpu.func @voices(%note: memref<?xf32>, %gain: memref<?xf32>, %freq: memref<?xf32>,
                     %octave: memref<?xf32>, %warp: memref<?xf32>, %db: memref<?xf32>,
                     %n: index, %fs: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %c69 = arith.constant 69.0 : f32
        %twelfth = arith.constant 0.0833333358 : f32
        %a440 = arith.constant 440.0 : f32
        %inv440 = arith.constant 0.00227272727 : f32
        %pi = arith.constant 3.14159274 : f32
        %twenty = arith.constant 20.0 : f32
        %m = memref.load %note[%i] : memref<?xf32>
        %d = arith.subf %m, %c69 : f32
        %e = arith.mulf %d, %twelfth : f32
        // SITE-DAG: site exp2 f32 form=tunable knob=lambda function=voices kernels=[voices] loc=f32-sfu-functions.mlir:[[@LINE+1]]:
        %p = math.exp2 %e : f32
        %f = arith.mulf %a440, %p : f32
        memref.store %f, %freq[%i] : memref<?xf32>
        %fr = arith.mulf %f, %inv440 : f32
        // SITE-DAG: site log2 f32 form=tunable knob=lambda function=voices kernels=[voices] loc=f32-sfu-functions.mlir:[[@LINE+1]]:
        %o = math.log2 %fr : f32
        memref.store %o, %octave[%i] : memref<?xf32>
        %pf = arith.mulf %pi, %f : f32
        // SITE-DAG: site div f32 form=tunable knob=lambda function=voices kernels=[voices] loc=f32-sfu-functions.mlir:[[@LINE+1]]:
        %w = arith.divf %pf, %fs : f32
        // SITE-DAG: site tan f32 form=tunable knob=lambda function=voices kernels=[voices] loc=f32-sfu-functions.mlir:[[@LINE+1]]:
        %t = math.tan %w : f32
        memref.store %t, %warp[%i] : memref<?xf32>
        %g = memref.load %gain[%i] : memref<?xf32>
        // SITE-DAG: site tanh f32 form=tunable knob=lambda function=voices kernels=[voices] loc=f32-sfu-functions.mlir:[[@LINE+1]]:
        %gc = math.tanh %g : f32
        // SITE-DAG: site log10 f32 form=tunable knob=lambda function=voices kernels=[voices] loc=f32-sfu-functions.mlir:[[@LINE+1]]:
        %l = math.log10 %gc : f32
        %dbv = arith.mulf %twenty, %l : f32
        memref.store %dbv, %db[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
