// approx-warp-split in unstructured control flow (a multi-block function
// body, as cf or an imported LLVM CFG gives): each block's span is versioned
// in place; the flag is computed once in the entry block.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split))' | FileCheck %s

// CHECK-LABEL: gpu.func @multi_block
// CHECK-NEXT: approx.warp_slot
// CHECK-NEXT: approx.knob_value
// CHECK-NEXT: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: cf.cond_br
// CHECK: ^bb1:
// CHECK-NEXT: scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: approx.sin {{.*}} form(sfu)
// CHECK: ^bb2:
// CHECK-NEXT: scf.if %[[FLAG]] {
// CHECK-NEXT: scf.for
// CHECK: approx.exp {{.*}} form(sfu)
// CHECK-NOT: approx.warp_slot
gpu.module @multi_block {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @multi_block(%x: f32, %c: i1, %n: index, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    cf.cond_br %c, ^a, ^b
  ^a:
    %s = approx.sin %x knob(@lambda) : f32
    memref.store %s, %a[%c0] : memref<4xf32>
    gpu.return
  ^b:
    scf.for %i = %c0 to %n step %c1 {
      %e = approx.exp %x knob(@lambda) : f32
      memref.store %e, %a[%c0] : memref<4xf32>
    }
    gpu.return
  }
}
