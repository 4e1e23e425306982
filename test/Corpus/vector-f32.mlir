// Logistic regression scores on four lanes at a time: each thread loads a
// vector<4xf32> of logits z, writes sigmoid(z) = 1 / (1 + exp(-z)) and the
// log-likelihood term log(1 + exp(-|z|)), and the per-lane standard score
// (z - mean) / sqrt(var) with mean/var scalars. Feature: vector<4xf32> math
// (exp, log, divf, rcp, sqrt) on vector.load/vector.store.
// LAUNCH: --kernel sigmoid4 --block 128 --grid 16 --size 8192 --input 0=normal:0:4 --scalar 4=2048 --scalar 5=0.5 --scalar 6=3.0
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/lanes.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=vector_f32" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/vector_f32.ptx -o %t/vector_f32.cubin
// RUN: %summary %t/vector_f32.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/vector_f32.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=vector_f32 gpu_module=lanes chip=sm_90 kernels=1 sites=6
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel sigmoid4 args=(memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}, scalar f32, scalar f32) knobs=[lambda] sites=6

module attributes {gpu.container_module} {
  gpu.module @lanes {
    // n4: number of 4-lane groups.
    gpu.func @sigmoid4(%z: memref<?xf32>, %sig: memref<?xf32>, %ll: memref<?xf32>,
                       %std: memref<?xf32>, %n4: index, %mean: f32, %var: f32) kernel {
      %c4 = arith.constant 4 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %g = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %g, %n4 : index
      scf.if %in {
        %i = arith.muli %g, %c4 : index
        %one = arith.constant dense<1.0> : vector<4xf32>
        %v = vector.load %z[%i] : memref<?xf32>, vector<4xf32>
        %nv = arith.negf %v : vector<4xf32>
        // SITE-DAG: site exp vector<4xf32> form=tunable knob=lambda function=sigmoid4 kernels=[sigmoid4] loc=vector-f32.mlir:[[@LINE+1]]:
        %e = math.exp %nv : vector<4xf32>
        %d = arith.addf %one, %e : vector<4xf32>
        // SITE-DAG: site rcp vector<4xf32> form=tunable knob=lambda function=sigmoid4 kernels=[sigmoid4] loc=vector-f32.mlir:[[@LINE+1]]:
        %s = arith.divf %one, %d : vector<4xf32>
        vector.store %s, %sig[%i] : memref<?xf32>, vector<4xf32>
        %a = math.absf %v : vector<4xf32>
        %na = arith.negf %a : vector<4xf32>
        // SITE-DAG: site exp vector<4xf32> form=tunable knob=lambda function=sigmoid4 kernels=[sigmoid4] loc=vector-f32.mlir:[[@LINE+1]]:
        %ea = math.exp %na : vector<4xf32>
        %l1 = arith.addf %one, %ea : vector<4xf32>
        // SITE-DAG: site log vector<4xf32> form=tunable knob=lambda function=sigmoid4 kernels=[sigmoid4] loc=vector-f32.mlir:[[@LINE+1]]:
        %l = math.log %l1 : vector<4xf32>
        vector.store %l, %ll[%i] : memref<?xf32>, vector<4xf32>
        %mv = vector.broadcast %mean : f32 to vector<4xf32>
        %vv = vector.broadcast %var : f32 to vector<4xf32>
        %c = arith.subf %v, %mv : vector<4xf32>
        // SITE-DAG: site sqrt vector<4xf32> form=tunable knob=lambda function=sigmoid4 kernels=[sigmoid4] loc=vector-f32.mlir:[[@LINE+1]]:
        %sd = math.sqrt %vv : vector<4xf32>
        // SITE-DAG: site div vector<4xf32> form=tunable knob=lambda function=sigmoid4 kernels=[sigmoid4] loc=vector-f32.mlir:[[@LINE+1]]:
        %q = arith.divf %c, %sd : vector<4xf32>
        vector.store %q, %std[%i] : memref<?xf32>, vector<4xf32>
      }
      gpu.return
    }
  }
}
