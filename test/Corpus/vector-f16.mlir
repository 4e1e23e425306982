// Half-precision SiLU and tanh-GELU on packed pairs: each thread loads a
// vector<2xf16>, writes x * sigmoid(x) (exp, then a divide) and
// 0.5 x (1 + tanh(0.79788 x)). Feature: vector<2xf16> math (exp, divf, tanh).
// LAUNCH: --kernel act2 --block 256 --grid 16 --size 8192 --input 0=normal:0:3 --scalar 3=4096
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/halves.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=vector_f16" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/vector_f16.ptx -o %t/vector_f16.cubin
// RUN: %summary %t/vector_f16.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/vector_f16.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=vector_f16 gpu_module=halves chip=sm_90 kernels=1 sites=3
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel act2 args=(memref<?xf16> read, memref<?xf16> write, memref<?xf16> write, scalar {{index|i64}}) knobs=[lambda] sites=3

module attributes {gpu.container_module} {
  gpu.module @halves {
    // n2: number of 2-lane pairs.
    gpu.func @act2(%x: memref<?xf16>, %silu: memref<?xf16>, %gelu: memref<?xf16>,
                   %n2: index) kernel {
      %c2 = arith.constant 2 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %g = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %g, %n2 : index
      scf.if %in {
        %i = arith.muli %g, %c2 : index
        %one = arith.constant dense<1.0> : vector<2xf16>
        %half = arith.constant dense<0.5> : vector<2xf16>
        %k = arith.constant dense<0.79788> : vector<2xf16>
        %v = vector.load %x[%i] : memref<?xf16>, vector<2xf16>
        %nv = arith.negf %v : vector<2xf16>
        // SITE-DAG: site exp vector<2xf16> form=tunable knob=lambda function=act2 kernels=[act2] loc=vector-f16.mlir:[[@LINE+1]]:
        %e = math.exp %nv : vector<2xf16>
        %d = arith.addf %one, %e : vector<2xf16>
        // SITE-DAG: site div vector<2xf16> form=tunable knob=lambda function=act2 kernels=[act2] loc=vector-f16.mlir:[[@LINE+1]]:
        %s = arith.divf %v, %d : vector<2xf16>
        vector.store %s, %silu[%i] : memref<?xf16>, vector<2xf16>
        %a = arith.mulf %k, %v : vector<2xf16>
        // SITE-DAG: site tanh vector<2xf16> form=tunable knob=lambda function=act2 kernels=[act2] loc=vector-f16.mlir:[[@LINE+1]]:
        %t = math.tanh %a : vector<2xf16>
        %t1 = arith.addf %one, %t : vector<2xf16>
        %h = arith.mulf %half, %v : vector<2xf16>
        %r = arith.mulf %h, %t1 : vector<2xf16>
        vector.store %r, %gelu[%i] : memref<?xf16>, vector<2xf16>
      }
      gpu.return
    }
  }
}
