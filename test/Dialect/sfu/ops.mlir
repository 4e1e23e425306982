// Round-trip of every SFU function op on every element type (f16, bf16, f32,
// f64 and vectors), with every option where the function table allows it.
// RUN: approx-opt %s -split-input-file | approx-opt -split-input-file | FileCheck %s
// RUN: approx-opt %s -split-input-file --mlir-print-op-generic | approx-opt -split-input-file | FileCheck %s
// RUN: approx-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: gpu.func @unary_f32
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: approx.sin %[[X]] knob(@k) : f32
// CHECK: approx.cos %[[X]] knob(@k) : f32
// CHECK: approx.tan %[[X]] knob(@k) : f32
// CHECK: approx.exp %[[X]] knob(@k) : f32
// CHECK: approx.exp2 %[[X]] knob(@k) : f32
// CHECK: approx.log %[[X]] knob(@k) : f32
// CHECK: approx.log2 %[[X]] knob(@k) : f32
// CHECK: approx.log10 %[[X]] knob(@k) : f32
// CHECK: approx.rcp %[[X]] knob(@k) : f32
// CHECK: approx.sqrt %[[X]] knob(@k) : f32
// CHECK: approx.rsqrt %[[X]] knob(@k) : f32
// CHECK: approx.tanh %[[X]] knob(@k) : f32
// GENERIC-LABEL: "gpu.func"
// GENERIC: "approx.sin"(%{{.*}}) <{knob = @k}> : (f32) -> f32
gpu.module @unary_f32 {
  approx.knob @k range(0, 64) default(0)
  gpu.func @unary_f32(%x: f32) {
    %0 = approx.sin %x knob(@k) : f32
    %1 = approx.cos %x knob(@k) : f32
    %2 = approx.tan %x knob(@k) : f32
    %3 = approx.exp %x knob(@k) : f32
    %4 = approx.exp2 %x knob(@k) : f32
    %5 = approx.log %x knob(@k) : f32
    %6 = approx.log2 %x knob(@k) : f32
    %7 = approx.log10 %x knob(@k) : f32
    %8 = approx.rcp %x knob(@k) : f32
    %9 = approx.sqrt %x knob(@k) : f32
    %10 = approx.rsqrt %x knob(@k) : f32
    %11 = approx.tanh %x knob(@k) : f32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @binary
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[A:.*]]: f64, %[[B:.*]]: f64)
// CHECK: approx.pow %[[X]], %[[Y]] knob(@k) : f32
// CHECK: approx.div %[[X]], %[[Y]] knob(@k) : f32
// CHECK: approx.pow %[[Y]], %[[X]] knob(@k) form(sfu) : f32
// CHECK: approx.div %[[Y]], %[[X]] knob(@k) form(precise) : f32
// CHECK: approx.div %[[A]], %[[B]] knob(@k) {newton_steps = 3 : i32} : f64
// CHECK: approx.pow %[[A]], %[[B]] knob(@k) {demote} : f64
// CHECK: approx.exp %[[X]] knob(@k) form(correct) : f32
// GENERIC: "approx.pow"(%{{.*}}, %{{.*}}) <{form = 1 : i32, knob = @k}> : (f32, f32) -> f32
// GENERIC: "approx.div"(%{{.*}}, %{{.*}}) <{form = 0 : i32, knob = @k}> : (f32, f32) -> f32
// GENERIC: "approx.exp"(%{{.*}}) <{form = 2 : i32, knob = @k}> : (f32) -> f32
gpu.module @binary {
  approx.knob @k range(0, 64) default(0)
  gpu.func @binary(%x: f32, %y: f32, %a: f64, %b: f64) {
    %0 = approx.pow %x, %y knob(@k) : f32
    %1 = approx.div %x, %y knob(@k) : f32
    %2 = approx.pow %y, %x knob(@k) form(sfu) : f32
    %3 = approx.div %y, %x knob(@k) form(precise) : f32
    %4 = approx.div %a, %b knob(@k) {newton_steps = 3 : i32} : f64
    %5 = approx.pow %a, %b knob(@k) {demote} : f64
    %6 = approx.exp %x knob(@k) form(correct) : f32
    gpu.return
  }
}

