// approx-warp-split with several knobs in one span: each knob doubles the
// copies of the span, so it versions on each knob in turn only while 2^k stays
// within max-versions (default 8), and gives each op its own branch beyond.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split{max-versions=16}))' | FileCheck %s --check-prefix=WIDE
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split))' | FileCheck %s --check-prefix=PIN

// Three knobs: 8 copies of the loop, each op pinned in every one.
// CHECK-LABEL: gpu.func @three
// CHECK-COUNT-8: scf.for
// CHECK-NOT: scf.for
// CHECK: gpu.return
// PIN-LABEL: gpu.func @three
// PIN-COUNT-4: approx.exp %{{.*}} knob(@k0) form(sfu)
// PIN-NOT: knob(@k0) :
// PIN: gpu.return
// WIDE-LABEL: gpu.func @three
// WIDE-COUNT-8: scf.for
// WIDE-NOT: scf.for
// WIDE: gpu.return
gpu.module @three {
  approx.knob @k0 range(0, 64) default(0)
  approx.knob @k1 range(0, 64) default(0)
  approx.knob @k2 range(0, 64) default(0)
  gpu.func @three(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %v0 = memref.load %a[%i] : memref<?xf32>
      %v1 = approx.exp %v0 knob(@k0) : f32
      %v2 = approx.exp %v1 knob(@k1) : f32
      %v3 = approx.exp %v2 knob(@k2) : f32
      memref.store %v3, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Four knobs: 16 copies exceed max-versions=8: one branch per op inside the
// single loop (sites say versioning = "per-op"); with max-versions=16 the
// loop is copied 16 times.
// CHECK-LABEL: gpu.module @four
// CHECK-SAME: versioning = "per-op"
// CHECK-LABEL: gpu.func @four
// CHECK-COUNT-1: scf.for
// CHECK-NOT: scf.for
// CHECK-COUNT-4: scf.if
// CHECK-NOT: scf.if
// CHECK: gpu.return
// WIDE-LABEL: gpu.module @four
// WIDE-SAME: versioning = "region"
// WIDE-LABEL: gpu.func @four
// WIDE-COUNT-16: scf.for
// WIDE-NOT: scf.for
gpu.module @four {
  approx.knob @k0 range(0, 64) default(0)
  approx.knob @k1 range(0, 64) default(0)
  approx.knob @k2 range(0, 64) default(0)
  approx.knob @k3 range(0, 64) default(0)
  gpu.func @four(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %v0 = memref.load %a[%i] : memref<?xf32>
      %v1 = approx.exp %v0 knob(@k0) : f32
      %v2 = approx.exp %v1 knob(@k1) : f32
      %v3 = approx.exp %v2 knob(@k2) : f32
      %v4 = approx.exp %v3 knob(@k3) : f32
      memref.store %v4, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Twelve knobs (2^12 = 4096 copies before): twelve branches, linear size.
// WIDE-LABEL: gpu.func @twelve
// CHECK-LABEL: gpu.func @twelve
// CHECK-COUNT-1: scf.for
// CHECK-COUNT-12: scf.if
// CHECK-NOT: scf.if
// CHECK-NOT: scf.for
// CHECK: gpu.return
gpu.module @twelve {
  approx.knob @k0 range(0, 64) default(0)
  approx.knob @k1 range(0, 64) default(0)
  approx.knob @k2 range(0, 64) default(0)
  approx.knob @k3 range(0, 64) default(0)
  approx.knob @k4 range(0, 64) default(0)
  approx.knob @k5 range(0, 64) default(0)
  approx.knob @k6 range(0, 64) default(0)
  approx.knob @k7 range(0, 64) default(0)
  approx.knob @k8 range(0, 64) default(0)
  approx.knob @k9 range(0, 64) default(0)
  approx.knob @k10 range(0, 64) default(0)
  approx.knob @k11 range(0, 64) default(0)
  gpu.func @twelve(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %v0 = memref.load %a[%i] : memref<?xf32>
      %v1 = approx.exp %v0 knob(@k0) : f32
      %v2 = approx.exp %v1 knob(@k1) : f32
      %v3 = approx.exp %v2 knob(@k2) : f32
      %v4 = approx.exp %v3 knob(@k3) : f32
      %v5 = approx.exp %v4 knob(@k4) : f32
      %v6 = approx.exp %v5 knob(@k5) : f32
      %v7 = approx.exp %v6 knob(@k6) : f32
      %v8 = approx.exp %v7 knob(@k7) : f32
      %v9 = approx.exp %v8 knob(@k8) : f32
      %v10 = approx.exp %v9 knob(@k9) : f32
      %v11 = approx.exp %v10 knob(@k10) : f32
      %v12 = approx.exp %v11 knob(@k11) : f32
      memref.store %v12, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}
