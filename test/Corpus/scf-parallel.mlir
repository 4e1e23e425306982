// Per-thread micro-tile of a Gaussian (RBF) kernel matrix: thread t owns
// rows 4t .. 4t+3 of K[i, j] = exp(-gamma (a_i - b_j)^2) for 8 columns, walked
// by a 2-D scf.parallel, and also the row sums of K through an scf.parallel
// with an scf.reduce. (upstream lowers scf.parallel inside a kernel to
// sequential loops.) Feature: scf.parallel (with and without scf.reduce) in a
// kernel, holding a transcendental.
// LAUNCH: --kernel rbf_tile --block 64 --grid 4 --shape 0=1024 --shape 1=8 --shape 2=1024x8 --shape 3=1024 --input 0=normal:0:1 --input 1=normal:0:1 --scalar 4=0.5
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/rbf.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=scf_parallel" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/scf_parallel.ptx -o %t/scf_parallel.cubin
// RUN: %summary %t/scf_parallel.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/scf_parallel.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=scf_parallel gpu_module=rbf chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel rbf_tile args=(memref<?xf32> read, memref<?xf32> read, memref<?x8xf32> write, memref<?xf32> write, scalar f32) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @rbf {
    gpu.func @rbf_tile(%a: memref<?xf32>, %b: memref<?xf32>, %k: memref<?x8xf32>,
                       %rowsum: memref<?xf32>, %gamma: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %r0 = arith.muli %t, %c4 : index
      %r1 = arith.addi %r0, %c4 : index
      %ng = arith.negf %gamma : f32
      scf.parallel (%i, %j) = (%r0, %c0) to (%r1, %c8) step (%c1, %c1) {
        %ai = memref.load %a[%i] : memref<?xf32>
        %bj = memref.load %b[%j] : memref<?xf32>
        %d = arith.subf %ai, %bj : f32
        %d2 = arith.mulf %d, %d : f32
        %e = arith.mulf %ng, %d2 : f32
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=rbf_tile kernels=[rbf_tile] loc=scf-parallel.mlir:[[@LINE+1]]:
        %kv = math.exp %e : f32
        memref.store %kv, %k[%i, %j] : memref<?x8xf32>
        scf.reduce
      }
      scf.parallel (%i) = (%r0) to (%r1) step (%c1) {
        %ai = memref.load %a[%i] : memref<?xf32>
        %zero = arith.constant 0.0 : f32
        %s = scf.parallel (%j) = (%c0) to (%c8) step (%c1) init (%zero) -> f32 {
          %bj = memref.load %b[%j] : memref<?xf32>
          %d = arith.subf %ai, %bj : f32
          %d2 = arith.mulf %d, %d : f32
          %e = arith.mulf %ng, %d2 : f32
          // SITE-DAG: site exp f32 form=tunable knob=lambda function=rbf_tile kernels=[rbf_tile] loc=scf-parallel.mlir:[[@LINE+1]]:
          %kv = math.exp %e : f32
          scf.reduce(%kv : f32) {
          ^bb0(%x: f32, %y: f32):
            %xy = arith.addf %x, %y : f32
            scf.reduce.return %xy : f32
          }
        }
        memref.store %s, %rowsum[%i] : memref<?xf32>
        scf.reduce
      }
      gpu.return
    }
  }
}
