// approx-perforation-raise: the window loads of plain kernels become one
// tile load per input array at the start of the body plus reads of its
// workgroup buffer.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,cols1:linear}))' | FileCheck %s --check-prefix=OPT
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{block-shapes=32x8,64x4}))' | FileCheck %s --check-prefix=SHAPES
// Raised kernels lower (the tile_load verifier accepts what the pass builds).
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise,approx-perforation-lower))' | FileCheck %s --check-prefix=LOWER

// A 3x3 box with clamped borders; either order of min/max, of muli and of
// addi operands; offset 0 clamped or not.
// CHECK-LABEL: gpu.module @box3
// CHECK: approx.knob @perforation range(0, 4) default(0)
// The buffer's rows are padded so that each row's interior starts 16-byte
// aligned (3 + 1 columns, rows 40 elements apart); the tile is its view.
// CHECK-LABEL: gpu.func @box3
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<10x40xf32, #gpu.address_space<workgroup>>)
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[ROW:.*]] = arith.muli %[[BY]], %c8
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[COL:.*]] = arith.muli %[[BX]], %c32
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[T:.*]] = memref.subview %[[BUF]][0, 3] [10, 34] [1, 1] : memref<10x40xf32, #gpu.address_space<workgroup>> to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
// CHECK: approx.perforation.tile_load %arg0[%[[ROW]], %[[COL]]] into %[[T]] halo(1, 1) border(clamp)
// CHECK-SAME: schemes([#approx.perforation<accurate>, #approx.perforation<rows>, #approx.perforation<rows, recon = linear>, #approx.perforation<rows, skip = 2>, #approx.perforation<stencil>])
// CHECK-SAME: knob(@perforation)
// CHECK: scf.if
// CHECK: memref.load %[[T]][%[[TY]], %[[TX]]]
// CHECK: %[[J2:.*]] = arith.addi %[[TX]], %c2
// CHECK: memref.load %[[T]][%[[TY]], %[[J2]]]
// CHECK: %[[I1:.*]] = arith.addi %[[TY]], %c1
// CHECK: %[[J1:.*]] = arith.addi %[[TX]], %c1
// CHECK: memref.load %[[T]][%[[I1]], %[[J1]]]
// CHECK-NOT: memref.load %arg0
// CHECK-NOT: arith.maxsi
// CHECK: memref.store
// OPT-LABEL: gpu.module @box3
// OPT: approx.knob @perforation range(0, 1) default(0)
// OPT: schemes([#approx.perforation<accurate>, #approx.perforation<cols, recon = linear>])
// SHAPES-LABEL: gpu.module @box3
// SHAPES: approx.knob @perforation range(0, 4) default(0)
// SHAPES: approx.variant_knob @perforation_block default(0) dispatch {box3 = [@box3__32x8, @box3__64x4]}
// SHAPES-NOT: gpu.func @box3(
// SHAPES: gpu.func @box3__32x8
// SHAPES-SAME: workgroup(%{{.*}} : memref<10x40xf32, #gpu.address_space<workgroup>>)
// SHAPES-SAME: known_block_size = array<i32: 32, 8, 1>
// SHAPES: arith.muli %{{.*}}, %c8
// SHAPES: arith.muli %{{.*}}, %c32
// SHAPES: approx.perforation.tile_load
// SHAPES: gpu.func @box3__64x4
// SHAPES-SAME: workgroup(%{{.*}} : memref<6x72xf32, #gpu.address_space<workgroup>>)
// SHAPES-SAME: known_block_size = array<i32: 64, 4, 1>
// SHAPES: arith.muli %{{.*}}, %c4
// SHAPES: arith.muli %{{.*}}, %c64
// SHAPES: approx.perforation.tile_load
// SHAPES-NOT: gpu.func @box3(
// LOWER-LABEL: gpu.func @box3
// LOWER: approx.knob_value @perforation
// LOWER: gpu.barrier
// LOWER: gpu.barrier
// LOWER-NOT: approx.perforation
// LOWER: gpu.return
gpu.module @box3 {
  gpu.func @box3(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.dim %in, %c0 : memref<?x?xf32>
    %w = memref.dim %in, %c1 : memref<?x?xf32>
    %hm1 = arith.subi %h, %c1 : index
    %wm1 = arith.subi %w, %c1 : index
    %bidy = gpu.block_id y
    %bdy = gpu.block_dim y
    %tidy = gpu.thread_id y
    %by0 = arith.muli %bidy, %bdy : index
    %y = arith.addi %by0, %tidy : index
    %bidx = gpu.block_id x
    %bdx = gpu.block_dim x
    %tidx = gpu.thread_id x
    %bx0 = arith.muli %bdx, %bidx : index
    %x = arith.addi %tidx, %bx0 : index
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %cm1 = arith.constant -1 : index
      %ym = arith.addi %y, %cm1 : index
      %ym0 = arith.maxsi %ym, %c0 : index
      %ymc = arith.minsi %ym0, %hm1 : index
      %yp = arith.addi %c1, %y : index
      %yp0 = arith.minsi %hm1, %yp : index
      %ypc = arith.maxsi %c0, %yp0 : index
      %xm = arith.subi %x, %c1 : index
      %xm0 = arith.maxsi %xm, %c0 : index
      %xmc = arith.minsi %xm0, %wm1 : index
      %xp = arith.addi %x, %c1 : index
      %xp0 = arith.maxsi %xp, %c0 : index
      %xpc = arith.minsi %xp0, %wm1 : index
      %x00 = arith.maxsi %x, %c0 : index
      %xc = arith.minsi %x00, %wm1 : index
      %a = memref.load %in[%ymc, %xmc] : memref<?x?xf32>
      %b = memref.load %in[%ymc, %xpc] : memref<?x?xf32>
      %c = memref.load %in[%y, %xc] : memref<?x?xf32>
      %d = memref.load %in[%ypc, %xmc] : memref<?x?xf32>
      %e = memref.load %in[%ypc, %xpc] : memref<?x?xf32>
      %s0 = arith.addf %a, %b : f32
      %s1 = arith.addf %s0, %c : f32
      %s2 = arith.addf %s1, %d : f32
      %s3 = arith.addf %s2, %e : f32
      memref.store %s3, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// The zero border: scf.if (0 <= xx < W) { load } else { 0.0 } becomes one
// buffer read (the tile holds 0 outside the image); a 1 x 3 window.
// CHECK-LABEL: gpu.module @zero
// CHECK-LABEL: gpu.func @zero
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<8x40xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[T:.*]] = memref.subview %[[BUF]][0, 3] [8, 34] [1, 1]
// CHECK: approx.perforation.tile_load %arg0[{{.*}}] into %[[T]] halo(0, 1) border(zero)
// The stencil scheme on a tile with a halo stays stencil.
// CHECK-SAME: #approx.perforation<stencil>
// CHECK-NOT: scf.if %{{.*}} -> (f32)
// CHECK: scf.if
// CHECK-NOT: scf.if
// CHECK: memref.load %[[T]]
// CHECK: memref.load %[[T]]
// CHECK: memref.load %[[T]]
// CHECK-NOT: memref.load %arg0
// CHECK: memref.store
gpu.module @zero {
  gpu.func @zero(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %bidy = gpu.block_id y
    %bdy = gpu.block_dim y
    %tidy = gpu.thread_id y
    %by0 = arith.muli %bidy, %bdy : index
    %y = arith.addi %by0, %tidy : index
    %bidx = gpu.block_id x
    %bdx = gpu.block_dim x
    %tidx = gpu.thread_id x
    %bx0 = arith.muli %bidx, %bdx : index
    %x = arith.addi %bx0, %tidx : index
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %zero = arith.constant 0.0 : f32
      %xm = arith.subi %x, %c1 : index
      %xp = arith.addi %x, %c1 : index
      %lo = arith.cmpi sge, %xm, %c0 : index
      %yin = arith.cmpi slt, %y, %h : index
      %lo2 = arith.andi %lo, %yin : i1
      %vm = scf.if %lo2 -> (f32) {
        %l = memref.load %in[%y, %xm] : memref<?x?xf32>
        scf.yield %l : f32
      } else {
        scf.yield %zero : f32
      }
      %v0 = memref.load %in[%y, %x] : memref<?x?xf32>
      %hi = arith.cmpi slt, %xp, %w : index
      %vp = scf.if %hi -> (f32) {
        %l = memref.load %in[%y, %xp] : memref<?x?xf32>
        scf.yield %l : f32
      } else {
        scf.yield %zero : f32
      }
      %s0 = arith.addf %vm, %v0 : f32
      %s1 = arith.addf %s0, %vp : f32
      memref.store %s1, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// Two inputs, each with its own buffer and tile load and one shared knob:
// a 3x3 cross of %temp and the 1x1 window of %power (halo 0, where
// `stencil` skips nothing and is written `accurate`). The clamp bounds come
// from the output. The block size as constants, not gpu.block_dim, is
// accepted without block-shapes.
// CHECK-LABEL: gpu.module @two
// CHECK: approx.knob @perforation range(0, 4) default(0)
// CHECK-LABEL: gpu.func @two
// CHECK-SAME: workgroup(%[[P:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>, %[[BUF:.*]] : memref<10x40xf32, #gpu.address_space<workgroup>>)
// CHECK: approx.perforation.tile_load %arg0[{{.*}}] into %[[P]] halo(0, 0) border(clamp)
// CHECK-SAME: #approx.perforation<rows, skip = 2>, #approx.perforation<accurate>]) knob(@perforation)
// CHECK: %[[T:.*]] = memref.subview %[[BUF]][0, 3] [10, 34] [1, 1]
// CHECK: approx.perforation.tile_load %arg1[{{.*}}] into %[[T]] halo(1, 1) border(clamp)
// CHECK-SAME: #approx.perforation<rows, skip = 2>, #approx.perforation<stencil>]) knob(@perforation)
// CHECK-DAG: memref.load %[[P]]
// CHECK-DAG: memref.load %[[T]]
// CHECK-NOT: memref.load %arg
gpu.module @two {
  gpu.func @two(%power: memref<?x?xf32>, %temp: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %hm1 = arith.subi %h, %c1 : index
    %wm1 = arith.subi %w, %c1 : index
    %bidy = gpu.block_id y
    %tidy = gpu.thread_id y
    %by0 = arith.muli %bidy, %c8 : index
    %y = arith.addi %by0, %tidy : index
    %bidx = gpu.block_id x
    %tidx = gpu.thread_id x
    %bx0 = arith.muli %bidx, %c32 : index
    %x = arith.addi %bx0, %tidx : index
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %ym = arith.subi %y, %c1 : index
      %ym0 = arith.maxsi %ym, %c0 : index
      %ymc = arith.minsi %ym0, %hm1 : index
      %yp = arith.addi %y, %c1 : index
      %yp0 = arith.maxsi %yp, %c0 : index
      %ypc = arith.minsi %yp0, %hm1 : index
      %xm = arith.subi %x, %c1 : index
      %xm0 = arith.maxsi %xm, %c0 : index
      %xmc = arith.minsi %xm0, %wm1 : index
      %xp = arith.addi %x, %c1 : index
      %xp0 = arith.maxsi %xp, %c0 : index
      %xpc = arith.minsi %xp0, %wm1 : index
      %n = memref.load %temp[%ymc, %x] : memref<?x?xf32>
      %s = memref.load %temp[%ypc, %x] : memref<?x?xf32>
      %we = memref.load %temp[%y, %xmc] : memref<?x?xf32>
      %e = memref.load %temp[%y, %xpc] : memref<?x?xf32>
      %p = memref.load %power[%y, %x] : memref<?x?xf32>
      %a0 = arith.addf %n, %s : f32
      %a1 = arith.addf %we, %e : f32
      %a2 = arith.addf %a0, %a1 : f32
      %r = arith.addf %a2, %p : f32
      memref.store %r, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// A 1x1 window (image inversion): halo(0, 0), which the verifier accepts.
// CHECK-LABEL: gpu.module @inversion
// CHECK-LABEL: gpu.func @inversion
// CHECK-SAME: workgroup(%[[T:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK: approx.perforation.tile_load %arg0[{{.*}}] into %[[T]] halo(0, 0) border(clamp)
// CHECK-SAME: schemes([#approx.perforation<accurate>, #approx.perforation<rows>, #approx.perforation<rows, recon = linear>, #approx.perforation<rows, skip = 2>, #approx.perforation<accurate>])
// CHECK: memref.load %[[T]][%[[TY]], %[[TX]]]
// LOWER-LABEL: gpu.func @inversion
// LOWER-NOT: approx.perforation
// LOWER: gpu.return
gpu.module @inversion {
  gpu.func @inversion(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %y = gpu.global_id y
    %x = gpu.global_id x
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %one = arith.constant 1.0 : f32
      %v = memref.load %in[%y, %x] : memref<?x?xf32>
      %r = arith.subf %one, %v : f32
      memref.store %r, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// f16, a 5 x 1 window (offsets -2..2 in rows), clamp max(min(...)) order.
// CHECK-LABEL: gpu.module @half
// CHECK-LABEL: gpu.func @half
// CHECK-SAME: workgroup(%[[T:.*]] : memref<12x32xf16, #gpu.address_space<workgroup>>)
// CHECK: approx.perforation.tile_load %arg0[{{.*}}] into %[[T]] halo(2, 0) border(clamp)
// CHECK-SAME: : memref<?x?xf16> to memref<12x32xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: memref.load %[[T]]
// CHECK-NOT: memref.load %arg0
gpu.module @half {
  gpu.func @half(%in: memref<?x?xf16>, %out: memref<?x?xf16>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %cm1 = arith.constant -1 : index
    %h = memref.dim %in, %c0 : memref<?x?xf16>
    %hm1 = arith.addi %h, %cm1 : index
    %bidy = gpu.block_id y
    %bdy = gpu.block_dim y
    %tidy = gpu.thread_id y
    %by0 = arith.muli %bidy, %bdy : index
    %y = arith.addi %by0, %tidy : index
    %bidx = gpu.block_id x
    %bdx = gpu.block_dim x
    %tidx = gpu.thread_id x
    %bx0 = arith.muli %bidx, %bdx : index
    %x = arith.addi %bx0, %tidx : index
    %ym = arith.subi %y, %c2 : index
    %ym0 = arith.minsi %ym, %hm1 : index
    %ymc = arith.maxsi %ym0, %c0 : index
    %yp = arith.addi %y, %c2 : index
    %yp0 = arith.minsi %yp, %hm1 : index
    %ypc = arith.maxsi %yp0, %c0 : index
    %a = memref.load %in[%ymc, %x] : memref<?x?xf16>
    %b = memref.load %in[%ypc, %x] : memref<?x?xf16>
    %s = arith.addf %a, %b : f16
    memref.store %s, %out[%y, %x] : memref<?x?xf16>
    gpu.return
  }
}
