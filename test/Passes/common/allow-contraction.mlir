// approx-allow-contraction: `contract` on float mul/add/sub/neg of the
// selected kernels and the functions they reach, nowhere else.
// RUN: approx-opt %s -split-input-file --approx-allow-contraction | FileCheck %s
// RUN: approx-opt %s -split-input-file --approx-allow-contraction="kernels=k" | FileCheck %s --check-prefix=SEL

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

// Functions a kernel calls are covered; a function no kernel reaches and
// kernels outside kernels= are not.
// CHECK-LABEL: func.func @helper
// CHECK: arith.addf %{{.*}} fastmath<contract> : f32
// CHECK-LABEL: func.func @unreached
// CHECK: arith.addf %{{.*}} : f32
// CHECK-LABEL: gpu.func @k
// CHECK: arith.mulf %{{.*}} fastmath<contract> : f32
// CHECK-LABEL: gpu.func @other
// CHECK: arith.mulf %{{.*}} fastmath<contract> : f32
// SEL-LABEL: func.func @helper
// SEL: arith.addf %{{.*}} fastmath<contract> : f32
// SEL-LABEL: func.func @unreached
// SEL: arith.addf %{{.*}} : f32
// SEL-LABEL: gpu.func @k
// SEL: arith.mulf %{{.*}} fastmath<contract> : f32
// SEL-LABEL: gpu.func @other
// SEL-NOT: contract
// SEL: gpu.return
gpu.module @m2 {
  func.func @helper(%a: f32) -> f32 {
    %0 = arith.addf %a, %a : f32
    return %0 : f32
  }
  func.func @unreached(%a: f32) -> f32 {
    %0 = arith.addf %a, %a : f32
    return %0 : f32
  }
  gpu.func @k(%a: f32) kernel {
    %0 = func.call @helper(%a) : (f32) -> f32
    %1 = arith.mulf %0, %a : f32
    gpu.return
  }
  gpu.func @other(%a: f32) kernel {
    %1 = arith.mulf %a, %a : f32
    gpu.return
  }
}
