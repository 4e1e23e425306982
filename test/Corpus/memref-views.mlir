// Log-magnitude of a spectrum's interior through views: the input, a flat
// buffer, is seen as an H x W image by memref.reinterpret_cast; a
// memref.subview drops a one-pixel border (offset 1,1, sizes H-2 x W-2) and
// another takes every second column of the output (stride 2); thread (x, y)
// writes log(1 + sqrt(re^2 + im^2)) of the interior pixel pair. Feature:
// memref.subview (dynamic offsets/sizes, strided) and
// memref.reinterpret_cast views, loads and stores through them.
// LAUNCH: --kernel logmag --block 16,16 --grid 4,4 --shape 0=4096 --shape 1=4096 --shape 2=64x128 --input 0=normal:0:10 --input 1=normal:0:10 --scalar 3=64 --scalar 4=64
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/views.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=memref_views" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/memref_views.ptx -o %t/memref_views.cubin
// RUN: %summary %t/memref_views.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/memref_views.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=memref_views gpu_module=views chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel logmag args=(memref<?xf32> read, memref<?xf32> read, memref<?x?xf32> write, scalar {{index|i64}}, scalar {{index|i64}}) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @views {
    // re, im: h * w values, row-major. out: h x 2w; interior results go to
    // its even columns 2 .. 2(w-2).
    gpu.func @logmag(%re: memref<?xf32>, %im: memref<?xf32>, %out: memref<?x?xf32>,
                     %h: index, %w: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f32
      %re2 = memref.reinterpret_cast %re to offset: [0], sizes: [%h, %w], strides: [%w, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %im2 = memref.reinterpret_cast %im to offset: [0], sizes: [%h, %w], strides: [%w, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %hi = arith.subi %h, %c2 : index
      %wi = arith.subi %w, %c2 : index
      %rin = memref.subview %re2[%c1, %c1] [%hi, %wi] [1, 1]
          : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %iin = memref.subview %im2[%c1, %c1] [%hi, %wi] [1, 1]
          : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %oin = memref.subview %out[%c1, %c2] [%hi, %wi] [1, 2]
          : memref<?x?xf32> to memref<?x?xf32, strided<[?, 2], offset: ?>>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %x0 = arith.muli %bx, %dx : index
      %x = arith.addi %x0, %tx : index
      %y0 = arith.muli %by, %dy : index
      %y = arith.addi %y0, %ty : index
      %okx = arith.cmpi ult, %x, %wi : index
      %oky = arith.cmpi ult, %y, %hi : index
      %ok = arith.andi %okx, %oky : i1
      scf.if %ok {
        %a = memref.load %rin[%y, %x] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %b = memref.load %iin[%y, %x] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %aa = arith.mulf %a, %a : f32
        %bb = arith.mulf %b, %b : f32
        %m2 = arith.addf %aa, %bb : f32
        // SITE-DAG: site sqrt f32 form=tunable knob=lambda function=logmag kernels=[logmag] loc=memref-views.mlir:[[@LINE+1]]:
        %m = math.sqrt %m2 : f32
        %m1 = arith.addf %one, %m : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=logmag kernels=[logmag] loc=memref-views.mlir:[[@LINE+1]]:
        %l = math.log %m1 : f32
        memref.store %l, %oin[%y, %x] : memref<?x?xf32, strided<[?, 2], offset: ?>>
      }
      gpu.return
    }
  }
}
