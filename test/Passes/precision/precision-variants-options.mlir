// approx-precision-variants with knob= and kernels=: integer memrefs keep
// their type (named as keep or as themselves), only the named kernels are
// cloned, other kernels (whatever their arity) are left alone.
// RUN: approx-opt %s --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=keep:f32:keep,i32:f16:f32 knob=storage kernels=gather}))' | FileCheck %s

// CHECK-LABEL: gpu.module @m
// CHECK: approx.variant_knob @storage default(0) dispatch {gather = [@gather__p0, @gather__p1]}
// CHECK-LABEL: gpu.func @gather__p0
// CHECK-SAME: (%[[I0:.*]]: memref<?xi32>, %[[V0:.*]]: memref<?xf32>, %[[O0:.*]]: memref<?xf64>)
// CHECK: memref.load %[[I0]][%{{.*}}] : memref<?xi32>
// CHECK: %[[L0:.*]] = memref.load %[[V0]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT: %[[E0:.*]] = arith.extf %[[L0]] : f32 to f64
// CHECK-NEXT: memref.store %[[E0]], %[[O0]][%{{.*}}] : memref<?xf64>
// CHECK-LABEL: gpu.func @gather__p1
// CHECK-SAME: (%{{.*}}: memref<?xi32>, %[[V1:.*]]: memref<?xf16>, %[[O1:.*]]: memref<?xf32>)
// CHECK: %[[L1:.*]] = memref.load %[[V1]][%{{.*}}] : memref<?xf16>
// CHECK-NEXT: %[[E1:.*]] = arith.extf %[[L1]] : f16 to f64
// CHECK-NEXT: %[[T1:.*]] = arith.truncf %[[E1]] : f64 to f32
// CHECK-NEXT: memref.store %[[T1]], %[[O1]][%{{.*}}] : memref<?xf32>
// CHECK-LABEL: gpu.func @copy(
// CHECK-SAME: memref<?xf64>
gpu.module @m {
  gpu.func @gather(%idx: memref<?xi32>, %v: memref<?xf64>, %out: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %k = memref.load %idx[%i] : memref<?xi32>
    %j = arith.index_cast %k : i32 to index
    %x = memref.load %v[%j] : memref<?xf64>
    memref.store %x, %out[%i] : memref<?xf64>
    gpu.return
  }
  gpu.func @copy(%v: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %x = memref.load %v[%i] : memref<?xf64>
    memref.store %x, %v[%i] : memref<?xf64>
    gpu.return
  }
}
