// Block-local cosine similarity against the block's mean direction: each
// block stages its 2-D vectors (x, y) in dynamic shared memory
// (gpu.dynamic_shared_memory viewed as 2 x blockDim f32 with memref.view),
// every thread sums the block's vectors after a gpu.barrier, and writes
// cos(angle) = (v . m) * rsqrt(|v|^2 |m|^2) and the angle's sine through
// sqrt(1 - c^2). Feature: gpu.dynamic_shared_memory + memref.view, size set
// at launch (--shared = 8 * block size bytes).
// LAUNCH: --kernel cos_to_mean --block 128 --grid 32 --shared 1024 --size 4096 --input 0=normal:1:1 --input 1=normal:0.5:1 --scalar 4=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/dynsmem.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=dynamic_shared" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/dynamic_shared.ptx -o %t/dynamic_shared.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/dynamic_shared.ptx
// RUN: %summary %t/dynamic_shared.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/dynamic_shared.manifest.json | FileCheck %s --check-prefix=SITE
//
// An unsized .shared array: the dynamic shared memory.
// PTX: .shared .align {{[0-9]+}} .b8 {{[A-Za-z_$][A-Za-z0-9_$]*}};
// MAN: manifest version=3 module=dynamic_shared gpu_module=dynsmem chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel cos_to_mean args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @dynsmem {
    // n must be a multiple of the block size.
    gpu.func @cos_to_mean(%vx: memref<?xf32>, %vy: memref<?xf32>, %cosine: memref<?xf32>,
                          %sine: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %ybytes = arith.muli %bdim, %c4 : index
      %sx = memref.view %smem[%c0][%bdim]
          : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      %sy = memref.view %smem[%ybytes][%bdim]
          : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      %x = memref.load %vx[%i] : memref<?xf32>
      %y = memref.load %vy[%i] : memref<?xf32>
      memref.store %x, %sx[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %y, %sy[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %zero = arith.constant 0.0 : f32
      %m:2 = scf.for %j = %c0 to %bdim step %c1 iter_args(%ax = %zero, %ay = %zero) -> (f32, f32) {
        %a = memref.load %sx[%j] : memref<?xf32, #gpu.address_space<workgroup>>
        %b = memref.load %sy[%j] : memref<?xf32, #gpu.address_space<workgroup>>
        %ax1 = arith.addf %ax, %a : f32
        %ay1 = arith.addf %ay, %b : f32
        scf.yield %ax1, %ay1 : f32, f32
      }
      %dx = arith.mulf %x, %m#0 : f32
      %dy = arith.mulf %y, %m#1 : f32
      %dot = arith.addf %dx, %dy : f32
      %xx = arith.mulf %x, %x : f32
      %yy = arith.mulf %y, %y : f32
      %vv = arith.addf %xx, %yy : f32
      %mx = arith.mulf %m#0, %m#0 : f32
      %my = arith.mulf %m#1, %m#1 : f32
      %mm = arith.addf %mx, %my : f32
      %p = arith.mulf %vv, %mm : f32
      // SITE-DAG: site rsqrt f32 form=tunable knob=lambda function=cos_to_mean kernels=[cos_to_mean] loc=dynamic-shared.mlir:[[@LINE+1]]:
      %r = math.rsqrt %p : f32
      %c = arith.mulf %dot, %r : f32
      memref.store %c, %cosine[%i] : memref<?xf32>
      %one = arith.constant 1.0 : f32
      %cc = arith.mulf %c, %c : f32
      %s2 = arith.subf %one, %cc : f32
      %s2p = arith.maximumf %s2, %zero : f32
      // SITE-DAG: site sqrt f32 form=tunable knob=lambda function=cos_to_mean kernels=[cos_to_mean] loc=dynamic-shared.mlir:[[@LINE+1]]:
      %s = math.sqrt %s2p : f32
      memref.store %s, %sine[%i] : memref<?xf32>
      gpu.return
    }
  }
}
