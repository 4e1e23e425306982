// Iterated logarithm and Newton's method with data-dependent trip counts:
// thread i counts how many times log must be applied to x[i] (> 1) before it
// drops to 1 or below (log*), in an scf.while, and solves w e^w = y[i] (the
// Lambert W function) from w = log(1 + y) with Newton steps
// w <- w - (w e^w - y) / (e^w (w + 1)) until the step is below 1e-6 or 50
// iterations, in a second scf.while.
// Feature: scf.while loops holding transcendentals (log, exp, div).
// LAUNCH: --kernel iterate --block 128 --grid 32 --size 4096 --input 0=uniform:1.5:1e30 --input 1=uniform:0.1:100 --scalar 4=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/whiles.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=scf_while" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/scf_while.ptx -o %t/scf_while.cubin
// RUN: %summary %t/scf_while.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/scf_while.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=scf_while gpu_module=whiles chip=sm_90 kernels=1 sites=4
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel iterate args=(memref<?xf32> read, memref<?xf32> read, memref<?xi32> write, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=4

module attributes {gpu.container_module} {
  gpu.module @whiles {
    gpu.func @iterate(%x: memref<?xf32>, %y: memref<?xf32>, %logstar: memref<?xi32>,
                      %lambertw: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %one = arith.constant 1.0 : f32
        %c0 = arith.constant 0 : i32
        %c1 = arith.constant 1 : i32
        %c50 = arith.constant 50 : i32
        %tol = arith.constant 1.0e-6 : f32
        %xv = memref.load %x[%i] : memref<?xf32>
        %r:2 = scf.while (%v = %xv, %k = %c0) : (f32, i32) -> (f32, i32) {
          %more = arith.cmpf ogt, %v, %one : f32
          scf.condition(%more) %v, %k : f32, i32
        } do {
        ^bb0(%v: f32, %k: i32):
          // SITE-DAG: site log f32 form=tunable knob=lambda function=iterate kernels=[iterate] loc=scf-while.mlir:[[@LINE+1]]:
          %l = math.log %v : f32
          %k1 = arith.addi %k, %c1 : i32
          scf.yield %l, %k1 : f32, i32
        }
        memref.store %r#1, %logstar[%i] : memref<?xi32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %y1 = arith.addf %yv, %one : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=iterate kernels=[iterate] loc=scf-while.mlir:[[@LINE+1]]:
        %w0 = math.log %y1 : f32
        %big = arith.constant 1.0 : f32
        %s:3 = scf.while (%w = %w0, %step = %big, %it = %c0) : (f32, f32, i32) -> (f32, f32, i32) {
          %as = math.absf %step : f32
          %notdone = arith.cmpf ogt, %as, %tol : f32
          %budget = arith.cmpi slt, %it, %c50 : i32
          %go = arith.andi %notdone, %budget : i1
          scf.condition(%go) %w, %step, %it : f32, f32, i32
        } do {
        ^bb0(%w: f32, %step: f32, %it: i32):
          // SITE-DAG: site exp f32 form=tunable knob=lambda function=iterate kernels=[iterate] loc=scf-while.mlir:[[@LINE+1]]:
          %ew = math.exp %w : f32
          %wew = arith.mulf %w, %ew : f32
          %f = arith.subf %wew, %yv : f32
          %w1 = arith.addf %w, %one : f32
          %fp = arith.mulf %ew, %w1 : f32
          // SITE-DAG: site div f32 form=tunable knob=lambda function=iterate kernels=[iterate] loc=scf-while.mlir:[[@LINE+1]]:
          %d = arith.divf %f, %fp : f32
          %wn = arith.subf %w, %d : f32
          %it1 = arith.addi %it, %c1 : i32
          scf.yield %wn, %d, %it1 : f32, f32, i32
        }
        memref.store %s#0, %lambertw[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
