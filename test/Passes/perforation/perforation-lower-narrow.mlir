// approx-perforation-lower: the tile fetch addresses the image in i32 where
// the image's sizes and the block's origin fit (a run-time test, uniform
// over the block), and in index (i64) otherwise: clamps, bounds tests and
// row * pitch + col in i32, read from a 1-D view at the sign-extended
// offset. Sources whose inner stride is not 1 keep the i64 fetch only.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-lower{vector-loads=false},canonicalize))' | FileCheck %s

// border(clamp): the i32 version first, the i64 one in the else branch.
// CHECK-LABEL: gpu.func @clamped
// CHECK-SAME: (%[[IMG:.*]]: memref<?x?xf32>
// CHECK-DAG: %[[H:.*]] = memref.dim %[[IMG]], %c0
// CHECK-DAG: %[[W:.*]] = memref.dim %[[IMG]], %c1
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[IMG]]
// CHECK-DAG: arith.cmpi ule, %[[H]], %c1073741824 : index
// CHECK-DAG: arith.cmpi ule, %[[W]], %c1073741824 : index
// CHECK-DAG: arith.cmpi ule, %[[STRIDES]]#0, %c1073741824 : index
// CHECK-DAG: arith.cmpi slt, %{{.*}}, %c2147483647 : index
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [{{.*}}], sizes: [%{{.*}}], strides: [1] : {{.*}} to memref<?xf32, strided<[1]{{.*}}>>
// CHECK: %[[P32:.*]] = arith.index_cast %[[STRIDES]]#0 : index to i32
// CHECK: %[[FLATTILE:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [360], strides: [1] : memref<10x36xf32, #gpu.address_space<workgroup>> to memref<360xf32, #gpu.address_space<workgroup>>
// CHECK: scf.if %[[FITS:.*]] {
// CHECK: arith.maxsi %{{.*}} : i32
// CHECK: arith.minsi %{{.*}} : i32
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %[[P32]] : i32
// CHECK: %[[LIN:.*]] = arith.addi %[[ROW]], %{{.*}} : i32
// CHECK: %[[IDX:.*]] = arith.index_cast %[[LIN]] : i32 to index
// CHECK: %[[V:.*]] = memref.load %[[FLAT]][%[[IDX]]]
// The tile is written at i * 36 + j, in i32.
// CHECK: %[[TROW:.*]] = arith.muli %{{.*}}, %c36_i32 : i32
// CHECK: %[[TLIN:.*]] = arith.addi %[[TROW]], %{{.*}} : i32
// CHECK: %[[TIDX:.*]] = arith.index_castui %[[TLIN]] : i32 to index
// CHECK: memref.store %[[V]], %[[FLATTILE]][%[[TIDX]]]
// CHECK: } else {
// CHECK: arith.maxsi %{{.*}} : index
// CHECK: arith.minsi %{{.*}} : index
// CHECK: memref.load %[[IMG]][
// CHECK: }
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @clamped(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x36xf32, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 2) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<10x36xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// border(zero): 0 <= g < size is one unsigned compare per axis in i32.
// CHECK-LABEL: gpu.func @zero
// CHECK: scf.if %{{.*}} {
// CHECK: %[[IN_A:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: %[[IN_B:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: %[[IN:.*]] = arith.andi %[[IN_B]], %[[IN_A]] : i1
// CHECK: scf.if %[[IN]] -> (f16)
// CHECK: memref.load %{{.*}} : memref<?xf16, strided<[1]{{.*}}>>
// CHECK: } else {
// CHECK: arith.cmpi sge, %{{.*}} : index
gpu.module @m {
  gpu.func @zero(%img: memref<?x?xf16>, %r: index, %c: index)
      workgroup(%t: memref<6x34xf16, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(zero)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf16> to memref<6x34xf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A column-strided view (inner stride not 1) keeps the i64 fetch alone.
// CHECK-LABEL: gpu.func @strided
// CHECK-NOT: memref.extract_strided_metadata
// CHECK-NOT: memref.reinterpret_cast %arg0
// CHECK: memref.load %{{.*}} : memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @strided(%img: memref<?x?xf32, strided<[?, ?], offset: ?>>, %r: index, %c: index)
      workgroup(%t: memref<10x36xf32, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 2) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<10x36xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A known block size: each thread's positions (tid + k * 256) / 36 and
// % 36 come from one i32 div/rem and constant steps, in i32.
// CHECK-LABEL: gpu.func @unrolled
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK-DAG: arith.divui %[[TID]], %c36_i32 : i32
// CHECK-DAG: arith.remui %[[TID]], %c36_i32 : i32
// CHECK: scf.if
// CHECK-NOT: scf.for
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @unrolled(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x36xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 2) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<10x36xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
