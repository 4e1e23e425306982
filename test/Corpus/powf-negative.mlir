// Power series with negative bases: thread i evaluates
// sum_{k=0}^{7} c_k x^k with x in [-2, 2] using math.powf(x, k) (k an
// integer-valued float: for x < 0, pow is defined and its sign alternates),
// and the signed cube root sign(x) * |x|^(1/3) via powf on |x|. At lambda = 0
// the result must be libdevice's powf (correct for negative bases); the SFU
// form (lg2/mul/ex2) is only defined for x > 0. Feature: math.powf with
// negative bases and integer-valued exponents, in a loop.
// LAUNCH: --kernel series --block 128 --grid 32 --size 4096 --input 0=uniform:-2:2 --scalar 3=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/powers.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=powf_negative" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/powf_negative.ptx -o %t/powf_negative.cubin
// RUN: %summary %t/powf_negative.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/powf_negative.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=powf_negative gpu_module=powers chip=sm_90 kernels=1 sites=3
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel series args=(memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=3

module attributes {gpu.container_module} {
  gpu.module @powers {
    gpu.func @series(%x: memref<?xf32>, %poly: memref<?xf32>, %cbrt: memref<?xf32>,
                     %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %zero = arith.constant 0.0 : f32
        %third = arith.constant 0.333333343 : f32
        %xv = memref.load %x[%i] : memref<?xf32>
        // c_k = 1 / (k + 1), a log(1 + x)-like series.
        %s = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
          %ki = arith.index_cast %k : index to i32
          %kf = arith.sitofp %ki : i32 to f32
          // SITE-DAG: site pow f32 form=tunable knob=lambda function=series kernels=[series] loc=powf-negative.mlir:[[@LINE+1]]:
          %p = math.powf %xv, %kf : f32
          %one = arith.constant 1.0 : f32
          %k1 = arith.addf %kf, %one : f32
          // SITE-DAG: site div f32 form=tunable knob=lambda function=series kernels=[series] loc=powf-negative.mlir:[[@LINE+1]]:
          %t = arith.divf %p, %k1 : f32
          %acc1 = arith.addf %acc, %t : f32
          scf.yield %acc1 : f32
        }
        memref.store %s, %poly[%i] : memref<?xf32>
        %ax = math.absf %xv : f32
        // SITE-DAG: site pow f32 form=tunable knob=lambda function=series kernels=[series] loc=powf-negative.mlir:[[@LINE+1]]:
        %r = math.powf %ax, %third : f32
        %c = math.copysign %r, %xv : f32
        memref.store %c, %cbrt[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
