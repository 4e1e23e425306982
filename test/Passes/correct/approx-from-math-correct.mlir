// approx-from-math's correct=: the named functions become approx ops pinned
// to form(correct) on f32 (scalars and vectors), not tunable; other types
// stay precise with the reason; the other functions stay tunable.
// approx-warp-split then records the pinned ops as `correct` sites.
// RUN: approx-opt %s -split-input-file --approx-from-math="correct=exp,exp2,log,log2" | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(approx-from-math{correct=exp,exp2,log,log2},gpu.module(approx-warp-split))' | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: gpu.module @k
// CHECK-SAME: #approx.site<technique = "sfu", function = "k", op = "exp", type = f64, form = precise, reason = "named in correct=, but no correctly rounded form for f64 exp: form(correct) covers f32 exp, exp2, log and log2"
// CHECK-SAME: #approx.site<technique = "sfu", function = "k", op = "log", type = f16, form = precise, reason = "named in correct=, but no correctly rounded form for f16 log
// CHECK: approx.knob @lambda
// CHECK-LABEL: gpu.func @k
// CHECK: approx.exp %{{.*}} knob(@lambda) form(correct) : f32
// CHECK: approx.exp2 %{{.*}} knob(@lambda) form(correct) : f32
// CHECK: approx.log %{{.*}} knob(@lambda) form(correct) : f32
// CHECK: approx.log2 %{{.*}} knob(@lambda) form(correct) : vector<4xf32>
// CHECK: approx.sin %{{.*}} knob(@lambda) : f32
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.log %{{.*}} : f16
// SPLIT-LABEL: gpu.module @k
// SPLIT-SAME: #approx.site<technique = "sfu", function = "k", op = "exp", type = f32, form = correct, reason = "correctly rounded (form(correct))"
// SPLIT-SAME: #approx.site<technique = "sfu", function = "k", op = "log2", type = vector<4xf32>, form = correct
// SPLIT-SAME: #approx.site<technique = "sfu", function = "k", op = "sin", type = f32, knob = @lambda, form = tunable
gpu.module @k {
  gpu.func @k(%x: f32, %v: vector<4xf32>, %d: f64, %h: f16) kernel {
    %0 = math.exp %x : f32
    %1 = math.exp2 %0 : f32
    %2 = math.log %1 : f32
    %3 = math.log2 %v : vector<4xf32>
    %4 = math.sin %2 : f32
    %5 = math.exp %d : f64
    %6 = math.log %h : f16
    gpu.return
  }
}
