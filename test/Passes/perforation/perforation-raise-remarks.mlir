// approx-perforation-raise leaves a kernel it cannot prove untouched, with a
// remark naming the cause; the pass still succeeds. Bad options fail it.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise))' | FileCheck %s
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,center1}))' 2>&1 | FileCheck %s --check-prefix=CENTER
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,rows:nn}))' 2>&1 | FileCheck %s --check-prefix=BADNAME
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{schemes=accurate,accurate}))' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{block-shapes=32x8,0x4}))' 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{knob=1x}))' 2>&1 | FileCheck %s --check-prefix=KNOB
// KNOB: error: knob name '1x' is not an identifier: it starts with a digit
// CENTER: error: scheme 'center1' is output perforation; a tile load takes accurate, rows, cols or stencil
// BADNAME: error: scheme 'rows:nn' is spelled 'rows1:nn'
// TWICE: error: scheme 'accurate' is listed twice
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{block-shapes=32x8r0}))' 2>&1 | FileCheck %s --check-prefix=SHAPE0
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-raise{block-shapes=32x8r}))' 2>&1 | FileCheck %s --check-prefix=SHAPER
// SHAPE: error: block shape '0x4' is not XxY or XxYrK (X*Y threads, 1 <= X*Y <= 1024, K rows per thread, 1 <= K <= 64)
// SHAPE0: error: block shape '32x8r0' is not XxY or XxYrK
// SHAPER: error: block shape '32x8r' is not XxY or XxYrK

// Refused kernels are untouched, and no knob is declared for them.
// CHECK-NOT: approx.knob
// CHECK-NOT: knob(@perforation)

// A data-dependent offset.
gpu.module @dynamic {
  gpu.func @dynamic(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %k: index) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %yk = arith.addi %y, %k : index
    // expected-remark @+1 {{the row offset of %0 is not a constant (data-dependent)}}
    %v = memref.load %in[%yk, %x] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// No known_block_size.
gpu.module @unknown {
  // expected-remark @+1 {{kernel @unknown has no known_block_size; the tile is the block, so the pass needs it}}
  gpu.func @unknown(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// Too large for static shared memory: 32+2 rows of 36 f64 (1 + 32+2 + 1:
// rows padded so the interior starts 16-byte aligned) = 9792 bytes per
// array, six arrays.
gpu.module @big {
  // expected-remark @+1 {{tile buffers of @big (block 32x32) need 58752 bytes of shared memory; a block's static shared memory is at most 49152 bytes}}
  gpu.func @big(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>,
                %d: memref<?x?xf64>, %e: memref<?x?xf64>, %f: memref<?x?xf64>,
                %out: memref<?x?xf64>) kernel
      attributes {known_block_size = array<i32: 32, 32, 1>} {
    %c1 = arith.constant 1 : index
    %y = gpu.global_id y
    %x = gpu.global_id x
    %yp = arith.addi %y, %c1 : index
    %xp = arith.addi %x, %c1 : index
    %va = memref.load %a[%yp, %xp] : memref<?x?xf64>
    %vb = memref.load %b[%yp, %xp] : memref<?x?xf64>
    %vc = memref.load %c[%yp, %xp] : memref<?x?xf64>
    %vd = memref.load %d[%yp, %xp] : memref<?x?xf64>
    %ve = memref.load %e[%yp, %xp] : memref<?x?xf64>
    %vf = memref.load %f[%yp, %xp] : memref<?x?xf64>
    %s0 = arith.addf %va, %vb : f64
    %s1 = arith.addf %vc, %vd : f64
    %s2 = arith.addf %ve, %vf : f64
    %s3 = arith.addf %s0, %s1 : f64
    %s4 = arith.addf %s3, %s2 : f64
    memref.store %s4, %out[%y, %x] : memref<?x?xf64>
    gpu.return
  }
}

// -----

// A halo larger than the tile: 3 rows of halo around a 2-row block.
gpu.module @wide {
  // expected-remark @+1 {{halo (3, 0) of %arg0 is larger than the 2 x 64 tile of block 64x2}}
  gpu.func @wide(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 2, 1>} {
    %c3 = arith.constant 3 : index
    %y = gpu.global_id y
    %x = gpu.global_id x
    %yp = arith.addi %y, %c3 : index
    %v = memref.load %in[%yp, %x] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// A CUDA front-door kernel that reads no pointer as a 2-D array
// (perforation-raise-pointers-remarks.mlir has the rest).
gpu.module @ptr {
  // expected-remark @+1 {{kernel @ptr loads no 2-D float array argument: nothing to perforate}}
  gpu.func @ptr(%in: !llvm.ptr, %out: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    gpu.return
  }
}

// -----

// A load outside the window pattern: a fixed element.
gpu.module @fixed {
  gpu.func @fixed(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    // expected-remark @+1 {{load of %arg0 is not a window load: its row index %c0 is not the thread's global y (block_id * block_dim + thread_id) plus a constant}}
    %w = memref.load %in[%c0, %c0] : memref<?x?xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// The thread's local id is not its global coordinate.
gpu.module @local {
  gpu.func @local(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %ty = gpu.thread_id y
    %tx = gpu.thread_id x
    // expected-remark @+1 {{load of %arg0 is not a window load: its row index %thread_id_y is not the thread's global y (block_id * block_dim + thread_id) plus a constant}}
    %v = memref.load %in[%ty, %tx] : memref<?x?xf32>
    memref.store %v, %out[%ty, %tx] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// Transposed: the row index follows x.
gpu.module @transposed {
  gpu.func @transposed(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %y = gpu.global_id y
    %x = gpu.global_id x
    // expected-remark @+1 {{load of %arg0 is not a window load: its row index %global_id_x follows the thread's x}}
    %v = memref.load %in[%x, %y] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// An input that is also written.
gpu.module @inplace {
  gpu.func @inplace(%io: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %io[%y, %x] : memref<?x?xf32>
    // expected-remark @+1 {{array %arg0 is loaded and also used by 'memref.store'; a tile loaded at the kernel's start is only exact for a read-only input}}
    memref.store %v, %io[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// Mixed border forms for one array.
gpu.module @mixed {
  gpu.func @mixed(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %w = memref.dim %in, %c1 : memref<?x?xf32>
    %wm1 = arith.subi %w, %c1 : index
    %y = gpu.global_id y
    %x = gpu.global_id x
    %xm = arith.subi %x, %c1 : index
    %xp = arith.addi %x, %c1 : index
    %xp0 = arith.maxsi %xp, %c0 : index
    %xpc = arith.minsi %xp0, %wm1 : index
    %ok = arith.cmpi sge, %xm, %c0 : index
    %a = scf.if %ok -> (f32) {
      %l = memref.load %in[%y, %xm] : memref<?x?xf32>
      scf.yield %l : f32
    } else {
      scf.yield %zero : f32
    }
    // expected-remark @+1 {{array %arg0 mixes border forms: some loads clamp, some are zero outside the image}}
    %b = memref.load %in[%y, %xpc] : memref<?x?xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// The kernel already holds a tile load.
gpu.module @done {
  gpu.func @done(%in: memref<?x?xf32>)
      workgroup(%t: memref<8x32xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{kernel @done already has a tile_load}}
    approx.perforation.tile_load %in[%c0, %c0] into %t halo(0, 0) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<8x32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A row scheme whose span the buffer cannot hold: one row of 32 threads, no
// halo, and rows1 needs two buffer rows.
gpu.module @onerow {
  // expected-remark @+1 {{scheme rows1:nn needs 2 buffer rows; the 1 x 32 buffer of %arg0 (block 32x1) has fewer}}
  gpu.func @onerow(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}
