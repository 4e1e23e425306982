// Round-trip of the core ops: the three knob kinds, knob reads, warp slots,
// the site attribute and the knob argument attribute.
// RUN: approx-opt %s -split-input-file | approx-opt -split-input-file | FileCheck %s
// RUN: approx-opt %s -split-input-file --mlir-print-op-generic | approx-opt -split-input-file | FileCheck %s

// CHECK-LABEL: gpu.module @knobs
// CHECK: approx.knob @lambda range(0, 64) default(0)
// CHECK: approx.knob @wide range(0, 2147483647) default(2147483647)
// CHECK: approx.knob @slotted range(3, 9) default(5) warp_slot(virtual) param_path {note = "kept"}
// CHECK: approx.knob @"$dollar" range(0, 1) default(0)
gpu.module @knobs {
  approx.knob @lambda range(0, 64) default(0)
  approx.knob @wide range(0, 2147483647) default(2147483647)
  approx.knob @slotted range(3, 9) default(5) warp_slot(virtual) param_path {note = "kept"}
  approx.knob @"$dollar" range(0, 1) default(0)
}

// -----

// CHECK-LABEL: gpu.module @variants
// CHECK: approx.variant_knob @precision default(1) dispatch {saxpy = [@saxpy, @saxpy_f32], scale = [@scale_f64, @scale_f32]}
gpu.module @variants {
  approx.variant_knob @precision default(1) dispatch {saxpy = [@saxpy, @saxpy_f32], scale = [@scale_f64, @scale_f32]}
  gpu.func @saxpy(%x: memref<?xf64>) kernel { gpu.return }
  gpu.func @saxpy_f32(%x: memref<?xf32>) kernel { gpu.return }
  gpu.func @scale_f64(%x: memref<?xf64>) kernel { gpu.return }
  gpu.func @scale_f32(%x: memref<?xf32>) kernel { gpu.return }
}

// -----

// CHECK-LABEL: gpu.module @resources
// CHECK: approx.resource_knob @table default(1) texture_2d filter(linear) address(clamp) tables([dense<{{.*}}> : tensor<1x2x4xf32>, dense<{{.*}}> : tensor<2x2x1xf32>])
// CHECK: approx.resource_knob @pointwise default(0) texture_2d filter(point) address(wrap) normalized_coords tables([dense<5.000000e-01> : tensor<4x4x2xf32>]) param_path
// CHECK-LABEL: gpu.func @read
// CHECK: approx.resource_handle @table : i64
// CHECK: approx.knob_value @lambda : i32
gpu.module @resources {
  approx.knob @lambda range(0, 64) default(0)
  approx.resource_knob @table default(1) texture_2d filter(linear) address(clamp) tables([dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<1x2x4xf32>, dense<[[[1.0], [2.0]], [[3.0], [4.0]]]> : tensor<2x2x1xf32>])
  approx.resource_knob @pointwise default(0) texture_2d filter(point) address(wrap) normalized_coords tables([dense<0.5> : tensor<4x4x2xf32>]) param_path
  gpu.func @read() kernel {
    %h = approx.resource_handle @table : i64
    %l = approx.knob_value @lambda : i32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @slots
// CHECK: approx.warp_slot hw : i32
// CHECK: approx.warp_slot virtual : i32
// CHECK: approx.warp_slot software : i32
gpu.module @slots {
  gpu.func @slots() kernel {
    %0 = approx.warp_slot hw : i32
    %1 = approx.warp_slot virtual : i32
    %2 = approx.warp_slot software : i32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @sites
// CHECK-SAME: approx.sites = [#approx.site<technique = "sfu", function = "k", op = "exp", type = f32, knob = @lambda, form = tunable, loc = "k.mlir:3:10", data = {versioning = "region"}>, #approx.site<technique = "sfu", function = "k", op = "expm1", type = vector<2xf16>, form = precise, reason = "no SFU form">]
gpu.module @sites attributes {approx.sites = [
    #approx.site<technique = "sfu", function = "k", op = "exp", type = f32, knob = @lambda, form = tunable, loc = "k.mlir:3:10", data = {versioning = "region"}>,
    #approx.site<technique = "sfu", function = "k", op = "expm1", type = vector<2xf16>, form = precise, reason = "no SFU form">]} {
  approx.knob @lambda range(0, 64) default(0)
}

// -----

// CHECK-LABEL: gpu.func @knob_param
// CHECK-SAME: %{{.*}}: i32 {approx.knob = @lambda}
gpu.module @params {
  approx.knob @lambda range(0, 64) default(0) param_path
  gpu.func @knob_param(%x: memref<?xf32>, %l: i32 {approx.knob = @lambda}) kernel {
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fetch
// CHECK: %[[H:.*]] = approx.resource_handle @table : i64
// CHECK: approx.texture_fetch %[[H]][%{{.*}}, %{{.*}}] : vector<4xf32>
gpu.module @fetch {
  approx.resource_knob @table default(0) texture_2d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x4x4xf32>])
  gpu.func @fetch(%x: f32, %y: f32) kernel {
    %h = approx.resource_handle @table : i64
    %v = approx.texture_fetch %h[%x, %y] : vector<4xf32>
    gpu.return
  }
}

// -----

// A 3-D texture (tables D x H x W x C) and its three-coordinate fetch.
// CHECK-LABEL: gpu.module @fetch3d
// CHECK: approx.resource_knob @volume default(0) texture_3d filter(linear) address(clamp) tables([dense<{{.*}}> : tensor<2x2x8x4xf32>])
// CHECK-LABEL: gpu.func @fetch3d
// CHECK: %[[H:.*]] = approx.resource_handle @volume : i64
// CHECK: approx.texture_fetch %[[H]][%{{.*}}, %{{.*}}, %{{.*}}] : vector<4xf32>
gpu.module @fetch3d {
  approx.resource_knob @volume default(0) texture_3d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x2x8x4xf32>])
  gpu.func @fetch3d(%x: f32, %y: f32, %z: f32) kernel {
    %h = approx.resource_handle @volume : i64
    %v = approx.texture_fetch %h[%x, %y, %z] : vector<4xf32>
    gpu.return
  }
}
