// Warp-level log-sum-exp: each thread takes exp(x[i]) of its element, a
// butterfly of gpu.shuffle xor (offsets 16, 8, 4, 2, 1, in an scf.for) sums
// the warp's values, lane 0 of each warp writes log(sum); a block-wide
// gpu.all_reduce max of x[i] is written by thread 0 of each block.
// Feature: gpu.shuffle (xor, in a loop) and gpu.all_reduce next to tunable
// math.
// LAUNCH: --kernel warp_lse --block 256 --grid 16 --size 4096 --input 0=uniform:-4:4 --scalar 3=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/warps.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=shuffle" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/shuffle.ptx -o %t/shuffle.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/shuffle.ptx
// RUN: %summary %t/shuffle.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/shuffle.manifest.json | FileCheck %s --check-prefix=SITE
//
// PTX: shfl.sync.bfly.b32
// MAN: manifest version=3 module=shuffle gpu_module=warps chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel warp_lse args=(memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @warps {
    // n must be a multiple of the block size (every lane takes part).
    gpu.func @warp_lse(%x: memref<?xf32>, %lse: memref<?xf32>, %bmax: memref<?xf32>,
                       %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %c32 = arith.constant 32 : index
      %w32 = arith.constant 32 : i32
      %c16 = arith.constant 16 : i32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      // SITE-DAG: site exp f32 form=tunable knob=lambda function=warp_lse kernels=[warp_lse] loc=shuffle-reduce.mlir:[[@LINE+1]]:
      %e = math.exp %v : f32
      %sum = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %e) -> (f32) {
        %ki = arith.index_cast %k : index to i32
        %off = arith.shrui %c16, %ki : i32
        %o, %valid = gpu.shuffle xor %acc, %off, %w32 : f32
        %acc1 = arith.addf %acc, %o : f32
        scf.yield %acc1 : f32
      }
      %lane = arith.remui %i, %c32 : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        %wid = arith.divui %i, %c32 : index
        // SITE-DAG: site log f32 form=tunable knob=lambda function=warp_lse kernels=[warp_lse] loc=shuffle-reduce.mlir:[[@LINE+1]]:
        %l = math.log %sum : f32
        memref.store %l, %lse[%wid] : memref<?xf32>
      }
      %m = gpu.all_reduce maximumf %v uniform {} : (f32) -> f32
      %t0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %t0 {
        memref.store %m, %bmax[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
