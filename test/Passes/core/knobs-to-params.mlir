// approx-knobs-to-params: the per-launch knob path. Kernels that read a knob
// take its value as a trailing parameter; the knob is marked param_path.
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/ok.mlir --approx-knobs-to-params | FileCheck %s
// RUN: approx-opt %t/ok.mlir --approx-knobs-to-params --approx-record-manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: approx-opt %t/errors.mlir -split-input-file -verify-diagnostics --approx-knobs-to-params

//--- ok.mlir

// CHECK-LABEL: gpu.module @m
// CHECK: approx.knob @lambda range(0, 64) default(0) param_path
// CHECK: approx.knob @unused range(0, 8) default(0)
// CHECK-NOT: param_path
// CHECK: approx.resource_knob @table {{.*}} param_path
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[L:.*]]: i32 {approx.knob = @lambda}, %[[T:.*]]: i64 {approx.knob = @table})
// CHECK-NOT: approx.knob_value
// CHECK-NOT: approx.resource_handle
// CHECK: arith.cmpi ult, %{{.*}}, %[[L]] : i32
// CHECK: arith.index_cast %[[T]]
// CHECK-LABEL: gpu.func @none
// CHECK-SAME: (%{{.*}}: memref<?xf32>) kernel
// MANIFEST: {field = "knob", knob = "lambda", size = 4 : i64, type = "i32"}, {field = "knob", knob = "table", size = 8 : i64, type = "i64"}
gpu.module @m {
  approx.knob @lambda range(0, 64) default(0)
  approx.knob @unused range(0, 8) default(0)
  approx.resource_knob @table default(0) texture_2d filter(point) address(clamp) tables([dense<1.0> : tensor<1x1x1xf32>])
  gpu.func @k(%a: memref<?xf32>)
      workgroup(%tile: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
    %s = approx.warp_slot virtual : i32
    %l = approx.knob_value @lambda : i32
    %f = arith.cmpi ult, %s, %l : i32
    %l2 = approx.knob_value @lambda : i32
    %t = approx.resource_handle @table : i64
    %ti = arith.index_cast %t : i64 to index
    gpu.return
  }
  gpu.func @none(%a: memref<?xf32>) kernel {
    gpu.return
  }
}

//--- errors.mlir
// A helper reading a knob (not inlined) cannot get a parameter.
gpu.module @helper {
  approx.knob @lambda range(0, 64) default(0)
  func.func @helper() -> i32 {
    // expected-error @+1 {{approx-knobs-to-params: @helper reads knob @lambda but is not a kernel; inline it first (knob parameters reach kernels only)}}
    %l = approx.knob_value @lambda : i32
    return %l : i32
  }
  gpu.func @k() kernel {
    %l = func.call @helper() : () -> i32
    gpu.return
  }
}

// -----

// A kernel host code launches keeps its signature.
module attributes {gpu.container_module} {
  gpu.module @launched {
    approx.knob @lambda range(0, 64) default(0)
    // expected-error @+1 {{approx-knobs-to-params: kernel 'k' is launched by gpu.launch_func in this module; a knob parameter would change its signature (use knob-path=global)}}
    gpu.func @k() kernel {
      %l = approx.knob_value @lambda : i32
      gpu.return
    }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @launched::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
