// approx-precision-variants: one clone per configuration, scaled arguments
// stored in the configuration's type, loads converted back to the kernel's
// element type, stores converted to the storage type, the clones behind a
// variant knob in configuration order.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f32:f32:f32,f16:f16:f16,bf16:bf16:keep}))' | FileCheck %s
// Round trip of the result.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f32:f32:f32,f16:f16:f16,bf16:bf16:keep}))' | approx-opt -split-input-file | FileCheck %s

// Two inputs, one output, computed in f32: config 0 is the kernel's own
// types, so its variant is the original, kept under its name (no clone);
// 1 stores everything as f16, 2 the inputs as bf16.
// CHECK-LABEL: gpu.module @saxpy_module
// CHECK: approx.variant_knob @precision default(0) dispatch {saxpy = [@saxpy, @saxpy__p1, @saxpy__p2]}
// CHECK-LABEL: gpu.func @saxpy(
// CHECK-SAME: %{{.*}}: f32, %[[X0:.*]]: memref<?xf32>, %[[Y0:.*]]: memref<?xf32>, %[[O0:.*]]: memref<?xf32>) kernel
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: gpu.return
// CHECK-NOT: gpu.func @saxpy__p0
// CHECK-LABEL: gpu.func @saxpy__p1
// CHECK-SAME: (%[[A1:.*]]: f32, %[[X1:.*]]: memref<?xf16>, %[[Y1:.*]]: memref<?xf16>, %[[O1:.*]]: memref<?xf16>) kernel
// CHECK: memref.dim %[[X1]], %{{.*}} : memref<?xf16>
// CHECK: %[[XS:.*]] = memref.load %[[X1]][%{{.*}}] : memref<?xf16>
// CHECK-NEXT: %[[XV:.*]] = arith.extf %[[XS]] : f16 to f32
// CHECK-NEXT: %[[YS:.*]] = memref.load %[[Y1]][%{{.*}}] : memref<?xf16>
// CHECK-NEXT: %[[YV:.*]] = arith.extf %[[YS]] : f16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A1]], %[[XV]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[YV]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT: memref.store %[[T]], %[[O1]][%{{.*}}] : memref<?xf16>
// CHECK-LABEL: gpu.func @saxpy__p2
// CHECK-SAME: (%{{.*}}: f32, %{{.*}}: memref<?xbf16>, %{{.*}}: memref<?xbf16>, %[[O2:.*]]: memref<?xf32>) kernel
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT: arith.truncf
// CHECK: memref.store %{{.*}}, %[[O2]][%{{.*}}] : memref<?xf32>
gpu.module @saxpy_module {
  gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>) kernel {
    %i = gpu.global_id x
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// An f16 kernel: f32 storage is wider (truncf after the load, extf before
// the store), bf16 goes through f32 both ways (exact, then one rounding).
// Layouts and memory spaces are kept; a memref read and written is
// converted both ways; a kernel with no float memref argument and a
// non-kernel function are left alone.
// Config 1 is the f16 kernel's own types: variant 1 is the original.
// CHECK-LABEL: gpu.module @half_module
// CHECK: approx.variant_knob @precision default(0) dispatch {half = [@half__p0, @half, @half__p2]}
// CHECK-LABEL: gpu.func @count(
// CHECK-SAME: memref<?xi32>
// CHECK-LABEL: gpu.func @helper(
// CHECK-SAME: memref<?xf16>
// CHECK-LABEL: gpu.func @half(
// CHECK-SAME: %{{.*}}: memref<?x?xf16, strided<[?, 1], offset: ?>>, %{{.*}}: memref<?xf16, 1>, %{{.*}}: memref<4x4xf16, 1>)
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @half__p0
// CHECK-SAME: (%[[IN:.*]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[ACC:.*]]: memref<?xf32, 1>, %[[OUT:.*]]: memref<4x4xf32, 1>)
// CHECK: %[[L:.*]] = memref.load %[[IN]]
// CHECK-NEXT: arith.truncf %[[L]] : f32 to f16
// CHECK: %[[A:.*]] = memref.load %[[ACC]]
// CHECK-NEXT: arith.truncf %[[A]] : f32 to f16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: memref.store %[[W]], %[[ACC]]
// CHECK: %[[W2:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: memref.store %[[W2]], %[[OUT]]
// CHECK-NOT: gpu.func @half__p1
// CHECK-LABEL: gpu.func @half__p2
// CHECK-SAME: (%[[IN2:.*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %[[ACC2:.*]]: memref<?xbf16, 1>, %{{.*}}: memref<4x4xf16, 1>)
// CHECK: %[[L2:.*]] = memref.load %[[IN2]]
// CHECK-NEXT: %[[E2:.*]] = arith.extf %[[L2]] : bf16 to f32
// CHECK-NEXT: arith.truncf %[[E2]] : f32 to f16
// CHECK: %[[W3:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[T3:.*]] = arith.truncf %[[W3]] : f32 to bf16
// CHECK-NEXT: memref.store %[[T3]], %[[ACC2]]
// CHECK-NOT: arith.extf
// CHECK: gpu.return
gpu.module @half_module {
  gpu.func @count(%n: memref<?xi32>) kernel {
    gpu.return
  }
  gpu.func @helper(%x: memref<?xf16>) {
    gpu.return
  }
  gpu.func @half(%in: memref<?x?xf16, strided<[?, 1], offset: ?>>, %acc: memref<?xf16, 1>, %out: memref<4x4xf16, 1>) kernel {
    %i = gpu.thread_id x
    %j = gpu.thread_id y
    %v = memref.load %in[%i, %j] : memref<?x?xf16, strided<[?, 1], offset: ?>>
    %a = memref.load %acc[%i] : memref<?xf16, 1>
    %s = arith.addf %v, %a : f16
    memref.store %s, %acc[%i] : memref<?xf16, 1>
    memref.store %s, %out[%i, %j] : memref<4x4xf16, 1>
    gpu.return
  }
}
