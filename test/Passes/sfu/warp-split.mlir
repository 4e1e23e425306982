// approx-warp-split: the paper's Algorithm 1 on structured control flow.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=hw}))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=virtual}))' | FileCheck %s --check-prefix=VIRT
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=software}))' | FileCheck %s --check-prefix=SOFT
// The output is a fixed point: tunable ops are all pinned after one run.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split))' | approx-opt -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split))' | FileCheck %s --check-prefix=TWICE

// A loop is versioned, not branched per iteration: the flag is computed once
// at entry, the branch sits outside the loop, each branch has its own copy.
// CHECK-LABEL: gpu.module @loop attributes
// CHECK: approx.knob @lambda range(0, 64) default(0) warp_slot(hw)
// CHECK-LABEL: gpu.func @loop
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK-NEXT: %[[SLOT:.*]] = approx.warp_slot hw : i32
// CHECK-NEXT: %[[L:.*]] = approx.knob_value @lambda : i32
// CHECK-NEXT: %[[FLAG:.*]] = arith.cmpi ult, %[[SLOT]], %[[L]] : i32
// CHECK-NOT: approx.warp_slot
// CHECK-NOT: approx.knob_value
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.if %[[FLAG]] {
// CHECK-NEXT: scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: %[[X:.*]] = memref.load %[[A]][%[[I]]]
// CHECK-NEXT: %[[Y:.*]] = approx.sin %[[X]] knob(@lambda) form(sfu) : f32
// CHECK-NEXT: memref.store %[[Y]], %[[A]][%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.for %[[I2:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: %[[X2:.*]] = memref.load %[[A]][%[[I2]]]
// CHECK-NEXT: %[[Y2:.*]] = approx.sin %[[X2]] knob(@lambda) form(precise) : f32
// CHECK-NEXT: memref.store %[[Y2]], %[[A]][%[[I2]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
// VIRT-LABEL: gpu.module @loop attributes
// VIRT: approx.knob @lambda range(0, 64) default(0) warp_slot(virtual)
// VIRT-LABEL: gpu.func @loop
// VIRT-NEXT: %[[SLOT:.*]] = approx.warp_slot virtual : i32
// VIRT-NEXT: %[[L:.*]] = approx.knob_value @lambda : i32
// VIRT-NEXT: arith.cmpi ult, %[[SLOT]], %[[L]] : i32
// VIRT-NOT: approx.warp_slot
// VIRT: gpu.return
// SOFT-LABEL: gpu.module @loop attributes
// SOFT: approx.knob @lambda range(0, 64) default(0) warp_slot(software)
// SOFT-LABEL: gpu.func @loop
// SOFT-NEXT: %[[SLOT:.*]] = approx.warp_slot software : i32
// SOFT-NEXT: %[[L:.*]] = approx.knob_value @lambda : i32
// SOFT-NEXT: arith.cmpi ult, %[[SLOT]], %[[L]] : i32
// SOFT-NOT: approx.warp_slot
// SOFT: gpu.return
// TWICE-LABEL: gpu.func @loop
// TWICE-COUNT-1: approx.warp_slot
// TWICE-NOT: approx.warp_slot
// TWICE-COUNT-1: scf.if
// TWICE-NOT: scf.if
// TWICE: gpu.return
gpu.module @loop {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @loop(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %y = approx.sin %x knob(@lambda) : f32
      memref.store %y, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Loop-carried values: the loop's result, used after the loop, is yielded by
// the scf.if; the iter_args stay on each copy of the loop.
// CHECK-LABEL: gpu.func @iter_args
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[R:.*]] = scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: %[[S:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[E:.*]] = approx.exp %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[E]] : f32
// CHECK-NEXT: scf.yield %[[SUM]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[S2:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC2:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[E2:.*]] = approx.exp %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NEXT: %[[SUM2:.*]] = arith.addf %[[ACC2]], %[[E2]] : f32
// CHECK-NEXT: scf.yield %[[SUM2]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[S2]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[R]], %[[R]] : f32
// CHECK-NEXT: memref.store %[[D]], %[[A]]
gpu.module @iter_args {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @iter_args(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) : f32
      %s = arith.addf %acc, %e : f32
      scf.yield %s : f32
    }
    %d = arith.mulf %r, %r : f32
    memref.store %d, %a[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// Nested loops: only the outermost loop is versioned; the inner loop (and the
// ops in both loops) are copied with it, and no loop body holds a branch.
// CHECK-LABEL: gpu.func @nested_loops
// CHECK-COUNT-1: approx.warp_slot
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: scf.if %[[FLAG]] {
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: approx.rsqrt %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.if
// CHECK: approx.log %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK-NOT: scf.if
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: approx.rsqrt %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.if
// CHECK: approx.log %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NOT: scf.if
// CHECK: gpu.return
gpu.module @nested_loops {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @nested_loops(%a: memref<?x?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %r = memref.load %a[%i, %c0] : memref<?x?xf32>
      %q = approx.rsqrt %r knob(@lambda) : f32
      scf.for %j = %c0 to %n step %c1 {
        %x = memref.load %a[%i, %j] : memref<?x?xf32>
        %y = approx.log %x knob(@lambda) : f32
        %z = arith.mulf %y, %q : f32
        memref.store %z, %a[%i, %j] : memref<?x?xf32>
      }
    }
    gpu.return
  }
}

// -----

// Straight-line code: one branch per block, spanning the first to the last
// tunable op; values used after the span are yielded, others are not.
// CHECK-LABEL: gpu.func @straight_line
// CHECK-SAME: (%[[X:.*]]: f32, %[[C:.*]]: i1, %[[A:.*]]: memref<4xf32>)
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[R:.*]] = scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: %[[S:.*]] = approx.sin %[[X]] knob(@lambda) form(sfu) : f32
// CHECK-NEXT: memref.store %[[S]], %[[A]][%[[C0]]]
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[S]], %[[X]] : f32
// CHECK-NEXT: %[[D:.*]] = approx.cos %[[T]] knob(@lambda) form(sfu) : f32
// CHECK-NEXT: scf.yield %[[D]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[S2:.*]] = approx.sin %[[X]] knob(@lambda) form(precise) : f32
// CHECK-NEXT: memref.store %[[S2]], %[[A]][%[[C0]]]
// CHECK-NEXT: %[[T2:.*]] = arith.addf %[[S2]], %[[X]] : f32
// CHECK-NEXT: %[[D2:.*]] = approx.cos %[[T2]] knob(@lambda) form(precise) : f32
// CHECK-NEXT: scf.yield %[[D2]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[R]], %[[R]] : f32
// CHECK-NEXT: memref.store %[[U]], %[[A]][%[[C0]]]
// CHECK-NEXT: gpu.return
gpu.module @straight_line {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @straight_line(%x: f32, %c: i1, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = approx.sin %x knob(@lambda) : f32
    memref.store %s, %a[%c0] : memref<4xf32>
    %t = arith.addf %s, %x : f32
    %d = approx.cos %t knob(@lambda) : f32
    %u = arith.mulf %d, %d : f32
    memref.store %u, %a[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// Ops in an scf.if, not in a loop: each region's span is versioned where it
// is (one branch per block), under the same entry flag.
// CHECK-LABEL: gpu.func @in_if
// CHECK-SAME: (%[[X:.*]]: f32, %[[C:.*]]: i1)
// CHECK-COUNT-1: approx.warp_slot
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK-NOT: approx.warp_slot
// CHECK: %[[OUT:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT: %[[V:.*]] = scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: %[[E:.*]] = approx.exp %[[X]] knob(@lambda) form(sfu) : f32
// CHECK-NEXT: scf.yield %[[E]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[E2:.*]] = approx.exp %[[X]] knob(@lambda) form(precise) : f32
// CHECK-NEXT: scf.yield %[[E2]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[V]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[W:.*]] = scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: %[[G:.*]] = approx.log %[[X]] knob(@lambda) form(sfu) : f32
// CHECK-NEXT: scf.yield %[[G]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[G2:.*]] = approx.log %[[X]] knob(@lambda) form(precise) : f32
// CHECK-NEXT: scf.yield %[[G2]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[W]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
gpu.module @in_if {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @in_if(%x: f32, %c: i1) kernel {
    %r = scf.if %c -> (f32) {
      %e = approx.exp %x knob(@lambda) : f32
      scf.yield %e : f32
    } else {
      %g = approx.log %x knob(@lambda) : f32
      scf.yield %g : f32
    }
    gpu.return
  }
}

// -----

// A top-level span that covers an scf.if holding a tunable op takes the op
// with it: one branch, nothing versioned inside the inner scf.if.
// CHECK-LABEL: gpu.func @span_covers_if
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: approx.sqrt %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: approx.exp %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK: approx.rcp %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK: } else {
// CHECK-NEXT: approx.sqrt %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: approx.exp %{{.*}} knob(@lambda) form(precise) : f32
// CHECK: approx.rcp %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NOT: scf.if %[[FLAG]]
// CHECK: gpu.return
gpu.module @span_covers_if {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @span_covers_if(%x: f32, %c: i1, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = approx.sqrt %x knob(@lambda) : f32
    scf.if %c {
      %e = approx.exp %s knob(@lambda) : f32
      memref.store %e, %a[%c0] : memref<4xf32>
    }
    %r = approx.rcp %s knob(@lambda) : f32
    memref.store %r, %a[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// Two knobs: one flag per knob, both at entry from one slot read; the second
// knob's ops are versioned inside each branch of the first.
// CHECK-LABEL: gpu.func @two_knobs
// CHECK-NEXT: %[[SLOT:.*]] = approx.warp_slot hw : i32
// CHECK-NEXT: %[[L:.*]] = approx.knob_value @lambda : i32
// CHECK-NEXT: %[[F1:.*]] = arith.cmpi ult, %[[SLOT]], %[[L]] : i32
// CHECK-NEXT: %[[M:.*]] = approx.knob_value @mu : i32
// CHECK-NEXT: %[[F2:.*]] = arith.cmpi ult, %[[SLOT]], %[[M]] : i32
// CHECK-NOT: approx.warp_slot
// CHECK-NOT: approx.knob_value
// CHECK: scf.if %[[F1]] -> (f32) {
// CHECK-NEXT: scf.if %[[F2]] -> (f32) {
// CHECK-NEXT: scf.for
// CHECK: approx.sin %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK-NEXT: approx.exp %{{.*}} knob(@mu) form(sfu) : f32
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: approx.sin %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK-NEXT: approx.exp %{{.*}} knob(@mu) form(precise) : f32
// CHECK: approx.sqrt %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK: } else {
// CHECK-NEXT: scf.if %[[F2]] -> (f32) {
// CHECK-NEXT: scf.for
// CHECK: approx.sin %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NEXT: approx.exp %{{.*}} knob(@mu) form(sfu) : f32
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: approx.sin %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NEXT: approx.exp %{{.*}} knob(@mu) form(precise) : f32
// CHECK: approx.sqrt %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NOT: knob(@lambda) :
// CHECK-NOT: knob(@mu) :
// CHECK: gpu.return
gpu.module @two_knobs {
  approx.knob @lambda range(0, 64) default(0)
  approx.knob @mu range(0, 32) default(4)
  gpu.func @two_knobs(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %init = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
      %x = memref.load %a[%i] : memref<?xf32>
      %s = approx.sin %x knob(@lambda) : f32
      %t = approx.exp %s knob(@mu) : f32
      %y = arith.addf %acc, %t : f32
      scf.yield %y : f32
    }
    %z = approx.sqrt %r knob(@lambda) : f32
    memref.store %z, %a[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// Ops with no SFU form (f64 sin/exp without demote) are pinned precise with no
// branch and no flag; f64 sqrt and a demoted f64 sin are tunable.
// CHECK-LABEL: gpu.func @no_sfu_form
// CHECK-NOT: approx.warp_slot
// CHECK-NOT: scf.if
// CHECK: %[[S:.*]] = approx.sin %{{.*}} knob(@lambda) form(precise) : f64
// CHECK-NEXT: approx.exp %[[S]] knob(@lambda) form(precise) : f64
// CHECK-NEXT: gpu.return
// CHECK-LABEL: gpu.func @mixed_f64
// CHECK-COUNT-1: approx.warp_slot
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[P:.*]] = approx.exp %{{.*}} knob(@lambda) form(precise) : f64
// CHECK-NEXT: %[[R:.*]] = scf.if %[[FLAG]] -> (f64) {
// CHECK-NEXT: approx.sqrt %[[P]] knob(@lambda) form(sfu) {newton_steps = 1 : i32} : f64
// CHECK-NEXT: approx.sin %{{.*}} knob(@lambda) form(sfu) {demote} : f64
// CHECK: } else {
// CHECK-NEXT: approx.sqrt %[[P]] knob(@lambda) form(precise) {newton_steps = 1 : i32} : f64
// CHECK-NEXT: approx.sin %{{.*}} knob(@lambda) form(precise) {demote} : f64
gpu.module @no_sfu_form {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @no_sfu_form(%x: f64) kernel {
    %s = approx.sin %x knob(@lambda) : f64
    %e = approx.exp %s knob(@lambda) : f64
    gpu.return
  }
  gpu.func @mixed_f64(%x: f64, %a: memref<4xf64>) kernel {
    %c0 = arith.constant 0 : index
    %p = approx.exp %x knob(@lambda) : f64
    %q = approx.sqrt %p knob(@lambda) {newton_steps = 1 : i32} : f64
    %s = approx.sin %q knob(@lambda) {demote} : f64
    memref.store %s, %a[%c0] : memref<4xf64>
    gpu.return
  }
}

// -----

// Already pinned ops are left as they are: no flag, no branch.
// CHECK-LABEL: gpu.func @pinned
// CHECK-NOT: approx.warp_slot
// CHECK-NOT: scf.if
// CHECK: approx.sin %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK-NEXT: approx.cos %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-NEXT: gpu.return
gpu.module @pinned {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @pinned(%x: f32) kernel {
    %s = approx.sin %x knob(@lambda) form(sfu) : f32
    %c = approx.cos %s knob(@lambda) form(precise) : f32
    gpu.return
  }
}

// -----

// Each function holding tunable ops gets its own flag; a helper left
// uninlined is versioned on its own; a function without any gets none.
// CHECK-LABEL: func.func @helper
// CHECK-COUNT-1: approx.warp_slot hw
// CHECK: scf.if
// CHECK: approx.div %{{.*}}, %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK: approx.div %{{.*}}, %{{.*}} knob(@lambda) form(precise) : f32
// CHECK-LABEL: func.func @plain
// CHECK-NOT: approx.warp_slot
// CHECK: arith.mulf
// CHECK-LABEL: gpu.func @caller
// CHECK-COUNT-1: approx.warp_slot hw
// CHECK-NOT: approx.warp_slot
// CHECK: approx.pow %{{.*}}, %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK: approx.pow %{{.*}}, %{{.*}} knob(@lambda) form(precise) : f32
// CHECK: call @helper
// CHECK: call @plain
gpu.module @functions {
  approx.knob @lambda range(0, 64) default(0)
  func.func @helper(%x: f32, %y: f32) -> f32 {
    %d = approx.div %x, %y knob(@lambda) : f32
    return %d : f32
  }
  func.func @plain(%x: f32) -> f32 {
    %m = arith.mulf %x, %x : f32
    return %m : f32
  }
  gpu.func @caller(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %p = approx.pow %x, %x knob(@lambda) : f32
    %h = func.call @helper(%p, %x) : (f32, f32) -> f32
    %q = func.call @plain(%h) : (f32) -> f32
    memref.store %q, %a[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// scf.while is a loop too: versioned whole.
// CHECK-LABEL: gpu.func @while_loop
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: scf.while
// CHECK-NOT: scf.if
// CHECK: approx.rcp %{{.*}} knob(@lambda) form(sfu) : f32
// CHECK: } else {
// CHECK-NEXT: scf.while
// CHECK-NOT: scf.if
// CHECK: approx.rcp %{{.*}} knob(@lambda) form(precise) : f32
gpu.module @while_loop {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @while_loop(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %r = scf.while (%v = %x) : (f32) -> f32 {
      %c = arith.cmpf ogt, %v, %one : f32
      scf.condition(%c) %v : f32
    } do {
    ^bb0(%w: f32):
      %y = approx.rcp %w knob(@lambda) : f32
      scf.yield %y : f32
    }
    memref.store %r, %a[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// What was done is recorded on the gpu.module for the manifest: one site per
// original op (not per copy) with its function, form, options and location,
// the reason where it is not plainly tunable; pinned ops too.
// CHECK-LABEL: gpu.module @sites attributes
// CHECK-SAME: approx.sites = [
// CHECK-SAME: #approx.site<technique = "sfu", function = "sites", op = "cos", type = f64, form = precise, reason = "f64 cos has no SFU form; pass f64-demote for the f32-demoted form", loc = "{{.*}}warp-split.mlir:[[@LINE+22]]:12">
// CHECK-SAME: #approx.site<technique = "sfu", function = "sites", op = "sin", type = f32, form = sfu, reason = "pinned by the input IR", loc = "{{.*}}warp-split.mlir:[[@LINE+22]]:12">
// CHECK-SAME: #approx.site<technique = "sfu", function = "sites", op = "sin", type = f32, knob = @lambda, form = tunable, loc = "{{.*}}warp-split.mlir:[[@LINE+17]]:12", data = {demote_to_f32 = false, newton_steps = 0 : i64, range_reduction = true, sfu = "sin.approx.ftz.f32", versioning = "region"}>
// CHECK-SAME: #approx.site<technique = "sfu", function = "sites", op = "rsqrt", type = f64, knob = @lambda, form = tunable, loc = "{{.*}}warp-split.mlir:[[@LINE+17]]:12", data = {demote_to_f32 = false, newton_steps = 2 : i64, range_reduction = false, sfu = "rsqrt.approx.ftz.f64 + 2 Newton step(s)", versioning = "region"}>
// CHECK-SAME: #approx.site<technique = "sfu", function = "sites", op = "log", type = f64, knob = @lambda, form = tunable, reason = "f64 log demoted: computed in f32", loc = "{{.*}}warp-split.mlir:[[@LINE+17]]:12", data = {compute_type = "f32", demote_to_f32 = true, newton_steps = 0 : i64, range_reduction = false, sfu = "lg2.approx.ftz.f32, mul.f32 by ln(2) (in f32)", versioning = "region"}>
// CHECK-SAME: #approx.site<technique = "sfu", function = "sites", op = "exp2", type = vector<2xf16>, knob = @lambda, form = tunable, loc = "{{.*}}warp-split.mlir:[[@LINE+19]]:12", data = {demote_to_f32 = false, newton_steps = 0 : i64, range_reduction = false, sfu = "ex2.approx.f16", versioning = "region"}>
// CHECK-SAME: #approx.site<technique = "sfu", function = "sites", op = "exp", type = bf16, knob = @lambda, form = tunable, reason = "no bf16 SFU form: computed in f32", loc = "{{.*}}warp-split.mlir:[[@LINE+19]]:12", data = {compute_type = "f32", demote_to_f32 = false, newton_steps = 0 : i64, range_reduction = false, sfu = "mul.f32 by log2(e), ex2.approx.ftz.f32 (in f32)", versioning = "region"}>]
// CHECK-NOT: form(sfu) : f64
// CHECK: approx.knob @lambda range(0, 64) default(0) warp_slot(hw)
// VIRT-LABEL: gpu.module @sites attributes
// VIRT: approx.knob @lambda range(0, 64) default(0) warp_slot(virtual)
// SOFT-LABEL: gpu.module @sites attributes
// SOFT: approx.knob @lambda range(0, 64) default(0) warp_slot(software)
gpu.module @sites {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @sites(%x: f32, %d: f64, %n: index, %hv: vector<2xf16>, %bf: bf16) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %s = approx.sin %x knob(@lambda) {range_reduction} : f32
      %r = approx.rsqrt %d knob(@lambda) {newton_steps = 2 : i32} : f64
      %l = approx.log %d knob(@lambda) {demote} : f64
      %c = approx.cos %d knob(@lambda) : f64
      %p = approx.sin %x knob(@lambda) form(sfu) : f32
      %h = approx.exp2 %hv knob(@lambda) : vector<2xf16>
      %b = approx.exp %bf knob(@lambda) : bf16
    }
    gpu.return
  }
}

// -----

// No tunable op: nothing changes, nothing is recorded.
// CHECK-LABEL: gpu.module @nothing {
// CHECK-LABEL: gpu.func @nothing
// CHECK-NOT: approx.warp_slot
// CHECK-NOT: scf.if
// CHECK: math.sin
gpu.module @nothing {
  gpu.func @nothing(%x: f32) kernel {
    %s = math.sin %x : f32
    gpu.return
  }
}
