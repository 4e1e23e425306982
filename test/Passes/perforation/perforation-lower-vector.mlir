// approx-perforation-lower: the 16-byte vector fetch. Where the tile's
// interior width is a multiple of 16 bytes, each scheme that loads whole
// row segments (accurate, rows, stencil) gets a third fetch version, taken
// where a uniform test finds the i32 fetch exact and the image's address,
// pitch and width and the tile's first interior column 16-byte aligned:
// each loaded row's interior as aligned vectors, its halo columns one by
// one. vector-loads=false leaves the scalar versions alone.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-lower,canonicalize))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-lower{vector-loads=false},canonicalize))' | FileCheck %s --check-prefix=OFF

// OFF-NOT: vector.load

// border(clamp), f32: four elements per vector. The test: pitch, width and
// interior column multiples of 4 elements, the address of 16 bytes. A
// vector wholly outside the image reads its edge element (the first
// element of the first vector, or the last of the last).
// CHECK-LABEL: gpu.func @clamped
// CHECK-SAME: (%[[IMG:.*]]: memref<?x?xf32>, %{{.*}}: index, %[[COL:.*]]: index)
// CHECK: %[[W:.*]] = memref.dim %[[IMG]], %c1
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[IMG]]
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast
// CHECK: %[[W32:.*]] = arith.index_cast %[[W]] : index to i32
// CHECK: %[[P32:.*]] = arith.index_cast %[[STRIDES]]#0 : index to i32
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[IMG]]
// CHECK-DAG: arith.andi %[[P32]], %c3_i32 : i32
// CHECK-DAG: arith.andi %[[W32]], %c3_i32 : i32
// CHECK-DAG: arith.andi %[[COL]], %c3 : index
// CHECK-DAG: arith.andi %[[PTR]], %c15 : index
// CHECK: scf.if %[[OK:.*]] {
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %c4_i32 : i32
// CHECK: %[[X:.*]] = arith.addi %{{.*}}, %[[STEP]] : i32
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[X]], %[[W32]] : i32
// CHECK: %[[LAST:.*]] = arith.subi %[[W32]], %c4_i32 : i32
// CHECK: arith.minsi %{{.*}}, %[[LAST]] : i32
// CHECK: %[[VEC:.*]] = vector.load %[[FLAT]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32, strided<[1]>>, vector<4xf32>
// CHECK-DAG: %[[LEFT:.*]] = arith.cmpi slt, %[[X]], %c0_i32 : i32
// CHECK-DAG: %[[FIRST:.*]] = vector.extract %[[VEC]][0]
// CHECK-DAG: %[[END:.*]] = vector.extract %[[VEC]][3]
// CHECK: %[[EDGE:.*]] = arith.select %[[LEFT]], %[[FIRST]], %[[END]] : f32
// CHECK: %[[B:.*]] = vector.broadcast %[[EDGE]] : f32 to vector<4xf32>
// CHECK: %[[GOT:.*]] = arith.select %[[INSIDE]], %[[VEC]], %[[B]] : vector<4xf32>
// CHECK: scf.yield %[[GOT]]
// The halo columns are scalar loads of the same batch.
// CHECK: memref.load %[[FLAT]]
// CHECK: vector.extract %[[V]][0]
// CHECK: vector.extract %[[V]][3]
// CHECK: } else {
// CHECK: scf.if
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @clamped(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// border(zero), f16: eight elements per vector; a vector outside the image
// (row or columns) is zero.
// CHECK-LABEL: gpu.func @zero
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf16>
// CHECK-DAG: arith.andi %{{.*}}, %c7_i32 : i32
// CHECK-DAG: arith.andi %{{.*}}, %c7 : index
// CHECK: scf.if %{{.*}} {
// CHECK: %[[IN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[IN]] -> (vector<8xf16>) {
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf16, strided<[1]>>, vector<8xf16>
// CHECK: } else {
// CHECK: scf.yield %[[ZERO]] : vector<8xf16>
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

// f64: two elements per vector.
// CHECK-LABEL: gpu.func @double
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf64, strided<[1]>>, vector<2xf64>
gpu.module @m {
  gpu.func @double(%img: memref<?x?xf64>, %r: index, %c: index)
      workgroup(%t: memref<4x20xf64, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 2) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf64> to memref<4x20xf64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Schemes in one switch: rows and stencil take vectors, cols (no two
// neighbouring elements of a row) stays scalar. Case 1 is cols.
// CHECK-LABEL: gpu.func @schemes
// CHECK: scf.index_switch
// CHECK-NEXT: case 1 {
// CHECK-NOT: vector.load
// CHECK: case 2 {
// CHECK: vector.load
// CHECK: default {
// CHECK: vector.load
// CHECK: gpu.barrier
gpu.module @m {
  approx.knob @k range(0, 2) default(0)
  gpu.func @schemes(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<rows, skip = 1>,
                 #approx.perforation<cols, skip = 1>,
                 #approx.perforation<stencil>]) knob(@k)
        : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// An interior of 31 columns is no multiple of four elements: scalar only.
// CHECK-LABEL: gpu.func @odd
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @odd(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x33xf32, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<10x33xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A column-strided view has no i32 fetch, and no vector one.
// CHECK-LABEL: gpu.func @strided
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @strided(%img: memref<?x?xf32, strided<[?, ?], offset: ?>>, %r: index, %c: index)
      workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<10x34xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A padded buffer (rows 40 elements apart, each row's interior from a
// multiple of four on, as approx-perforation-raise builds it): the vector
// fetch stores whole vectors, nn copies of rows included, and the buffer
// gets 16-byte alignment. rows2:nn copies a vector to the rows above and
// below; stencil:nn copies the edge rows' vectors into the halo rows and the
// edge lanes into the halo columns.
// CHECK-LABEL: gpu.func @padded
// CHECK-SAME: workgroup(%{{.*}} : memref<10x40xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [397], strides: [1]
// CHECK: scf.index_switch
// CHECK: case 1 {
// CHECK: scf.if
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (vector<4xf32>)
// The buffer index: row * 40 + 3 + column.
// CHECK-DAG: arith.muli %{{.*}}, %c40_i32 : i32
// CHECK-DAG: arith.addi %{{.*}}, %c3_i32 : i32
// CHECK: vector.store %[[V]], %[[FLAT]][%{{.*}}] {alignment = 16 : i64}
// CHECK: scf.if
// CHECK: vector.store %[[V]], %[[FLAT]]
// CHECK: scf.if
// CHECK: vector.store %[[V]], %[[FLAT]]
// CHECK: } else {
// CHECK-NOT: vector.store
// CHECK: case 2 {
// CHECK: vector.store
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// CHECK: memref.store
// CHECK: vector.extract %{{.*}}[3] : f32 from vector<4xf32>
// CHECK: memref.store
// CHECK: gpu.barrier
gpu.module @m {
  approx.knob @k range(0, 2) default(0)
  gpu.func @padded(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%p: memref<10x40xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %t = memref.subview %p[0, 3] [10, 34] [1, 1]
        : memref<10x40xf32, #gpu.address_space<workgroup>>
          to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 2>,
                 #approx.perforation<stencil>]) knob(@k)
        : memref<?x?xf32> to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// The buffer's interior starts at column 1 (identity layout, halo 1): the
// vectors are loaded but stored element by element.
// CHECK-LABEL: gpu.func @unpadded
// CHECK-NOT: llvm.align
// CHECK: vector.load
// CHECK-NOT: vector.store
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @unpadded(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
