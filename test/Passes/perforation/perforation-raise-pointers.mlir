// approx-perforation-raise on CUDA front-door kernels (approx-cc's raised
// form): !llvm.ptr arrays read as p[row * W + col] with LLVM's i32
// arithmetic and NVVM's special registers. The tile load reads a memref
// view of the pointer built from the integer arguments H and W.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,rows1:nn block-shapes=32x8}))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,rows1:nn block-shapes=32x4r2}))' | FileCheck %s --check-prefix=ROWS

// Clamped borders (CUDA's min/max, raised to arith by approx-raise-libdevice):
// out[y][x] = in[clamp(y-1)][x'] + in[y'][clamp(x+1)], W from the row
// pitch, H from the row clamp. Without known_block_size the block shape
// comes from block-shapes.
// CHECK-LABEL: gpu.func @clamped
// CHECK-SAME:    workgroup(%[[PADDED:.*]] : memref<10x40xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME:    known_block_size = array<i32: 32, 8, 1>
// CHECK:         %[[BUF:.*]] = memref.subview %[[PADDED]][0, 3] [10, 34] [1, 1]
// CHECK:         %[[H:.*]] = llvm.sext %arg2 : i32 to i64
// CHECK:         %[[W:.*]] = llvm.sext %arg3 : i32 to i64
// CHECK:         llvm.insertvalue %arg0, %{{.*}}[0]
// CHECK:         llvm.insertvalue %arg0, %{{.*}}[1]
// CHECK:         llvm.insertvalue %[[H]], %{{.*}}[3, 0]
// CHECK:         llvm.insertvalue %[[W]], %{{.*}}[3, 1]
// CHECK:         llvm.insertvalue %[[W]], %{{.*}}[4, 0]
// CHECK:         %[[VIEW:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf32>
// CHECK:         approx.perforation.tile_load %[[VIEW]][%{{.*}}, %{{.*}}] into %[[BUF]] halo(1, 1) border(clamp)
// CHECK-NOT:     llvm.load
// CHECK:         memref.load %[[BUF]][%{{.*}}, %{{.*}}]
// CHECK:         memref.load %[[BUF]][%{{.*}}, %{{.*}}]
// CHECK:         llvm.store
// ROWS-LABEL: gpu.func @clamped
// ROWS-SAME:    memref<10x40xf32, #gpu.address_space<workgroup>>
// ROWS-SAME:    known_block_size = array<i32: 32, 4, 1>
// ROWS:         approx.perforation.tile_load
// ROWS:         scf.for
// ROWS:           arith.index_cast %{{.*}} : index to i32
// ROWS-NOT:       nvvm.read.ptx.sreg.tid.y
// ROWS:           memref.load
gpu.module @m {
  gpu.func @clamped(%in: !llvm.ptr, %out: !llvm.ptr, %h: i32, %w: i32) kernel
      attributes {nvvm.maxntid = array<i32: 256>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %cm1 = llvm.mlir.constant(-1 : i32) : i32
    %bx = nvvm.read.ptx.sreg.ctaid.x : i32
    %nx = nvvm.read.ptx.sreg.ntid.x : i32
    %tx = nvvm.read.ptx.sreg.tid.x : i32
    %by = nvvm.read.ptx.sreg.ctaid.y : i32
    %ny = nvvm.read.ptx.sreg.ntid.y : i32
    %ty = nvvm.read.ptx.sreg.tid.y : i32
    %bxn = llvm.mul %bx, %nx : i32
    %x = llvm.add %bxn, %tx : i32
    %byn = llvm.mul %by, %ny overflow<nsw, nuw> : i32
    %y = llvm.add %byn, %ty overflow<nsw, nuw> : i32
    %hm1 = llvm.add %h, %cm1 overflow<nsw> : i32
    %wm1 = llvm.add %w, %cm1 overflow<nsw> : i32
    // in[clamp(y - 1) * w + clamp(x)]
    %ym1 = llvm.add %y, %cm1 overflow<nsw> : i32
    %a0 = arith.maxsi %ym1, %c0 : i32
    %a1 = arith.minsi %a0, %hm1 : i32
    %b0 = arith.maxsi %x, %c0 : i32
    %b1 = arith.minsi %b0, %wm1 : i32
    %r0 = llvm.mul %a1, %w overflow<nsw> : i32
    %i0 = llvm.add %b1, %r0 overflow<nsw> : i32
    %e0 = llvm.sext %i0 : i32 to i64
    %p0 = llvm.getelementptr inbounds %in[%e0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v0 = llvm.load %p0 {alignment = 4 : i64} : !llvm.ptr -> f32
    // in[clamp(y) * w + clamp(x + 1)], smin/smax intrinsics
    %c2 = llvm.intr.smax(%y, %c0) : (i32, i32) -> i32
    %c3 = llvm.intr.smin(%c2, %hm1) : (i32, i32) -> i32
    %xp1 = llvm.add %x, %c1 overflow<nsw> : i32
    %d0 = llvm.intr.smax(%xp1, %c0) : (i32, i32) -> i32
    %d1 = llvm.intr.smin(%d0, %wm1) : (i32, i32) -> i32
    %r1 = llvm.mul %w, %c3 overflow<nsw> : i32
    %i1 = llvm.add %r1, %d1 overflow<nsw> : i32
    %e1 = llvm.sext %i1 : i32 to i64
    %p1 = llvm.getelementptr inbounds %in[%e1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v1 = llvm.load %p1 {alignment = 4 : i64} : !llvm.ptr -> f32
    %s = llvm.fadd %v0, %v1 : f32
    %ry = llvm.mul %y, %w overflow<nsw> : i32
    %io = llvm.add %ry, %x overflow<nsw> : i32
    %eo = llvm.sext %io : i32 to i64
    %po = llvm.getelementptr inbounds %out[%eo] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %s, %po {alignment = 4 : i64} : f32, !llvm.ptr
    gpu.return
  }
}

// -----

// No border handling: the kernel computes only the interior, its bounds
// check gives H. LLVM folds p[y*w + x + 1] into &p[y*w + x] plus 4 bytes;
// the load stays under the kernel's branch, only the load is replaced.
// CHECK-LABEL: gpu.func @interior
// CHECK-SAME:    memref<8x40xf32, #gpu.address_space<workgroup>>
// CHECK:         llvm.insertvalue %{{.*}}, %{{.*}}[3, 0]
// CHECK:         approx.perforation.tile_load %{{.*}} halo(0, 1) border(clamp)
// CHECK:         scf.if
// CHECK-NOT:       llvm.load
// CHECK:           %[[C2:.*]] = arith.constant 2 : index
// CHECK:           %[[J:.*]] = arith.addi %{{.*}}, %[[C2]] : index
// CHECK:           memref.load %{{.*}}[%{{.*}}, %[[J]]]
// CHECK:           memref.load %{{.*}}[%{{.*}}, %{{.*}}]
gpu.module @m {
  gpu.func @interior(%in: !llvm.ptr, %out: !llvm.ptr, %h: i32, %w: i32) kernel {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %cm1 = llvm.mlir.constant(-1 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %cm4 = llvm.mlir.constant(-4 : i64) : i64
    %bx = nvvm.read.ptx.sreg.ctaid.x : i32
    %nx = nvvm.read.ptx.sreg.ntid.x : i32
    %tx = nvvm.read.ptx.sreg.tid.x : i32
    %by = nvvm.read.ptx.sreg.ctaid.y : i32
    %ny = nvvm.read.ptx.sreg.ntid.y : i32
    %ty = nvvm.read.ptx.sreg.tid.y : i32
    %bxn = llvm.mul %bx, %nx : i32
    %x = llvm.add %bxn, %tx : i32
    %byn = llvm.mul %by, %ny : i32
    %y = llvm.add %ty, %byn : i32
    %wm1 = llvm.add %w, %cm1 : i32
    %okx0 = llvm.icmp "sgt" %x, %c0 : i32
    %okx1 = llvm.icmp "slt" %x, %wm1 : i32
    %oky = llvm.icmp "slt" %y, %h : i32
    %okx = llvm.and %okx0, %okx1 : i1
    %ok = llvm.and %okx, %oky : i1
    scf.if %ok {
      %r = llvm.mul %y, %w overflow<nsw> : i32
      %i = llvm.add %r, %x overflow<nsw> : i32
      %e = llvm.sext %i : i32 to i64
      %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %pr = llvm.getelementptr %p[%c4] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      %vr = llvm.load %pr : !llvm.ptr -> f32
      %pl = llvm.getelementptr %p[%cm4] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      %vl = llvm.load %pl : !llvm.ptr -> f32
      %s = llvm.fsub %vr, %vl : f32
      %po = llvm.getelementptr %out[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %s, %po : f32, !llvm.ptr
    }
    gpu.return
  }
}

// -----

// A 1-D coefficient pointer is not a window array and stays a global load;
// the image is read in f16.
// CHECK-LABEL: gpu.func @coefficients
// CHECK-SAME:    memref<10x32xf16, #gpu.address_space<workgroup>>
// CHECK:         to memref<?x?xf16>
// CHECK:         approx.perforation.tile_load %{{.*}} halo(1, 0) border(clamp)
// CHECK:         memref.load
// CHECK:         llvm.load %arg1 : !llvm.ptr -> f32
gpu.module @m {
  gpu.func @coefficients(%in: !llvm.ptr, %k: !llvm.ptr, %out: !llvm.ptr, %h: i32, %w: i32) kernel {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %cm1 = llvm.mlir.constant(-1 : i32) : i32
    %bx = nvvm.read.ptx.sreg.ctaid.x : i32
    %nx = nvvm.read.ptx.sreg.ntid.x : i32
    %tx = nvvm.read.ptx.sreg.tid.x : i32
    %by = nvvm.read.ptx.sreg.ctaid.y : i32
    %ny = nvvm.read.ptx.sreg.ntid.y : i32
    %ty = nvvm.read.ptx.sreg.tid.y : i32
    %bxn = llvm.mul %bx, %nx : i32
    %x = llvm.add %bxn, %tx : i32
    %byn = llvm.mul %by, %ny : i32
    %y = llvm.add %byn, %ty : i32
    %hm1 = llvm.add %h, %cm1 : i32
    %yp = llvm.add %y, %cm1 : i32
    %a0 = arith.maxsi %yp, %c0 : i32
    %a1 = arith.minsi %a0, %hm1 : i32
    %r = llvm.mul %a1, %w : i32
    %i = llvm.add %r, %x : i32
    %e = llvm.sext %i : i32 to i64
    %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %v = llvm.load %p : !llvm.ptr -> f16
    %kv = llvm.load %k : !llvm.ptr -> f32
    %vf = llvm.fpext %v : f16 to f32
    %s = llvm.fmul %vf, %kv : f32
    %ro = llvm.mul %y, %w : i32
    %io = llvm.add %ro, %x : i32
    %eo = llvm.sext %io : i32 to i64
    %po = llvm.getelementptr %out[%eo] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %s, %po : f32, !llvm.ptr
    gpu.return
  }
}
