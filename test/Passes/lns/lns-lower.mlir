// approx-lns-lower: sb/db evaluated as each impl says, tables generated once
// per module, sb and db of one operand sharing their work, one site per op.
// RUN: approx-opt %s -split-input-file -approx-lns-lower | FileCheck %s

// texture2: u = (x + 32) 64, the paper's coordinates (2 xe + g + 0.5,
// g + 0.5) on a
// generated 2 x 2N float4 table; one fetch serves sb and db; db near 0 is
// cb + lg2(-x) under a branch.
// CHECK-LABEL: gpu.module @texture2
// CHECK-SAME: approx.sites = [#approx.site<technique = "lns", function = "k", op = "sb", type = f32, form = approximate
// CHECK-SAME: data = {impl = "texture2", predicted_max_abs_error = {{[^,]*}}, segments = 64 : i64, table = "lns_texture2_s64"}
// CHECK-SAME: op = "db"
// CHECK: approx.resource_knob @lns_texture2_s64 default(0) texture_2d filter(linear) address(clamp) tables([dense<{{.*}}> : tensor<2x4096x4xf32>])
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[X:.*]]: f32
// CHECK: %[[C32:.*]] = arith.constant 3.200000e+01 : f32
// CHECK: %[[T:.*]] = arith.addf %[[X]], %[[C32]] : f32
// CHECK: %[[C64:.*]] = arith.constant 6.400000e+01 : f32
// CHECK: %[[U:.*]] = arith.mulf %[[T]], %[[C64]] : f32
// CHECK: %[[FL:.*]] = math.floor %[[U]] : f32
// CHECK: %[[LO:.*]] = arith.maxnumf %[[FL]], %{{.*}} : f32
// CHECK: %[[XE:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK: %[[G:.*]] = arith.subf %[[U]], %[[XE]] : f32
// CHECK: %[[NEAR:.*]] = arith.cmpf oge, %[[XE]], %{{.*}} : f32
// CHECK: %[[XF:.*]] = arith.addf %[[G]], %{{.*}} : f32
// CHECK: %[[TWO:.*]] = arith.mulf %[[XE]], %{{.*}} : f32
// CHECK: %[[CX:.*]] = arith.addf %[[TWO]], %[[XF]] : f32
// CHECK: %[[H:.*]] = approx.resource_handle @lns_texture2_s64 : i64
// CHECK: %[[V:.*]] = approx.texture_fetch %[[H]][%[[CX]], %[[XF]]] : vector<4xf32>
// CHECK-NOT: approx.texture_fetch
// CHECK: scf.if %[[NEAR]] -> (f32)
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK-NOT: approx.lns
gpu.module @texture2 {
  gpu.func @k(%x: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture2, segments = 64>) nonpositive : f32
    %d = approx.lns.db %x impl(#approx.lns_impl<texture2, segments = 64>) nonpositive : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %d, %o[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// Without `nonpositive`: f(x) = max(x, 0) + f(-|x|).
// CHECK-LABEL: gpu.func @reduce
// CHECK-SAME: (%[[X:.*]]: f32
// CHECK: %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK: %[[NX:.*]] = arith.negf %[[ABS]] : f32
// CHECK: %[[POS:.*]] = arith.maximumf %[[X]], %{{.*}} : f32
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[NX]])
// CHECK-NOT: llvm.nvvm.ex2.approx.ftz.f
// CHECK: %[[SB:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
// CHECK: %[[DB:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
// CHECK: arith.addf %[[POS]], %[[SB]] : f32
// CHECK: arith.addf %[[POS]], %[[DB]] : f32
gpu.module @sfu {
  gpu.func @reduce(%x: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<sfu>) : f32
    %d = approx.lns.db %x impl(#approx.lns_impl<sfu>) : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %d, %o[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// precise: log1p(2^x)/ln2 and log2(-expm1(x ln2)); no table.
// CHECK-LABEL: gpu.module @precise
// CHECK-SAME: form = precise
// CHECK-NOT: resource_knob
// CHECK: math.exp2
// CHECK: math.log1p
// CHECK: math.expm1
// CHECK: math.log2
gpu.module @precise {
  gpu.func @k(%x: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<precise>) nonpositive : f32
    %d = approx.lns.db %x impl(#approx.lns_impl<precise>) nonpositive : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %d, %o[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// horner: a constant global of N x 3 x (d + 1) coefficients, fma chains.
// CHECK-LABEL: gpu.module @horner
// CHECK: memref.global "private" constant @lns_horner_s2_d3 : memref<768xf32>
// CHECK: memref.get_global @lns_horner_s2_d3
// CHECK-COUNT-3: math.fma
// CHECK-NOT: math.fma
// CHECK: gpu.return
gpu.module @horner {
  gpu.func @k(%x: f32, %o: memref<1xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<horner, segments = 2, degree = 3>) nonpositive : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// texture1: one linear fetch at (u + 0.5, 0.5) of a 1 x (N + 1) table.
// CHECK-LABEL: gpu.module @texture1
// CHECK: approx.resource_knob @lns_texture1_s16 {{.*}} tensor<1x513x4xf32>
// CHECK: %[[U:.*]] = arith.mulf
// CHECK: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[CX:.*]] = arith.addf %[[U]], %[[HALF]] : f32
// CHECK: %[[CY:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: approx.texture_fetch %{{.*}}[%[[CX]], %[[CY]]]
gpu.module @texture1 {
  gpu.func @k(%x: f32, %o: memref<1xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture1, segments = 16>) nonpositive : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// split: warps whose slot id is below λ take texture2, the others the SFU;
// the knob learns its slot kind; the site is tunable.
// CHECK-LABEL: gpu.module @split
// CHECK-SAME: knob = @lambda, form = tunable
// CHECK: approx.knob @lambda range(0, 64) default(0) warp_slot(virtual)
// CHECK: %[[S:.*]] = approx.warp_slot virtual : i32
// CHECK: %[[L:.*]] = approx.knob_value @lambda : i32
// CHECK: %[[C:.*]] = arith.cmpi ult, %[[S]], %[[L]] : i32
// CHECK: scf.if %[[C]] -> (f32, f32)
// CHECK: approx.texture_fetch
// CHECK: } else {
// CHECK: llvm.nvvm.ex2.approx.ftz.f
gpu.module @split {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k(%x: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<split, segments = 64, knob = @lambda, slot = virtual>) nonpositive : f32
    %d = approx.lns.db %x impl(#approx.lns_impl<split, segments = 64, knob = @lambda, slot = virtual>) nonpositive : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %d, %o[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// Two ops of one table share it; a user symbol of the table's name is kept
// and the table renamed.
// CHECK-LABEL: gpu.module @shared
// CHECK-COUNT-1: approx.resource_knob @lns_texture2_s4_
// CHECK-NOT: approx.resource_knob
// CHECK: gpu.func @lns_texture2_s4()
gpu.module @shared {
  gpu.func @lns_texture2_s4() {
    gpu.return
  }
  gpu.func @k(%x: f32, %y: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture2, segments = 4>) nonpositive : f32
    %t = approx.lns.sb %y impl(#approx.lns_impl<texture2, segments = 4>) nonpositive : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %t, %o[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// Derived segment counts: 2^(input_bits - 8) (the paper's choice), and the
// fewest that meet max_error by the compiler's model of the GPU: on 14-bit
// inputs 64 segments give db 3.7e-7 (bench/lns measured 3.68e-7 on an H100),
// 128 meet 2e-7.
// CHECK-LABEL: gpu.module @derived
// CHECK-DAG: approx.resource_knob @lns_texture2_s16 {{.*}} tensor<2x1024x4xf32>
// CHECK-DAG: approx.resource_knob @lns_texture2_s128 {{.*}} tensor<2x8192x4xf32>
// CHECK-DAG: segments = 16 : i64, table = "lns_texture2_s16"
// CHECK-DAG: segments = 128 : i64, table = "lns_texture2_s128"
gpu.module @derived {
  gpu.func @k(%x: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture2, input_bits = 12>) nonpositive : f32
    %t = approx.lns.sb %x impl(#approx.lns_impl<texture2, input_bits = 14, max_error = 2.0e-7 : f64>) nonpositive : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %t, %o[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// texture3: the same u, xe, g as texture2, one trilinear fetch at
// (2 xe + g + 0.5, g + 0.5, g + 0.5) of a generated 2 x 2 x 2N float4 3-D
// texture (texture_3d, tables D x H x W x C); one fetch serves sb and db;
// db near 0 is cb + lg2(-x) under a branch.
// CHECK-LABEL: gpu.module @texture3
// CHECK-SAME: data = {impl = "texture3", predicted_max_abs_error = {{[^,]*}}, segments = 4 : i64, table = "lns_texture3_s4"}
// CHECK-SAME: op = "db"
// CHECK: approx.resource_knob @lns_texture3_s4 default(0) texture_3d filter(linear) address(clamp) tables([dense<{{.*}}> : tensor<2x2x256x4xf32>])
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[X:.*]]: f32
// CHECK: %[[T:.*]] = arith.addf %[[X]], %{{.*}} : f32
// CHECK: %[[U:.*]] = arith.mulf %[[T]], %{{.*}} : f32
// CHECK: %[[FL:.*]] = math.floor %[[U]] : f32
// CHECK: %[[LO:.*]] = arith.maxnumf %[[FL]], %{{.*}} : f32
// CHECK: %[[XE:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK: %[[G:.*]] = arith.subf %[[U]], %[[XE]] : f32
// CHECK: %[[NEAR:.*]] = arith.cmpf oge, %[[XE]], %{{.*}} : f32
// CHECK: %[[XF:.*]] = arith.addf %[[G]], %{{.*}} : f32
// CHECK: %[[TWO:.*]] = arith.mulf %[[XE]], %{{.*}} : f32
// CHECK: %[[CX:.*]] = arith.addf %[[TWO]], %[[XF]] : f32
// CHECK: %[[H:.*]] = approx.resource_handle @lns_texture3_s4 : i64
// CHECK: %[[V:.*]] = approx.texture_fetch %[[H]][%[[CX]], %[[XF]], %[[XF]]] : vector<4xf32>
// CHECK-NOT: approx.texture_fetch
// CHECK: scf.if %[[NEAR]] -> (f32)
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK-NOT: approx.lns
gpu.module @texture3 {
  gpu.func @k(%x: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture3, segments = 4>) nonpositive : f32
    %d = approx.lns.db %x impl(#approx.lns_impl<texture3, segments = 4>) nonpositive : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %d, %o[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// texture3's derived segment counts: 2^(input_bits - 8), and the fewest that
// meet max_error by the compiler's model: on 12-bit inputs db's 5e-6 needs
// 16 segments per unit with texture3 (model: 4.66e-6) and 32 with texture2
// (7.00e-6 at 16; the cubic helps db, whose f''' is large near -1).
// CHECK-LABEL: gpu.module @texture3_derived
// CHECK-DAG: approx.resource_knob @lns_texture3_s16 {{.*}} texture_3d {{.*}} tensor<2x2x1024x4xf32>
// CHECK-DAG: approx.resource_knob @lns_texture3_s64 {{.*}} texture_3d {{.*}} tensor<2x2x4096x4xf32>
// CHECK-DAG: approx.resource_knob @lns_texture2_s32 {{.*}} texture_2d {{.*}} tensor<2x2048x4xf32>
// CHECK-DAG: impl = "texture3", predicted_max_abs_error = {{[^,]*}}, segments = 64 : i64, table = "lns_texture3_s64"
// CHECK-DAG: impl = "texture3", predicted_max_abs_error = {{[^,]*}}, segments = 16 : i64, table = "lns_texture3_s16"
// CHECK-DAG: impl = "texture2", predicted_max_abs_error = {{[^,]*}}, segments = 32 : i64, table = "lns_texture2_s32"
gpu.module @texture3_derived {
  gpu.func @k(%x: f32, %o: memref<3xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture3, input_bits = 14>) nonpositive : f32
    %t = approx.lns.db %x impl(#approx.lns_impl<texture3, input_bits = 12, max_error = 5.0e-6 : f64>) nonpositive : f32
    %u = approx.lns.db %x impl(#approx.lns_impl<texture2, input_bits = 12, max_error = 5.0e-6 : f64>) nonpositive : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    memref.store %s, %o[%c0] : memref<3xf32>
    memref.store %t, %o[%c1] : memref<3xf32>
    memref.store %u, %o[%c2] : memref<3xf32>
    gpu.return
  }
}
