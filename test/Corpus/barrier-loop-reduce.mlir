// Row softmax with a block-wide shared-memory reduction: each 128-thread
// block walks rows r = blockIdx, blockIdx + gridDim, ...; per row every thread
// computes exp(x[r, t]) into a workgroup buffer, a tree reduction (an inner
// loop with a gpu.barrier per step) sums it, and y[r, t] = e * (1 / sum).
// Feature: gpu.barrier inside loops that also hold transcendentals (exp, rcp),
// workgroup memory attribution, gpu.known_block_size.
// LAUNCH: --kernel softmax_rows --block 128 --grid 32 --shape 0=256x128 --shape 1=256x128 --input 0=uniform:-5:5 --scalar 2=256
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/softmax.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=barrier_reduce" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/barrier_reduce.ptx -o %t/barrier_reduce.cubin
// RUN: %summary %t/barrier_reduce.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/barrier_reduce.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=barrier_reduce gpu_module=softmax chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel softmax_rows args=(memref<?x128xf32> read, memref<?x128xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @softmax {
    gpu.func @softmax_rows(%x: memref<?x128xf32>, %y: memref<?x128xf32>, %rows: index)
        workgroup(%buf: memref<128xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %c64 = arith.constant 64 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %gdim = gpu.grid_dim x
      scf.for %r = %bid to %rows step %gdim {
        %v = memref.load %x[%r, %tid] : memref<?x128xf32>
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=softmax_rows kernels=[softmax_rows] loc=barrier-loop-reduce.mlir:[[@LINE+1]]:
        %e = math.exp %v : f32
        memref.store %e, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        scf.for %k = %c0 to %c7 step %c1 {
          %s = arith.shrui %c64, %k : index
          %active = arith.cmpi ult, %tid, %s : index
          scf.if %active {
            %j = arith.addi %tid, %s : index
            %a = memref.load %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
            %b = memref.load %buf[%j] : memref<128xf32, #gpu.address_space<workgroup>>
            %ab = arith.addf %a, %b : f32
            memref.store %ab, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          }
          gpu.barrier
        }
        %sum = memref.load %buf[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        // SITE-DAG: site rcp f32 form=tunable knob=lambda function=softmax_rows kernels=[softmax_rows] loc=barrier-loop-reduce.mlir:[[@LINE+1]]:
        %inv = arith.divf %one, %sum : f32
        %o = arith.mulf %e, %inv : f32
        memref.store %o, %y[%r, %tid] : memref<?x128xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}
