// approx-perforation-raise with several output rows per thread (block shape
// XxYrK): one tile load of X x (Y*K) outputs, then the per-output work in a
// loop of K iterations, the thread's row moved down by Y each time. A
// kernel holding a barrier is refused with a remark.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,rows1:nn block-shapes=32x8,32x8r4}))' | FileCheck %s
// Lowered: every clone's only barrier is the tile load's (nn is fused).
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,rows1:nn block-shapes=32x8r4},approx-perforation-lower,canonicalize))' | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: gpu.module @shift
// CHECK: approx.variant_knob @perforation_block default(0) dispatch {shift = [@shift__32x8, @shift__32x8r4]}
// CHECK-LABEL: gpu.func @shift__32x8(
// CHECK-SAME: workgroup(%{{.*}} : memref<10x32xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: scf.for
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @shift__32x8r4(
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<34x32xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>
// CHECK: %[[BID:.*]] = gpu.block_id y
// CHECK: %[[ROW:.*]] = arith.muli %[[BID]], %c32
// CHECK: approx.perforation.tile_load %arg0[%[[ROW]], %{{.*}}] into %[[BUF]] halo(1, 0)
// CHECK: %[[TID:.*]] = gpu.thread_id y
// CHECK: %[[BID2:.*]] = gpu.block_id y
// CHECK: %[[BIDK:.*]] = arith.muli %[[BID2]], %c4
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[OFF:.*]] = arith.muli %[[I]], %c8
// CHECK: %[[TIDI:.*]] = arith.addi %[[TID]], %[[OFF]]
// The global row: (block_id y * 4) * block_dim y + thread_id y + 8i.
// CHECK: %[[BASE:.*]] = arith.muli %[[BIDK]], %{{.*}}
// CHECK: %[[Y:.*]] = arith.addi %[[BASE]], %[[TIDI]]
// CHECK: arith.cmpi slt, %[[Y]]
// CHECK: scf.if
// CHECK: %[[R:.*]] = arith.addi %[[TIDI]], %c2
// CHECK: memref.load %[[BUF]][%[[R]],
// CHECK: memref.store %{{.*}}, %arg1[%[[Y]],
// LOWER-LABEL: gpu.func @shift
// LOWER-COUNT-1: gpu.barrier
// LOWER-NOT: gpu.barrier
// LOWER: scf.for
// LOWER: gpu.return
gpu.module @shift {
  gpu.func @shift(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %hm1 = arith.subi %h, %c1 : index
    %by = gpu.block_id y
    %dy = gpu.block_dim y
    %ty = gpu.thread_id y
    %y0 = arith.muli %by, %dy : index
    %y = arith.addi %y0, %ty : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %x0 = arith.muli %bx, %dx : index
    %x = arith.addi %x0, %tx : index
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %yn = arith.addi %y, %c1 : index
      %ylo = arith.maxsi %yn, %c0 : index
      %yc = arith.minsi %ylo, %hm1 : index
      %v = memref.load %in[%yc, %x] : memref<?x?xf32>
      memref.store %v, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sync
// CHECK-NOT: tile_load
gpu.module @sync {
  gpu.func @sync(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    // expected-remark @+1 {{kernel @sync holds a barrier; several rows per thread (XxYrK) would repeat it under a loop}}
    gpu.barrier
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}
