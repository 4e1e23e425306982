// The correctly rounded rung's lowering (passes/correct, through
// convert-approx-to-nvvm): f64 evaluation, the rounding test, and the
// hard-case table of the hard-to-round search in constant memory.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm))' | FileCheck %s

// CHECK-LABEL: gpu.module @exp_f32
// One table per function and module, padded to a power of two (34 cases of
// exp -> 64 entries), in constant memory (addrspace 4).
// CHECK: llvm.mlir.global internal constant @__approx_correct_exp_f32(dense<{{.*}}> : tensor<64xi64>) {addr_space = 4 : i32, alignment = 8 : i64} : !llvm.array<64 x i64>
// CHECK-NOT: @__approx_correct_exp_f32(dense
// CHECK-LABEL: func.func @exp_f32
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[XD:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[Y:.*]] = math.exp %[[XD]] : f64
// CHECK: %[[W:.*]] = arith.constant 8.8817841970012523E-16 : f64
// CHECK: %[[D:.*]] = arith.mulf %[[Y]], %[[W]] : f64
// CHECK: %[[LO:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[HI:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[R:.*]] = arith.truncf %[[Y]] : f64 to f32
// CHECK: %[[SURE:.*]] = arith.cmpf ueq, %[[LO]], %[[HI]] : f32
// CHECK: %[[RES:.*]] = scf.if %[[SURE]] -> (f32) {
// CHECK-NEXT: scf.yield %[[R]] : f32
// CHECK-NEXT: } else {
// CHECK: llvm.mlir.addressof @__approx_correct_exp_f32 : !llvm.ptr<4>
// 6 search steps over 64 entries, then the entry itself.
// CHECK-COUNT-7: llvm.load %{{.*}} : !llvm.ptr<4> -> i64
// CHECK: %[[FOUND:.*]] = arith.cmpi eq
// CHECK: arith.select %[[FOUND]], %{{.*}}, %[[R]] : f32
// CHECK: return %[[RES]], %{{.*}} : f32, f32
// CHECK-NOT: approx.
gpu.module @exp_f32 {
  approx.knob @k range(0, 64) default(0)
  func.func @exp_f32(%x: f32) -> (f32, f32) {
    %a = approx.exp %x knob(@k) form(correct) : f32
    %b = approx.exp %a knob(@k) form(correct) : f32
    return %a, %b : f32, f32
  }
}

// -----

// Each function its own table and libdevice-backed f64 op.
// CHECK-LABEL: gpu.module @each
// CHECK-DAG: llvm.mlir.global internal constant @__approx_correct_log2_f32({{.*}} : !llvm.array<512 x i64>
// CHECK-DAG: llvm.mlir.global internal constant @__approx_correct_log_f32({{.*}} : !llvm.array<256 x i64>
// CHECK-DAG: llvm.mlir.global internal constant @__approx_correct_exp2_f32({{.*}} : !llvm.array<32 x i64>
// CHECK-LABEL: func.func @each
// CHECK: math.exp2 %{{.*}} : f64
// CHECK: math.log %{{.*}} : f64
// CHECK: math.log2 %{{.*}} : f64
gpu.module @each {
  approx.knob @k range(0, 64) default(0)
  func.func @each(%x: f32) -> (f32, f32, f32) {
    %a = approx.exp2 %x knob(@k) form(correct) : f32
    %b = approx.log %x knob(@k) form(correct) : f32
    %c = approx.log2 %x knob(@k) form(correct) : f32
    return %a, %b, %c : f32, f32, f32
  }
}

// -----

// Vectors: elementwise.
// CHECK-LABEL: func.func @vector
// CHECK: vector.shape_cast %{{.*}} : vector<2x2xf32> to vector<4xf32>
// CHECK-COUNT-4: math.log %{{.*}} : f64
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
// CHECK: vector.shape_cast %{{.*}} : vector<4xf32> to vector<2x2xf32>
gpu.module @vector {
  approx.knob @k range(0, 64) default(0)
  func.func @vector(%x: vector<2x2xf32>) -> vector<2x2xf32> {
    %a = approx.log %x knob(@k) form(correct) : vector<2x2xf32>
    return %a : vector<2x2xf32>
  }
}
