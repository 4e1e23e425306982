// RUN: approx-opt %s --pass-pipeline='builtin.module(gpu.module(approx-allow-contraction))' -split-input-file | FileCheck %s

// Float multiplies and adds get `contract`; other flags are kept; integer
// ops, divisions and approx ops are left alone.
gpu.module @m {
  approx.knob @lambda range(0, 64) default(0)
  // CHECK-LABEL: gpu.func @k
  gpu.func @k(%a: f32, %b: f64, %i: i32) kernel {
    // CHECK: arith.mulf %{{.*}} fastmath<contract> : f32
    %0 = arith.mulf %a, %a : f32
    // CHECK: arith.addf %{{.*}} fastmath<contract> : f32
    %1 = arith.addf %0, %a : f32
    // CHECK: arith.subf %{{.*}} fastmath<contract> : f64
    %2 = arith.subf %b, %b : f64
    // CHECK: arith.negf %{{.*}} fastmath<contract> : f64
    %3 = arith.negf %2 : f64
    // CHECK: arith.mulf %{{.*}} fastmath<nnan,contract> : f32
    %4 = arith.mulf %1, %a fastmath<nnan> : f32
    // CHECK: arith.divf %{{.*}} : f32
    // CHECK-NOT: contract
    %5 = arith.divf %4, %a : f32
    // CHECK: arith.muli
    %6 = arith.muli %i, %i : i32
    // CHECK: approx.exp %{{.*}} knob(@lambda) : f32
    %7 = approx.exp %5 knob(@lambda) : f32
    gpu.return
  }
}

// -----

// Device functions are covered too.
gpu.module @m2 {
  // CHECK-LABEL: func.func @helper
  // CHECK: arith.addf %{{.*}} fastmath<contract> : f32
  func.func @helper(%a: f32) -> f32 {
    %0 = arith.addf %a, %a : f32
    return %0 : f32
  }
}
