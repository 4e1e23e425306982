// bfloat16 RMS normalisation and log-softplus: thread r normalises a row of 32
// bf16 values by rsqrt(mean(x^2) + eps) and writes log(1 + exp(x)) of each
// normalised value, plus the row's sqrt(mean(x^2)). Feature: bf16 math (rsqrt,
// sqrt, exp, log) on bf16 memrefs, with f32 accumulation.
// LAUNCH: --kernel rmsnorm --block 64 --grid 4 --shape 0=8192 --shape 1=8192 --shape 2=256 --input 0=normal:0:3 --scalar 3=256
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/bfmath.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=bf16_math" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/bf16_math.ptx -o %t/bf16_math.cubin
// RUN: %summary %t/bf16_math.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/bf16_math.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=bf16_math gpu_module=bfmath chip=sm_90 kernels=1 sites=4
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel rmsnorm args=(memref<?xbf16> read, memref<?xbf16> write, memref<?xbf16> write, scalar {{index|i64}}) knobs=[lambda] sites=4

module attributes {gpu.container_module} {
  gpu.module @bfmath {
    gpu.func @rmsnorm(%x: memref<?xbf16>, %y: memref<?xbf16>, %rms: memref<?xbf16>,
                      %rows: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %r, %rows : index
      scf.if %in {
        %row = arith.muli %r, %c32 : index
        %zero = arith.constant 0.0 : f32
        %ss = scf.for %j = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (f32) {
          %k = arith.addi %row, %j : index
          %v = memref.load %x[%k] : memref<?xbf16>
          %f = arith.extf %v : bf16 to f32
          %sq = arith.mulf %f, %f : f32
          %acc1 = arith.addf %acc, %sq : f32
          scf.yield %acc1 : f32
        }
        %inv32 = arith.constant 0.03125 : f32
        %eps = arith.constant 1.0e-6 : f32
        %ms = arith.mulf %ss, %inv32 : f32
        %mse = arith.addf %ms, %eps : f32
        %msb = arith.truncf %mse : f32 to bf16
        // SITE-DAG: site rsqrt bf16 form=tunable knob=lambda function=rmsnorm kernels=[rmsnorm] loc=bf16-math.mlir:[[@LINE+1]]:
        %scale = math.rsqrt %msb : bf16
        // SITE-DAG: site sqrt bf16 form=tunable knob=lambda function=rmsnorm kernels=[rmsnorm] loc=bf16-math.mlir:[[@LINE+1]]:
        %rm = math.sqrt %msb : bf16
        memref.store %rm, %rms[%r] : memref<?xbf16>
        %one = arith.constant 1.0 : bf16
        scf.for %j = %c0 to %c32 step %c1 {
          %k = arith.addi %row, %j : index
          %v = memref.load %x[%k] : memref<?xbf16>
          %nv = arith.mulf %v, %scale : bf16
          // SITE-DAG: site exp bf16 form=tunable knob=lambda function=rmsnorm kernels=[rmsnorm] loc=bf16-math.mlir:[[@LINE+1]]:
          %e = math.exp %nv : bf16
          %e1 = arith.addf %one, %e : bf16
          // SITE-DAG: site log bf16 form=tunable knob=lambda function=rmsnorm kernels=[rmsnorm] loc=bf16-math.mlir:[[@LINE+1]]:
          %l = math.log %e1 : bf16
          memref.store %l, %y[%k] : memref<?xbf16>
        }
      }
      gpu.return
    }
  }
}
