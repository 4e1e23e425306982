// Round-trip of every approx op and attribute, f32 and f64, every option.
// RUN: approx-opt %s -split-input-file | approx-opt -split-input-file | FileCheck %s
// RUN: approx-opt %s -split-input-file --mlir-print-op-generic | approx-opt -split-input-file | FileCheck %s
// RUN: approx-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: gpu.module @knobs
// CHECK: approx.knob @lambda range(0, 64) default(0)
// CHECK: approx.knob @wide range(0, 2147483647) default(2147483647)
// CHECK: approx.knob @mid range(3, 9) default(5) {note = "kept"}
// GENERIC-LABEL: "gpu.module"() <{sym_name = "knobs"}>
// GENERIC: "approx.knob"() <{default_value = 0 : i64, max = 64 : i64, min = 0 : i64, sym_name = "lambda"}> : () -> ()
gpu.module @knobs {
  approx.knob @lambda range(0, 64) default(0)
  approx.knob @wide range(0, 2147483647) default(2147483647)
  approx.knob @mid range(3, 9) default(5) {note = "kept"}
}

// -----

// CHECK-LABEL: gpu.module @unary_f32
// CHECK-LABEL: gpu.func @unary_f32
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %{{.*}} = approx.sin %[[X]] knob(@k) : f32
// CHECK: %{{.*}} = approx.cos %[[X]] knob(@k) : f32
// CHECK: %{{.*}} = approx.exp %[[X]] knob(@k) : f32
// CHECK: %{{.*}} = approx.log %[[X]] knob(@k) : f32
// CHECK: %{{.*}} = approx.rcp %[[X]] knob(@k) : f32
// CHECK: %{{.*}} = approx.sqrt %[[X]] knob(@k) : f32
// CHECK: %{{.*}} = approx.rsqrt %[[X]] knob(@k) : f32
// GENERIC-LABEL: "gpu.module"() <{sym_name = "unary_f32"}>
// GENERIC: "approx.sin"(%{{.*}}) <{knob = @k}> : (f32) -> f32
gpu.module @unary_f32 {
  approx.knob @k range(0, 64) default(0)
  gpu.func @unary_f32(%x: f32) {
    %0 = approx.sin %x knob(@k) : f32
    %1 = approx.cos %x knob(@k) : f32
    %2 = approx.exp %x knob(@k) : f32
    %3 = approx.log %x knob(@k) : f32
    %4 = approx.rcp %x knob(@k) : f32
    %5 = approx.sqrt %x knob(@k) : f32
    %6 = approx.rsqrt %x knob(@k) : f32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @binary_f32
// CHECK-LABEL: gpu.func @binary_f32
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK: approx.pow %[[X]], %[[Y]] knob(@k) : f32
// CHECK: approx.div %[[X]], %[[Y]] knob(@k) : f32
// CHECK: approx.pow %[[Y]], %[[X]] knob(@k) form(sfu) : f32
// CHECK: approx.div %[[Y]], %[[X]] knob(@k) form(precise) : f32
// GENERIC-LABEL: "gpu.module"() <{sym_name = "binary_f32"}>
// GENERIC: "approx.pow"(%{{.*}}, %{{.*}}) <{knob = @k}> : (f32, f32) -> f32
// GENERIC: "approx.div"(%{{.*}}, %{{.*}}) <{knob = @k}> : (f32, f32) -> f32
// GENERIC: "approx.pow"(%{{.*}}, %{{.*}}) <{form = 1 : i32, knob = @k}> : (f32, f32) -> f32
// GENERIC: "approx.div"(%{{.*}}, %{{.*}}) <{form = 0 : i32, knob = @k}> : (f32, f32) -> f32
gpu.module @binary_f32 {
  approx.knob @k range(0, 64) default(0)
  gpu.func @binary_f32(%x: f32, %y: f32) {
    %0 = approx.pow %x, %y knob(@k) : f32
    %1 = approx.div %x, %y knob(@k) : f32
    %2 = approx.pow %y, %x knob(@k) form(sfu) : f32
    %3 = approx.div %y, %x knob(@k) form(precise) : f32
    gpu.return
  }
}

// -----

// Both forms on every f32 function, and range_reduction on sin/cos.
// CHECK-LABEL: gpu.module @forms_f32
// CHECK-LABEL: gpu.func @forms_f32
// CHECK: approx.sin %{{.*}} knob(@k) form(sfu) : f32
// CHECK: approx.sin %{{.*}} knob(@k) form(precise) : f32
// CHECK: approx.cos %{{.*}} knob(@k) form(sfu) : f32
// CHECK: approx.cos %{{.*}} knob(@k) form(precise) : f32
// CHECK: approx.exp %{{.*}} knob(@k) form(sfu) : f32
// CHECK: approx.exp %{{.*}} knob(@k) form(precise) : f32
// CHECK: approx.log %{{.*}} knob(@k) form(sfu) : f32
// CHECK: approx.log %{{.*}} knob(@k) form(precise) : f32
// CHECK: approx.rcp %{{.*}} knob(@k) form(sfu) : f32
// CHECK: approx.rcp %{{.*}} knob(@k) form(precise) : f32
// CHECK: approx.sqrt %{{.*}} knob(@k) form(sfu) : f32
// CHECK: approx.sqrt %{{.*}} knob(@k) form(precise) : f32
// CHECK: approx.rsqrt %{{.*}} knob(@k) form(sfu) : f32
// CHECK: approx.rsqrt %{{.*}} knob(@k) form(precise) : f32
// CHECK: approx.sin %{{.*}} knob(@k) {range_reduction} : f32
// CHECK: approx.cos %{{.*}} knob(@k) form(sfu) {range_reduction} : f32
// GENERIC-LABEL: "gpu.module"() <{sym_name = "forms_f32"}>
// GENERIC: "approx.sin"(%{{.*}}) <{knob = @k, range_reduction}> : (f32) -> f32
// GENERIC: "approx.cos"(%{{.*}}) <{form = 1 : i32, knob = @k, range_reduction}> : (f32) -> f32
gpu.module @forms_f32 {
  approx.knob @k range(0, 64) default(0)
  gpu.func @forms_f32(%x: f32) {
    %0 = approx.sin %x knob(@k) form(sfu) : f32
    %1 = approx.sin %x knob(@k) form(precise) : f32
    %2 = approx.cos %x knob(@k) form(sfu) : f32
    %3 = approx.cos %x knob(@k) form(precise) : f32
    %4 = approx.exp %x knob(@k) form(sfu) : f32
    %5 = approx.exp %x knob(@k) form(precise) : f32
    %6 = approx.log %x knob(@k) form(sfu) : f32
    %7 = approx.log %x knob(@k) form(precise) : f32
    %8 = approx.rcp %x knob(@k) form(sfu) : f32
    %9 = approx.rcp %x knob(@k) form(precise) : f32
    %10 = approx.sqrt %x knob(@k) form(sfu) : f32
    %11 = approx.sqrt %x knob(@k) form(precise) : f32
    %12 = approx.rsqrt %x knob(@k) form(sfu) : f32
    %13 = approx.rsqrt %x knob(@k) form(precise) : f32
    %14 = approx.sin %x knob(@k) {range_reduction} : f32
    %15 = approx.cos %x knob(@k) form(sfu) {range_reduction} : f32
    gpu.return
  }
}

// -----

// f64 functions with a native SFU form, with Newton steps 0..3.
// CHECK-LABEL: gpu.module @native_f64
// CHECK-LABEL: gpu.func @native_f64
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: approx.div %[[X]], %[[Y]] knob(@k) : f64
// CHECK: approx.rcp %[[X]] knob(@k) : f64
// CHECK: approx.sqrt %[[X]] knob(@k) : f64
// CHECK: approx.rsqrt %[[X]] knob(@k) : f64
// CHECK: approx.div %[[X]], %[[Y]] knob(@k) {newton_steps = 0 : i32} : f64
// CHECK: approx.rcp %[[X]] knob(@k) {newton_steps = 1 : i32} : f64
// CHECK: approx.sqrt %[[X]] knob(@k) form(sfu) {newton_steps = 2 : i32} : f64
// CHECK: approx.rsqrt %[[X]] knob(@k) form(precise) {newton_steps = 3 : i32} : f64
// CHECK: approx.div %[[X]], %[[Y]] knob(@k) form(sfu) : f64
// CHECK: approx.rcp %[[X]] knob(@k) form(sfu) : f64
// GENERIC-LABEL: "gpu.module"() <{sym_name = "native_f64"}>
// GENERIC: "approx.rcp"(%{{.*}}) <{knob = @k, newton_steps = 1 : i32}> : (f64) -> f64
// GENERIC: "approx.sqrt"(%{{.*}}) <{form = 1 : i32, knob = @k, newton_steps = 2 : i32}> : (f64) -> f64
gpu.module @native_f64 {
  approx.knob @k range(0, 64) default(0)
  gpu.func @native_f64(%x: f64, %y: f64) {
    %0 = approx.div %x, %y knob(@k) : f64
    %1 = approx.rcp %x knob(@k) : f64
    %2 = approx.sqrt %x knob(@k) : f64
    %3 = approx.rsqrt %x knob(@k) : f64
    %4 = approx.div %x, %y knob(@k) {newton_steps = 0 : i32} : f64
    %5 = approx.rcp %x knob(@k) {newton_steps = 1 : i32} : f64
    %6 = approx.sqrt %x knob(@k) form(sfu) {newton_steps = 2 : i32} : f64
    %7 = approx.rsqrt %x knob(@k) form(precise) {newton_steps = 3 : i32} : f64
    %8 = approx.div %x, %y knob(@k) form(sfu) : f64
    %9 = approx.rcp %x knob(@k) form(sfu) : f64
    gpu.return
  }
}

// -----

// f64 functions without a native SFU form: tunable or precise as they are,
// sfu only with demote; range_reduction on f64 with demote.
// CHECK-LABEL: gpu.module @demoted_f64
// CHECK-LABEL: gpu.func @demoted_f64
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: approx.sin %[[X]] knob(@k) : f64
// CHECK: approx.cos %[[X]] knob(@k) form(precise) : f64
// CHECK: approx.exp %[[X]] knob(@k) : f64
// CHECK: approx.log %[[X]] knob(@k) form(precise) : f64
// CHECK: approx.pow %[[X]], %[[Y]] knob(@k) : f64
// CHECK: approx.sin %[[X]] knob(@k) form(sfu) {demote} : f64
// CHECK: approx.cos %[[X]] knob(@k) {demote, range_reduction} : f64
// CHECK: approx.sin %[[X]] knob(@k) form(sfu) {demote, range_reduction} : f64
// CHECK: approx.exp %[[X]] knob(@k) form(sfu) {demote} : f64
// CHECK: approx.log %[[X]] knob(@k) {demote} : f64
// CHECK: approx.pow %[[X]], %[[Y]] knob(@k) form(sfu) {demote} : f64
// GENERIC-LABEL: "gpu.module"() <{sym_name = "demoted_f64"}>
// GENERIC: "approx.sin"(%{{.*}}) <{demote, form = 1 : i32, knob = @k}> : (f64) -> f64
// GENERIC: "approx.cos"(%{{.*}}) <{demote, knob = @k, range_reduction}> : (f64) -> f64
gpu.module @demoted_f64 {
  approx.knob @k range(0, 64) default(0)
  gpu.func @demoted_f64(%x: f64, %y: f64) {
    %0 = approx.sin %x knob(@k) : f64
    %1 = approx.cos %x knob(@k) form(precise) : f64
    %2 = approx.exp %x knob(@k) : f64
    %3 = approx.log %x knob(@k) form(precise) : f64
    %4 = approx.pow %x, %y knob(@k) : f64
    %5 = approx.sin %x knob(@k) form(sfu) {demote} : f64
    %6 = approx.cos %x knob(@k) {demote, range_reduction} : f64
    %7 = approx.sin %x knob(@k) form(sfu) {range_reduction, demote} : f64
    %8 = approx.exp %x knob(@k) form(sfu) {demote} : f64
    %9 = approx.log %x knob(@k) {demote} : f64
    %10 = approx.pow %x, %y knob(@k) form(sfu) {demote} : f64
    gpu.return
  }
}

// -----

// knob_value and warp_slot, every slot kind; ops in func.func of a gpu.module.
// CHECK-LABEL: gpu.module @flag_ops
// CHECK-LABEL: func.func @flag_ops
// CHECK: %[[S0:.*]] = approx.warp_slot hw : i32
// CHECK: %[[S1:.*]] = approx.warp_slot virtual : i32
// CHECK: %[[S2:.*]] = approx.warp_slot software : i32
// CHECK: %[[L:.*]] = approx.knob_value @lambda : i32
// CHECK: %[[L2:.*]] = approx.knob_value @other : i32
// CHECK: arith.cmpi ult, %[[S0]], %[[L]] : i32
// CHECK: return %[[S1]], %[[S2]], %[[L2]]
// GENERIC-LABEL: "gpu.module"() <{sym_name = "flag_ops"}>
// GENERIC: "approx.warp_slot"() <{kind = 0 : i32}> : () -> i32
// GENERIC: "approx.warp_slot"() <{kind = 1 : i32}> : () -> i32
// GENERIC: "approx.warp_slot"() <{kind = 2 : i32}> : () -> i32
// GENERIC: "approx.knob_value"() <{knob = @lambda}> : () -> i32
gpu.module @flag_ops {
  approx.knob @lambda range(0, 64) default(0)
  approx.knob @other range(1, 2) default(2)
  func.func @flag_ops() -> (i32, i32, i32, i1) {
    %s0 = approx.warp_slot hw : i32
    %s1 = approx.warp_slot virtual : i32
    %s2 = approx.warp_slot software : i32
    %l = approx.knob_value @lambda : i32
    %l2 = approx.knob_value @other : i32
    %f = arith.cmpi ult, %s0, %l : i32
    return %s1, %s2, %l2, %f : i32, i32, i32, i1
  }
}

// -----

// Locations and a nested region (approx ops inside scf) survive the trip.
// CHECK-LABEL: gpu.module @nested
// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for
// CHECK: approx.rsqrt %{{.*}} knob(@k) {newton_steps = 1 : i32} : f64
// CHECK: scf.yield
gpu.module @nested {
  approx.knob @k range(0, 64) default(0)
  gpu.func @nested(%x: f64, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f64) {
      %y = approx.rsqrt %acc knob(@k) {newton_steps = 1 : i32} : f64
      scf.yield %y : f64
    }
    gpu.return
  }
}
