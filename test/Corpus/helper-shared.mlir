// Two kernels share one helper: @logistic (a func.func computing
// 1 / (1 + exp(-x))) is called by @forward (sigmoid activation) and by
// @bce_loss (binary cross-entropy -[y log p + (1-y) log(1-p)] with
// p = logistic(x)). Feature: a helper shared by two kernels (inlined into
// each; each kernel gets the helper's sites under its own name).
// LAUNCH: --kernel forward --block 256 --grid 32 --size 8192 --input 0=normal:0:4 --scalar 2=size
// LAUNCH: --kernel bce_loss --block 256 --grid 32 --size 8192 --input 0=normal:0:4 --input 1=uniform:0:1 --scalar 3=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/nn.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=helper_shared" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/helper_shared.ptx -o %t/helper_shared.cubin
// RUN: %summary %t/helper_shared.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/helper_shared.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=helper_shared gpu_module=nn chip=sm_90 kernels=2 sites=6
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel forward args=(memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=2
// MAN-NEXT: kernel bce_loss args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=4
// SITE-DAG: site exp f32 form=tunable knob=lambda function=forward kernels=[forward] loc=helper-shared.mlir:[[# @LINE + 10]]:{{[0-9]+}} (inlined at
// SITE-DAG: site rcp f32 form=tunable knob=lambda function=forward kernels=[forward] loc=helper-shared.mlir:[[# @LINE + 11]]:{{[0-9]+}} (inlined at
// SITE-DAG: site exp f32 form=tunable knob=lambda function=bce_loss kernels=[bce_loss] loc=helper-shared.mlir:[[# @LINE + 8]]:{{[0-9]+}} (inlined at
// SITE-DAG: site rcp f32 form=tunable knob=lambda function=bce_loss kernels=[bce_loss] loc=helper-shared.mlir:[[# @LINE + 9]]:{{[0-9]+}} (inlined at

module attributes {gpu.container_module} {
  gpu.module @nn {
    func.func private @logistic(%x: f32) -> f32 {
      %one = arith.constant 1.0 : f32
      %n = arith.negf %x : f32
      %e = math.exp %n : f32
      %d = arith.addf %one, %e : f32
      %r = arith.divf %one, %d : f32
      return %r : f32
    }

    gpu.func @forward(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<?xf32>
        %s = func.call @logistic(%v) : (f32) -> f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @bce_loss(%x: memref<?xf32>, %label: memref<?xf32>, %loss: memref<?xf32>,
                       %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %one = arith.constant 1.0 : f32
        %eps = arith.constant 1.0e-7 : f32
        %v = memref.load %x[%i] : memref<?xf32>
        %y = memref.load %label[%i] : memref<?xf32>
        %p = func.call @logistic(%v) : (f32) -> f32
        %pe = arith.addf %p, %eps : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=bce_loss kernels=[bce_loss] loc=helper-shared.mlir:[[@LINE+1]]:
        %lp = math.log %pe : f32
        %q = arith.subf %one, %p : f32
        %qe = arith.addf %q, %eps : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=bce_loss kernels=[bce_loss] loc=helper-shared.mlir:[[@LINE+1]]:
        %lq = math.log %qe : f32
        %y1 = arith.subf %one, %y : f32
        %a = arith.mulf %y, %lp : f32
        %b = arith.mulf %y1, %lq : f32
        %s = arith.addf %a, %b : f32
        %l = arith.negf %s : f32
        memref.store %l, %loss[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
