// Damped oscillator samples: thread t writes out[t * 16 + j] =
// exp(-0.1 j) * cos(w[t] * j) for j in [0, 16), with the inner loop an
// `affine.for` and the accesses affine.load/affine.store. Feature: affine.for
// in a kernel.
// UPSTREAM FAILS: MLIR 22's gpu-lower-to-nvvm-pipeline runs lower-affine
// after convert-scf-to-cf, so the scf.for made from the affine.for is never
// lowered: "error: LLVM Translation failed for operation:
// builtin.unrealized_conversion_cast" (checked below with `not`). There is no
// upstream result to compare against.
// LAUNCH: --kernel damped --block 128 --grid 8 --input 0=uniform:0:3
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %upstream %s -o %t/upstream.mlir 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=affine_loop" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/affine_loop.ptx -o %t/affine_loop.cubin
// RUN: %summary %t/affine_loop.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/affine_loop.manifest.json | FileCheck %s --check-prefix=SITE
//
// UPSTREAM: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast
// MAN: manifest version=3 module=affine_loop gpu_module=osc chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel damped args=(memref<1024xf32> read, memref<16384xf32> write) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @osc {
    gpu.func @damped(%w: memref<1024xf32>, %out: memref<16384xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %wt = memref.load %w[%t] : memref<1024xf32>
      %k = arith.constant -0.1 : f32
      affine.for %j = 0 to 16 {
        %ji = arith.index_cast %j : index to i32
        %jf = arith.sitofp %ji : i32 to f32
        %a = arith.mulf %k, %jf : f32
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=damped kernels=[damped] loc=affine-loop.mlir:[[@LINE+1]]:
        %d = math.exp %a : f32
        %p = arith.mulf %wt, %jf : f32
        // SITE-DAG: site cos f32 form=tunable knob=lambda function=damped kernels=[damped] loc=affine-loop.mlir:[[@LINE+1]]:
        %c = math.cos %p : f32
        %v = arith.mulf %d, %c : f32
        affine.store %v, %out[%t * 16 + %j] : memref<16384xf32>
      }
      gpu.return
    }
  }
}
