// approx-perforation-output on a kernel approx-perforation-raise tiled: the
// rows loop's one store becomes an output perforation op, and the reads of
// the tile with the arithmetic on them move into its region (the work the
// threads whose elements are copied skip); the collective tile load stays
// before it, outside.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate block-shapes=32x4r4},approx-perforation-output{schemes=accurate,rows1}))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate block-shapes=32x4r4},approx-perforation-output{schemes=accurate,rows1},approx-perforation-lower))' | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: gpu.module @blur
// CHECK: approx.knob @perforation_output range(0, 1) default(0)
// CHECK-LABEL: gpu.func @blur
// CHECK: approx.perforation.tile_load %arg0
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NOT: memref.load
// CHECK: approx.perforation.output %arg1[{{.*}}] schemes([#approx.perforation<accurate>, #approx.perforation<rows>]) knob(@perforation_output) : memref<?x?xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index):
// CHECK: memref.load %{{.*}} : memref<{{.*}}#gpu.address_space<workgroup>>
// CHECK: memref.load %{{.*}} : memref<{{.*}}#gpu.address_space<workgroup>>
// CHECK: memref.load %{{.*}} : memref<{{.*}}#gpu.address_space<workgroup>>
// CHECK: arith.addf
// CHECK: approx.perforation.yield
// CHECK-NOT: memref.store
// CHECK: gpu.return
// LOWER-LABEL: gpu.module @blur
// LOWER-NOT: approx.perforation.
// LOWER: gpu.barrier
// LOWER-NOT: approx.perforation.
gpu.module @blur {
  gpu.func @blur(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cm1 = arith.constant -1 : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %hm1 = arith.subi %h, %c1 : index
    %bidy = gpu.block_id y
    %bdimy = gpu.block_dim y
    %tidy = gpu.thread_id y
    %bidx = gpu.block_id x
    %bdimx = gpu.block_dim x
    %tidx = gpu.thread_id x
    %y0 = arith.muli %bidy, %bdimy : index
    %y = arith.addi %y0, %tidy : index
    %x0 = arith.muli %bidx, %bdimx : index
    %x = arith.addi %x0, %tidx : index
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %ym1 = arith.addi %y, %cm1 : index
      %ylom1 = arith.maxsi %ym1, %c0 : index
      %ycm1 = arith.minsi %ylom1, %hm1 : index
      %ylop0 = arith.maxsi %y, %c0 : index
      %ycp0 = arith.minsi %ylop0, %hm1 : index
      %yp1 = arith.addi %y, %c1 : index
      %ylop1 = arith.maxsi %yp1, %c0 : index
      %ycp1 = arith.minsi %ylop1, %hm1 : index
      %a = memref.load %in[%ycm1, %x] : memref<?x?xf32>
      %b = memref.load %in[%ycp0, %x] : memref<?x?xf32>
      %c = memref.load %in[%ycp1, %x] : memref<?x?xf32>
      %ab = arith.addf %a, %b : f32
      %abc = arith.addf %ab, %c : f32
      memref.store %abc, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
