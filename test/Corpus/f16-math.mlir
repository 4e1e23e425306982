// Half-precision positional encoding and activation: for position p and
// frequency index j (f16 scalars in memory), writes sin(p * 2^(-j/4)) with
// exp2, a softplus-like exp(-|x|) term and tanh(x), all in f16. Feature: f16
// math (exp, exp2, tanh, sin) in scalar code.
// LAUNCH: --kernel encode --block 128 --grid 32 --size 4096 --input 0=uniform:0:512 --input 1=uniform:0:16 --input 2=normal:0:2 --scalar 5=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/halfmath.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=f16_math" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/f16_math.ptx -o %t/f16_math.cubin
// RUN: %summary %t/f16_math.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/f16_math.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=f16_math gpu_module=halfmath chip=sm_90 kernels=1 sites=4
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel encode args=(memref<?xf16> read, memref<?xf16> read, memref<?xf16> read, memref<?xf16> write, memref<?xf16> write, scalar {{index|i64}}) knobs=[lambda] sites=4

module attributes {gpu.container_module} {
  gpu.module @halfmath {
    gpu.func @encode(%pos: memref<?xf16>, %freq: memref<?xf16>, %x: memref<?xf16>,
                     %enc: memref<?xf16>, %act: memref<?xf16>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %mq = arith.constant -0.25 : f16
        %p = memref.load %pos[%i] : memref<?xf16>
        %j = memref.load %freq[%i] : memref<?xf16>
        %e = arith.mulf %mq, %j : f16
        // SITE-DAG: site exp2 f16 form=tunable knob=lambda function=encode kernels=[encode] loc=f16-math.mlir:[[@LINE+1]]:
        %w = math.exp2 %e : f16
        %a = arith.mulf %p, %w : f16
        // SITE-DAG: site sin f16 form=tunable knob=lambda function=encode kernels=[encode] loc=f16-math.mlir:[[@LINE+1]]:
        %s = math.sin %a : f16
        memref.store %s, %enc[%i] : memref<?xf16>
        %v = memref.load %x[%i] : memref<?xf16>
        %av = math.absf %v : f16
        %nv = arith.negf %av : f16
        // SITE-DAG: site exp f16 form=tunable knob=lambda function=encode kernels=[encode] loc=f16-math.mlir:[[@LINE+1]]:
        %ex = math.exp %nv : f16
        // SITE-DAG: site tanh f16 form=tunable knob=lambda function=encode kernels=[encode] loc=f16-math.mlir:[[@LINE+1]]:
        %t = math.tanh %v : f16
        %r = arith.addf %ex, %t : f16
        memref.store %r, %act[%i] : memref<?xf16>
      }
      gpu.return
    }
  }
}
