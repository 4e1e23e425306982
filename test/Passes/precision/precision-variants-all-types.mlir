// approx-precision-variants types=: every combination, over each kernel's
// float memref arguments, of the own type and each narrower listed type
// (first argument slowest, own type first: variant 0 is the kernel as
// written, the original itself under its own name), one variant knob per
// kernel; integer memrefs keep their type.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{types=f32,f16}))' | FileCheck %s

// @axpy: x f64 (f64, f32, f16) x y f32 (f32, f16): 6 variants. @gather: i32
// index (kept) x v f64 (3): 3 variants, on its own knob.
// CHECK-LABEL: gpu.module @m
// CHECK-DAG: approx.variant_knob @precision__axpy default(0) dispatch {axpy = [@axpy, @axpy__p1, @axpy__p2, @axpy__p3, @axpy__p4, @axpy__p5]}
// CHECK-DAG: approx.variant_knob @precision__gather default(0) dispatch {gather = [@gather, @gather__p1, @gather__p2]}
// CHECK-LABEL: gpu.func @axpy(%{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf32>, %{{.*}}: f64)
// CHECK-NOT: arith.extf
// CHECK-NOT: gpu.func @axpy__p0
// CHECK-LABEL: gpu.func @axpy__p1(%{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf16>, %{{.*}}: f64)
// CHECK-LABEL: gpu.func @axpy__p2(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: f64)
// CHECK-LABEL: gpu.func @axpy__p3(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf16>, %{{.*}}: f64)
// CHECK-LABEL: gpu.func @axpy__p4(%{{.*}}: memref<?xf16>, %{{.*}}: memref<?xf32>, %{{.*}}: f64)
// CHECK-LABEL: gpu.func @axpy__p5
// CHECK-SAME: (%[[X:.*]]: memref<?xf16>, %[[Y:.*]]: memref<?xf16>, %{{.*}}: f64)
// CHECK: %[[LX:.*]] = memref.load %[[X]][%{{.*}}] : memref<?xf16>
// CHECK-NEXT: arith.extf %[[LX]] : f16 to f64
// CHECK: %[[LY:.*]] = memref.load %[[Y]][%{{.*}}] : memref<?xf16>
// CHECK-NEXT: arith.extf %[[LY]] : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-LABEL: gpu.func @gather(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xf64>)
// CHECK-NOT: gpu.func @gather__p0
// CHECK-LABEL: gpu.func @gather__p2(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xf16>)
gpu.module @m {
  gpu.func @axpy(%x: memref<?xf64>, %y: memref<?xf32>, %a: f64) kernel {
    %i = gpu.global_id x
    %v = memref.load %x[%i] : memref<?xf64>
    %w = memref.load %y[%i] : memref<?xf32>
    %p = arith.mulf %v, %a : f64
    %q = arith.truncf %p : f64 to f32
    %r = arith.addf %q, %w : f32
    memref.store %r, %y[%i] : memref<?xf32>
    gpu.return
  }
  gpu.func @gather(%idx: memref<?xi32>, %v: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %k = memref.load %idx[%i] : memref<?xi32>
    %j = arith.index_cast %k : i32 to index
    %x = memref.load %v[%j] : memref<?xf64>
    memref.store %x, %v[%i] : memref<?xf64>
    gpu.return
  }
}

// -----

// A kernel whose only float argument no listed type narrows is left alone.
// CHECK-LABEL: gpu.module @narrowest
// CHECK-NOT: approx.variant_knob
// CHECK: gpu.func @half(
gpu.module @narrowest {
  gpu.func @half(%x: memref<?xf16>) kernel {
    %i = gpu.global_id x
    %v = memref.load %x[%i] : memref<?xf16>
    memref.store %v, %x[%i] : memref<?xf16>
    gpu.return
  }
}
