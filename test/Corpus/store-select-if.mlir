// Partition by magnitude and ping-pong buffers: thread i reads x[i] from the
// buffer chosen by an scf.if on a scalar flag (the "current" buffer of a
// ping-pong pair), computes e = exp(x) and writes log(e + 1) into the
// buffer chosen by arith.select: `hi` when e > threshold, else `lo` (both at
// index i; the other buffer keeps its contents). Feature: loads through an
// scf.if-chosen memref and stores through an arith.select-chosen memref (the
// manifest's access analysis must see through both).
// LAUNCH: --kernel partition --block 128 --grid 32 --size 4096 --input 0=normal:0:2 --input 1=normal:0:2 --inout 2=uniform:0:1 --inout 3=uniform:0:1 --scalar 4=size --scalar 5=1 --scalar 6=2.0
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/select.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=store_select" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/store_select.ptx -o %t/store_select.cubin
// RUN: %summary %t/store_select.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/store_select.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=store_select gpu_module=select chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel partition args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}, scalar i1, scalar f32) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @select {
    gpu.func @partition(%ping: memref<?xf32>, %pong: memref<?xf32>, %lo: memref<?xf32>,
                        %hi: memref<?xf32>, %n: index, %use_pong: i1, %threshold: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %one = arith.constant 1.0 : f32
        %src = scf.if %use_pong -> memref<?xf32> {
          scf.yield %pong : memref<?xf32>
        } else {
          scf.yield %ping : memref<?xf32>
        }
        %x = memref.load %src[%i] : memref<?xf32>
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=partition kernels=[partition] loc=store-select-if.mlir:[[@LINE+1]]:
        %e = math.exp %x : f32
        %big = arith.cmpf ogt, %e, %threshold : f32
        %dst = arith.select %big, %hi, %lo : memref<?xf32>
        %e1 = arith.addf %e, %one : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=partition kernels=[partition] loc=store-select-if.mlir:[[@LINE+1]]:
        %l = math.log %e1 : f32
        memref.store %l, %dst[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
