// The core family's lowering (passes/core, through convert-approx-to-nvvm):
// knobs and resource knobs become `.visible .global` variables, reads become
// loads, variant knobs leave nothing, warp slots read special registers,
// texture fetches become tex.unified.2d / 3d intrinsics.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm))' | FileCheck %s

// Knobs become external i32 globals in the global address space (PTX
// `.visible .global .u32`) initialised to the default; knob_value a load.
// CHECK-LABEL: gpu.module @knobs
// CHECK-NOT: approx.knob
// CHECK-DAG: llvm.mlir.global external @lambda(0 : i32) {addr_space = 1 : i32, alignment = 4 : i64} : i32
// CHECK-DAG: llvm.mlir.global external @mu(7 : i32) {addr_space = 1 : i32, alignment = 4 : i64} : i32
// CHECK-LABEL: func.func @knobs
// CHECK-NEXT: %[[A:.*]] = llvm.mlir.addressof @lambda : !llvm.ptr<1>
// CHECK-NEXT: %[[L:.*]] = llvm.load %[[A]] : !llvm.ptr<1> -> i32
// CHECK-NEXT: %[[B:.*]] = llvm.mlir.addressof @mu : !llvm.ptr<1>
// CHECK-NEXT: %[[M:.*]] = llvm.load %[[B]] : !llvm.ptr<1> -> i32
// CHECK-NEXT: return %[[L]], %[[M]]
gpu.module @knobs {
  approx.knob @lambda range(0, 64) default(0)
  approx.knob @mu range(2, 16) default(7)
  func.func @knobs() -> (i32, i32) {
    %0 = approx.knob_value @lambda : i32
    %1 = approx.knob_value @mu : i32
    return %0, %1 : i32, i32
  }
}

// -----

// warp_slot hw: PTX %warpid.
// CHECK-LABEL: func.func @slot_hw
// CHECK-NEXT: %[[W:.*]] = nvvm.read.ptx.sreg.warpid : i32
// CHECK-NEXT: return %[[W]]
gpu.module @slot_hw {
  func.func @slot_hw() -> i32 {
    %0 = approx.warp_slot hw : i32
    return %0 : i32
  }
}

// -----

// warp_slot software: linear thread id in the block / 32.
// CHECK-LABEL: func.func @slot_software
// CHECK-DAG: %[[NTX:.*]] = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-DAG: %[[NTY:.*]] = nvvm.read.ptx.sreg.ntid.y : i32
// CHECK-DAG: %[[TX:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-DAG: %[[TY:.*]] = nvvm.read.ptx.sreg.tid.y : i32
// CHECK-DAG: %[[TZ:.*]] = nvvm.read.ptx.sreg.tid.z : i32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG: %[[ZY:.*]] = arith.muli %[[NTY]], %[[TZ]] : i32
// CHECK-DAG: %[[YZ:.*]] = arith.addi %[[TY]], %[[ZY]] : i32
// CHECK-DAG: %[[XYZ:.*]] = arith.muli %[[NTX]], %[[YZ]] : i32
// CHECK-DAG: %[[LIN:.*]] = arith.addi %[[TX]], %[[XYZ]] : i32
// CHECK: %[[W:.*]] = arith.divui %[[LIN]], %[[C32]] : i32
// CHECK-NEXT: return %[[W]]
// CHECK-NOT: nvvm.read.ptx.sreg.warpid
// CHECK-NOT: nvvm.read.ptx.sreg.nwarpid
gpu.module @slot_software {
  func.func @slot_software() -> i32 {
    %0 = approx.warp_slot software : i32
    return %0 : i32
  }
}

// -----

