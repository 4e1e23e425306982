// approx-precision-variants next to host code: the original kernel is kept
// under its own name (the own-types variant, or outside the dispatch when no
// configuration has its types), so a gpu.launch_func of it still resolves
// and the module verifies; the host code is left as it is.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{types=f32,f16}))' | FileCheck %s --check-prefix=ALL
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f32:f32,f16:f16 kernels=scale}))' | FileCheck %s --check-prefix=NOOWN
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:f64,keep:keep kernels=scale}))' | FileCheck %s --check-prefix=OWN1
// Round trip.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{types=f32,f16}))' | approx-opt -split-input-file | FileCheck %s --check-prefix=ALL

// types=: variant 0 (the own types) is @scale itself; the launch is kept.
// ALL-LABEL: gpu.module @kernels
// ALL: approx.variant_knob @precision__scale default(0) dispatch {scale = [@scale, @scale__p1, @scale__p2, @scale__p3, @scale__p4, @scale__p5, @scale__p6, @scale__p7, @scale__p8]}
// ALL-LABEL: gpu.func @scale(
// ALL-SAME: %{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>, %{{.*}}: index) kernel
// ALL-NOT: arith.extf
// ALL-NOT: arith.truncf
// ALL: gpu.return
// ALL-NOT: gpu.func @scale__p0
// ALL-LABEL: gpu.func @scale__p1(
// ALL-SAME: memref<?xf64>, %{{.*}}: memref<?xf32>, %{{.*}}: index) kernel
// ALL-LABEL: gpu.func @scale__p8(
// ALL-SAME: memref<?xf16>, %{{.*}}: memref<?xf16>, %{{.*}}: index) kernel
// ALL-LABEL: func.func @main
// ALL: gpu.launch_func {{.*}}@kernels::@scale
// ALL-SAME: args(%{{.*}} : memref<?xf64>, %{{.*}} : memref<?xf64>, %{{.*}} : index)

// configs= without the own types: @scale stays, outside the dispatch.
// NOOWN-LABEL: gpu.module @kernels
// NOOWN: approx.variant_knob @precision default(0) dispatch {scale = [@scale__p0, @scale__p1]}
// NOOWN-LABEL: gpu.func @scale(
// NOOWN-SAME: %{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>, %{{.*}}: index) kernel
// NOOWN-LABEL: gpu.func @scale__p0(
// NOOWN-SAME: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: index) kernel
// NOOWN-LABEL: gpu.func @scale__p1(
// NOOWN-SAME: memref<?xf16>, %{{.*}}: memref<?xf16>, %{{.*}}: index) kernel
// NOOWN-LABEL: func.func @main
// NOOWN: gpu.launch_func {{.*}}@kernels::@scale

// configs= with the own types second (keep:keep): variant 1 is @scale.
// OWN1-LABEL: gpu.module @kernels
// OWN1: approx.variant_knob @precision default(0) dispatch {scale = [@scale__p0, @scale]}
// OWN1-LABEL: gpu.func @scale(
// OWN1-SAME: %{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>, %{{.*}}: index) kernel
// OWN1-LABEL: gpu.func @scale__p0(
// OWN1-SAME: memref<?xf16>, %{{.*}}: memref<?xf64>, %{{.*}}: index) kernel
// OWN1-NOT: gpu.func @scale__p1
// OWN1-LABEL: func.func @main
// OWN1: gpu.launch_func {{.*}}@kernels::@scale
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf64>, %y: memref<?xf64>, %n: index) kernel {
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %two = arith.constant 2.0 : f64
        %v = memref.load %x[%i] : memref<?xf64>
        %w = arith.mulf %v, %two : f64
        memref.store %w, %y[%i] : memref<?xf64>
      }
      gpu.return
    }
  }

  func.func @main(%hx: memref<?xf64>, %hy: memref<?xf64>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf64>
    %dy, %t2 = gpu.alloc async [%t1] (%n) : memref<?xf64>
    %t3 = gpu.memcpy async [%t2] %dx, %hx : memref<?xf64>, memref<?xf64>
    %t4 = gpu.launch_func async [%t3] @kernels::@scale
        blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%dx : memref<?xf64>, %dy : memref<?xf64>, %n : index)
    %t5 = gpu.memcpy async [%t4] %hy, %dy : memref<?xf64>, memref<?xf64>
    gpu.wait [%t5]
    return
  }
}

// -----

// Two kernels, one launched twice and one not scaled (an i32 memref only):
// every launch keeps its kernel.
// ALL-LABEL: gpu.module @two
// ALL: approx.variant_knob @precision__copy default(0) dispatch {copy = [@copy, @copy__p1]}
// ALL-LABEL: gpu.func @count(
// ALL-LABEL: gpu.func @copy(
// ALL-SAME: memref<?xf32>, %{{.*}}: memref<?xi32>) kernel
// ALL-LABEL: func.func @twice
// ALL: gpu.launch_func @two::@copy
// ALL: gpu.launch_func @two::@count
// ALL: gpu.launch_func @two::@copy
// NOOWN-LABEL: gpu.module @two
// NOOWN-NOT: approx.variant_knob
// NOOWN-LABEL: func.func @twice
// OWN1-LABEL: gpu.module @two
// OWN1-NOT: approx.variant_knob
// OWN1-LABEL: func.func @twice
module attributes {gpu.container_module} {
  gpu.module @two {
    gpu.func @count(%c: memref<?xi32>) kernel {
      gpu.return
    }
    gpu.func @copy(%x: memref<?xf32>, %c: memref<?xi32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func @twice(%x: memref<?xf32>, %c: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @two::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %c : memref<?xi32>)
    gpu.launch_func @two::@count blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%c : memref<?xi32>)
    gpu.launch_func @two::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %c : memref<?xi32>)
    return
  }
}