// -----

// f64: native (div rcp sqrt rsqrt, with Newton steps) or demoted.
// CHECK-LABEL: gpu.func @f64
// CHECK: approx.rcp %{{.*}} knob(@k) form(sfu) {newton_steps = 1 : i32} : f64
// CHECK: approx.sqrt %{{.*}} knob(@k) {newton_steps = 0 : i32} : f64
// CHECK: approx.rsqrt %{{.*}} knob(@k) : f64
// CHECK: approx.sin %{{.*}} knob(@k) form(sfu) {demote, range_reduction} : f64
// CHECK: approx.tanh %{{.*}} knob(@k) {demote} : f64
// CHECK: approx.log %{{.*}} knob(@k) : f64
gpu.module @f64 {
  approx.knob @k range(0, 64) default(0)
  gpu.func @f64(%x: f64) {
    %0 = approx.rcp %x knob(@k) form(sfu) {newton_steps = 1 : i32} : f64
    %1 = approx.sqrt %x knob(@k) {newton_steps = 0 : i32} : f64
    %2 = approx.rsqrt %x knob(@k) : f64
    %3 = approx.sin %x knob(@k) form(sfu) {demote, range_reduction} : f64
    %4 = approx.tanh %x knob(@k) {demote} : f64
    %5 = approx.log %x knob(@k) : f64
    gpu.return
  }
}

// -----

// Half types: native exp2/tanh, everything else through f32; range
// reduction applies to sin/cos/tan of any type.
// CHECK-LABEL: gpu.func @half
// CHECK: approx.exp2 %{{.*}} knob(@k) form(sfu) : f16
// CHECK: approx.tanh %{{.*}} knob(@k) : bf16
// CHECK: approx.sin %{{.*}} knob(@k) {range_reduction} : f16
// CHECK: approx.div %{{.*}}, %{{.*}} knob(@k) form(sfu) : bf16
gpu.module @half {
  approx.knob @k range(0, 64) default(0)
  gpu.func @half(%h: f16, %b: bf16) {
    %0 = approx.exp2 %h knob(@k) form(sfu) : f16
    %1 = approx.tanh %b knob(@k) : bf16
    %2 = approx.sin %h knob(@k) {range_reduction} : f16
    %3 = approx.div %b, %b knob(@k) form(sfu) : bf16
    gpu.return
  }
}

// -----

// Vectors, computed elementwise.
// CHECK-LABEL: gpu.func @vectors
// CHECK: approx.exp %{{.*}} knob(@k) : vector<4xf32>
// CHECK: approx.exp2 %{{.*}} knob(@k) form(sfu) : vector<2xf16>
// CHECK: approx.pow %{{.*}}, %{{.*}} knob(@k) : vector<2x2xbf16>
// CHECK: approx.rsqrt %{{.*}} knob(@k) {newton_steps = 2 : i32} : vector<3xf64>
gpu.module @vectors {
  approx.knob @k range(0, 64) default(0)
  gpu.func @vectors(%v: vector<4xf32>, %h: vector<2xf16>, %b: vector<2x2xbf16>, %d: vector<3xf64>) {
    %0 = approx.exp %v knob(@k) : vector<4xf32>
    %1 = approx.exp2 %h knob(@k) form(sfu) : vector<2xf16>
    %2 = approx.pow %b, %b knob(@k) : vector<2x2xbf16>
    %3 = approx.rsqrt %d knob(@k) {newton_steps = 2 : i32} : vector<3xf64>
    gpu.return
  }
}

// -----

// Function ops name a knob of the enclosing gpu.module from any function in
// it; discardable attributes survive.
// CHECK-LABEL: func.func @helper
// CHECK: approx.log %{{.*}} knob(@k) {note = 1 : i32} : f32
gpu.module @helper {
  approx.knob @k range(0, 64) default(0)
  func.func @helper(%x: f32) -> f32 {
    %0 = approx.log %x knob(@k) {note = 1 : i32} : f32
    return %0 : f32
  }
}