// warp_slot virtual: (linear block id * warps per block + warp in block) mod
// %nwarpid.
// CHECK-LABEL: func.func @slot_virtual
// CHECK-NOT: nvvm.read.ptx.sreg.warpid
// CHECK-DAG: %[[NTX:.*]] = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-DAG: %[[NTY:.*]] = nvvm.read.ptx.sreg.ntid.y : i32
// CHECK-DAG: %[[NTZ:.*]] = nvvm.read.ptx.sreg.ntid.z : i32
// CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
// CHECK-DAG: %[[WIB:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-DAG: %[[YZ:.*]] = arith.muli %[[NTY]], %[[NTZ]] : i32
// CHECK-DAG: %[[NT:.*]] = arith.muli %[[NTX]], %[[YZ]] : i32
// CHECK-DAG: %[[NT31:.*]] = arith.addi %[[NT]], %[[C31]] : i32
// CHECK-DAG: %[[WPB:.*]] = arith.divui %[[NT31]], %{{.*}} : i32
// CHECK-DAG: %[[NCX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-DAG: %[[NCY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-DAG: %[[CX:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-DAG: %[[CY:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-DAG: %[[CZ:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK-DAG: %[[BZY:.*]] = arith.muli %[[NCY]], %[[CZ]] : i32
// CHECK-DAG: %[[BYZ:.*]] = arith.addi %[[CY]], %[[BZY]] : i32
// CHECK-DAG: %[[BXYZ:.*]] = arith.muli %[[NCX]], %[[BYZ]] : i32
// CHECK-DAG: %[[BLK:.*]] = arith.addi %[[CX]], %[[BXYZ]] : i32
// CHECK: %[[GW0:.*]] = arith.muli %[[BLK]], %[[WPB]] : i32
// CHECK-NEXT: %[[GW:.*]] = arith.addi %[[GW0]], %[[WIB]] : i32
// CHECK-NEXT: %[[NW:.*]] = nvvm.read.ptx.sreg.nwarpid : i32
// CHECK-NEXT: %[[V:.*]] = arith.remui %[[GW]], %[[NW]] : i32
// CHECK-NEXT: return %[[V]]
gpu.module @slot_virtual {
  func.func @slot_virtual() -> i32 {
    %0 = approx.warp_slot virtual : i32
    return %0 : i32
  }
}

// -----

// Resource knobs: a u64 global for the texture handle (0 until the runtime
// writes it), read by resource_handle; variant knobs leave nothing.
// CHECK-LABEL: gpu.module @resources
// CHECK-NOT: approx.
// CHECK-DAG: llvm.mlir.global external @table(0 : i64) {addr_space = 1 : i32, alignment = 8 : i64} : i64
// CHECK-LABEL: gpu.func @read
// CHECK: %[[A:.*]] = llvm.mlir.addressof @table : !llvm.ptr<1>
// CHECK-NEXT: %[[H:.*]] = llvm.load %[[A]] : !llvm.ptr<1> -> i64
gpu.module @resources {
  approx.resource_knob @table default(0) texture_2d filter(linear) address(clamp) tables([dense<1.0> : tensor<1x2x4xf32>])
  approx.variant_knob @precision default(0) dispatch {read = [@read, @read_f32]}
  gpu.func @read(%out: memref<1xi64>) kernel {
    %c0 = arith.constant 0 : index
    %h = approx.resource_handle @table : i64
    memref.store %h, %out[%c0] : memref<1xi64>
    gpu.return
  }
  gpu.func @read_f32(%out: memref<1xi64>) kernel {
    gpu.return
  }
}

// -----

// Texture fetches: two coordinates -> tex.unified.2d, three ->
// tex.unified.3d (PTX tex.2d / tex.3d.v4.f32.f32), repacked as a vector.
// CHECK-LABEL: gpu.module @fetches
// CHECK-LABEL: gpu.func @fetch
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32
// CHECK: %[[H2:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i64
// CHECK: llvm.call_intrinsic "llvm.nvvm.tex.unified.2d.v4f32.f32"(%[[H2]], %[[X]], %[[Y]]) : (i64, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: llvm.insertelement
// CHECK: %[[H3:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i64
// CHECK: llvm.call_intrinsic "llvm.nvvm.tex.unified.3d.v4f32.f32"(%[[H3]], %[[X]], %[[Y]], %[[Z]]) : (i64, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: llvm.insertelement
gpu.module @fetches {
  approx.resource_knob @plane default(0) texture_2d filter(linear) address(clamp) tables([dense<1.0> : tensor<1x2x4xf32>])
  approx.resource_knob @volume default(0) texture_3d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x2x2x4xf32>])
  gpu.func @fetch(%x: f32, %y: f32, %z: f32, %out: memref<2xvector<4xf32>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h2 = approx.resource_handle @plane : i64
    %v2 = approx.texture_fetch %h2[%x, %y] : vector<4xf32>
    %h3 = approx.resource_handle @volume : i64
    %v3 = approx.texture_fetch %h3[%x, %y, %z] : vector<4xf32>
    memref.store %v2, %out[%c0] : memref<2xvector<4xf32>>
    memref.store %v3, %out[%c1] : memref<2xvector<4xf32>>
    gpu.return
  }
}
