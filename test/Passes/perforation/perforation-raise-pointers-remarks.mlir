// approx-perforation-raise on CUDA front-door kernels it cannot prove: the
// kernel is left untouched with a remark naming the cause.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{block-shapes=32x8}))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise))' 2>&1 | FileCheck %s --check-prefix=NOSHAPE
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{block-shapes=32x16}))' 2>&1 | FileCheck %s --check-prefix=BOUNDS

// CHECK-NOT: approx.knob
// CHECK-NOT: tile_load
// NOSHAPE: remark: kernel @rolled has no known_block_size; the tile is the block, so the pass needs it, or block-shapes
// BOUNDS: remark: block shape 32x16 has 512 threads; kernel @rolled allows at most 256 (__launch_bounds__)

// A window written as a loop that was not unrolled: the offset is the loop's
// counter, not a constant.
gpu.module @rolled {
  gpu.func @rolled(%in: !llvm.ptr, %out: !llvm.ptr, %h: i32, %w: i32) kernel
      attributes {nvvm.maxntid = array<i32: 256>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %cm1 = llvm.mlir.constant(-1 : i32) : i32
    %f0 = llvm.mlir.constant(0.0 : f32) : f32
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
    %s:2 = scf.while (%acc = %f0, %dy = %cm1) : (f32, i32) -> (f32, i32) {
      %more = llvm.icmp "slt" %dy, %c2 : i32
      scf.condition(%more) %acc, %dy : f32, i32
    } do {
    ^bb0(%acc: f32, %dy: i32):
      %yy = llvm.add %y, %dy : i32
      %a0 = arith.maxsi %yy, %c0 : i32
      %a1 = arith.minsi %a0, %hm1 : i32
      %r = llvm.mul %a1, %w : i32
      %i = llvm.add %r, %x : i32
      %e = llvm.sext %i : i32 to i64
      %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      // expected-remark @+1 {{the row offset of}}
      %v = llvm.load %p : !llvm.ptr -> f32
      %acc2 = llvm.fadd %acc, %v : f32
      %dy2 = llvm.add %dy, %c1 : i32
      scf.yield %acc2, %dy2 : f32, i32
    }
    %ro = llvm.mul %y, %w : i32
    %io = llvm.add %ro, %x : i32
    %eo = llvm.sext %io : i32 to i64
    %po = llvm.getelementptr %out[%eo] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %s#0, %po : f32, !llvm.ptr
    gpu.return
  }
}

// -----

// Nothing tells the image height: no row clamp, no guard, no bounds check.
gpu.module @no_height {
  // expected-remark @+1 {{kernel @no_height reads pointer arrays, and the image height is not known: clamp the row index to [0, h-1], or compare the thread's y with one height argument}}
  gpu.func @no_height(%in: !llvm.ptr, %out: !llvm.ptr, %w: i32) kernel {
    %c4 = llvm.mlir.constant(4 : i64) : i64
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
    %r = llvm.mul %y, %w : i32
    %i = llvm.add %r, %x : i32
    %e = llvm.sext %i : i32 to i64
    %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %p1 = llvm.getelementptr %p[%c4] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    %v = llvm.load %p1 : !llvm.ptr -> f32
    %po = llvm.getelementptr %out[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %v, %po : f32, !llvm.ptr
    gpu.return
  }
}

// -----

// The row pitch is not the width the column is clamped to.
gpu.module @pitch {
  gpu.func @pitch(%in: !llvm.ptr, %out: !llvm.ptr, %h: i32, %w: i32, %pitch: i32) kernel {
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
    %wm1 = llvm.add %w, %cm1 : i32
    %a0 = arith.maxsi %y, %c0 : i32
    %a1 = arith.minsi %a0, %hm1 : i32
    %b0 = arith.maxsi %x, %c0 : i32
    %b1 = arith.minsi %b0, %wm1 : i32
    %r = llvm.mul %a1, %pitch : i32
    %i = llvm.add %r, %b1 : i32
    %e = llvm.sext %i : i32 to i64
    %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    // expected-remark @+1 {{is a min/max that is not the clamp to [0, W-1]}}
    %v = llvm.load %p : !llvm.ptr -> f32
    llvm.store %v, %out : f32, !llvm.ptr
    gpu.return
  }
}

// -----

// A volatile load.
gpu.module @volatile {
  gpu.func @volatile(%in: !llvm.ptr, %out: !llvm.ptr, %h: i32, %w: i32) kernel {
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
    %ok = llvm.icmp "slt" %y, %h : i32
    scf.if %ok {
      %r = llvm.mul %y, %w : i32
      %i = llvm.add %r, %x : i32
      %e = llvm.sext %i : i32 to i64
      %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      // expected-remark @+1 {{load of %arg0 is volatile or atomic; a tile load may not replace it}}
      %v = llvm.load volatile %p : !llvm.ptr -> f32
      llvm.store %v, %out : f32, !llvm.ptr
    }
    gpu.return
  }
}

// -----

// An input also written through: the tile read at the start would be stale.
gpu.module @written {
  gpu.func @written(%in: !llvm.ptr, %h: i32, %w: i32) kernel {
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
    %ok = llvm.icmp "slt" %y, %h : i32
    scf.if %ok {
      %r = llvm.mul %y, %w : i32
      %i = llvm.add %r, %x : i32
      %e = llvm.sext %i : i32 to i64
      %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %d = llvm.fadd %v, %v : f32
      // expected-remark @+1 {{array %arg0 is loaded and also used by 'llvm.store'}}
      llvm.store %d, %p : f32, !llvm.ptr
    }
    gpu.return
  }
}

// -----

// A pointer read both as a 2-D array and at a fixed element.
gpu.module @flat {
  gpu.func @flat(%in: !llvm.ptr, %out: !llvm.ptr, %h: i32, %w: i32) kernel {
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
    %ok = llvm.icmp "slt" %y, %h : i32
    scf.if %ok {
      // expected-remark @+1 {{load of %arg0 is not a window load: its address is not %arg0[row * W + column]}}
      %first = llvm.load %in : !llvm.ptr -> f32
      %r = llvm.mul %y, %w : i32
      %i = llvm.add %r, %x : i32
      %e = llvm.sext %i : i32 to i64
      %p = llvm.getelementptr %in[%e] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %s = llvm.fadd %v, %first : f32
      llvm.store %s, %out : f32, !llvm.ptr
    }
    gpu.return
  }
}
