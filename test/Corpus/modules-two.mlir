// Two gpu.modules in one input: @activations holds a tanh-form GELU,
// @norms a row-wise L2 normalisation (one thread per row; rsqrt of the sum of
// squares, a loop-carried sum). Feature: several gpu.modules, each giving its
// own PTX + manifest (named after the gpu.module when no name= is given).
// LAUNCH: --kernel gelu --block 256 --grid 32 --size 8192 --input 0=normal:0:2 --scalar 2=size
// LAUNCH: --kernel l2norm --block 64 --grid 16 --shape 0=65536 --shape 1=65536 --input 0=normal:0:1 --scalar 2=1024 --scalar 3=64
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/activations.ptx -o %t/upstream-a.cubin
// RUN: %ptxas -arch=sm_90 %t/upstream/norms.ptx -o %t/upstream-n.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/activations.ptx -o %t/activations.cubin
// RUN: %ptxas -arch=sm_90 %t/norms.ptx -o %t/norms.cubin
// RUN: %summary %t/activations.manifest.json %t/norms.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/activations.manifest.json %t/norms.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=activations gpu_module=activations chip=sm_90 kernels=1 sites=1
// MAN-NEXT: knob lambda kind=global type=i32 range=0..64 default=0 warp_slot=hw
// MAN-NEXT: kernel gelu args=(memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=1
// MAN: manifest version=3 module=norms gpu_module=norms chip=sm_90 kernels=1 sites=1
// MAN-NEXT: knob lambda kind=global type=i32 range=0..64 default=0 warp_slot=hw
// MAN-NEXT: kernel l2norm args=(memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}, scalar {{index|i64}}) knobs=[lambda] sites=1

module attributes {gpu.container_module} {
  gpu.module @activations {
    // y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    gpu.func @gelu(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %k0 = arith.constant 0.797884583 : f32
        %k1 = arith.constant 0.044715 : f32
        %v = memref.load %x[%i] : memref<?xf32>
        %v2 = arith.mulf %v, %v : f32
        %v3 = arith.mulf %v2, %v : f32
        %c = arith.mulf %k1, %v3 : f32
        %s = arith.addf %v, %c : f32
        %a = arith.mulf %k0, %s : f32
        // SITE-DAG: site tanh f32 form=tunable knob=lambda function=gelu kernels=[gelu] loc=modules-two.mlir:[[@LINE+1]]:
        %t = math.tanh %a : f32
        %t1 = arith.addf %one, %t : f32
        %h = arith.mulf %half, %v : f32
        %r = arith.mulf %h, %t1 : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  gpu.module @norms {
    // Row r of x (w elements at r * w) scaled to unit length into y.
    gpu.func @l2norm(%x: memref<?xf32>, %y: memref<?xf32>, %rows: index,
                     %w: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %r, %rows : index
      scf.if %in {
        %row = arith.muli %r, %w : index
        %eps = arith.constant 1.0e-12 : f32
        %ss = scf.for %j = %c0 to %w step %c1 iter_args(%acc = %eps) -> (f32) {
          %k = arith.addi %row, %j : index
          %v = memref.load %x[%k] : memref<?xf32>
          %sq = arith.mulf %v, %v : f32
          %acc1 = arith.addf %acc, %sq : f32
          scf.yield %acc1 : f32
        }
        // SITE-DAG: site rsqrt f32 form=tunable knob=lambda function=l2norm kernels=[l2norm] loc=modules-two.mlir:[[@LINE+1]]:
        %inv = math.rsqrt %ss : f32
        scf.for %j = %c0 to %w step %c1 {
          %k = arith.addi %row, %j : index
          %v = memref.load %x[%k] : memref<?xf32>
          %o = arith.mulf %v, %inv : f32
          memref.store %o, %y[%k] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
