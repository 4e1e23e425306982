// approx-nvcc-contraction: `contract` leaves f32 and f64 llvm.fmul, llvm.fadd
// and llvm.fsub, so that the NVPTX back end's own rule (nvcc's) decides which
// products fuse; other flags and other types are kept.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-nvcc-contraction))' | FileCheck %s

gpu.module @m {
  // CHECK-LABEL: llvm.func @f32_f64
  llvm.func @f32_f64(%a: f32, %b: f64) -> f64 {
    // CHECK: llvm.fmul %{{.*}} : f32
    %0 = llvm.fmul %a, %a {fastmathFlags = #llvm.fastmath<contract>} : f32
    // CHECK: llvm.fadd %{{.*}} : f32
    %1 = llvm.fadd %0, %a {fastmathFlags = #llvm.fastmath<contract>} : f32
    // CHECK: llvm.fsub %{{.*}} {fastmathFlags = #llvm.fastmath<nnan>} : f64
    %2 = llvm.fsub %b, %b {fastmathFlags = #llvm.fastmath<nnan, contract>} : f64
    // CHECK: llvm.fmul %{{.*}} {fastmathFlags = #llvm.fastmath<nnan, ninf, nsz, arcp, afn, reassoc>} : f64
    %3 = llvm.fmul %2, %2 {fastmathFlags = #llvm.fastmath<fast>} : f64
    llvm.return %3 : f64
  }
}

// -----

// f16, bf16 and vectors keep `contract` (the back end's rule is for f32 and
// f64); divisions are not multiplies or adds.
gpu.module @m {
  // CHECK-LABEL: llvm.func @others
  llvm.func @others(%h: f16, %v: vector<2xf32>, %x: f32) -> f32 {
    // CHECK: llvm.fmul %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f16
    %0 = llvm.fmul %h, %h {fastmathFlags = #llvm.fastmath<contract>} : f16
    // CHECK: llvm.fadd %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : vector<2xf32>
    %1 = llvm.fadd %v, %v {fastmathFlags = #llvm.fastmath<contract>} : vector<2xf32>
    // CHECK: llvm.fdiv %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
    %2 = llvm.fdiv %x, %x {fastmathFlags = #llvm.fastmath<contract>} : f32
    llvm.return %2 : f32
  }
}

// -----

// An add of two products that both qualify (every use an add): the product
// written first in the source is fused, whatever the operand order.
gpu.module @m {
  // CHECK-LABEL: llvm.func @source_order
  llvm.func @source_order(%x: f64, %y: f64) -> f64 {
    // CHECK: %[[YY:.*]] = llvm.fmul %arg1, %arg1 : f64
    // CHECK: %[[S:.*]] = llvm.intr.fma(%arg0, %arg0, %[[YY]]) {{.*}}: (f64, f64, f64) -> f64
    // CHECK: llvm.return %[[S]]
    %xx = llvm.fmul %x, %x {fastmathFlags = #llvm.fastmath<contract>} : f64 loc("k.cu":3:14)
    %yy = llvm.fmul %y, %y {fastmathFlags = #llvm.fastmath<contract>} : f64 loc("k.cu":3:24)
    %s = llvm.fadd %yy, %xx {fastmathFlags = #llvm.fastmath<contract>} : f64 loc("k.cu":3:19)
    llvm.return %s : f64
  }
  // A product with a use that is not an add is left to the back end.
  // CHECK-LABEL: llvm.func @other_use
  llvm.func @other_use(%x: f64, %y: f64) -> f64 {
    // CHECK-NOT: llvm.intr.fma
    // CHECK: llvm.fadd
    %xx = llvm.fmul %x, %x {fastmathFlags = #llvm.fastmath<contract>} : f64 loc("k.cu":5:14)
    %yy = llvm.fmul %y, %y {fastmathFlags = #llvm.fastmath<contract>} : f64 loc("k.cu":5:24)
    %s = llvm.fadd %yy, %xx {fastmathFlags = #llvm.fastmath<contract>} : f64 loc("k.cu":5:19)
    %t = llvm.fmul %s, %xx : f64
    llvm.return %t : f64
  }
}
