// approx-perforation-output: the store of a plain kernel becomes an output
// perforation op whose region recomputes the value at (r, c); what does not
// depend on (y, x) stays outside.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-output{schemes=accurate,rows1,center2}))' | FileCheck %s
// Lowered, the schemes reach the manifest site in knob order.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-output,approx-perforation-lower))' | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: gpu.module @shift
// CHECK: approx.knob @perforation_output range(0, 2) default(0)
// CHECK-LABEL: gpu.func @shift
// CHECK: %[[H:.*]] = memref.dim %arg1, %c0
// CHECK: %[[SCALE:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: scf.if
// CHECK-NOT: memref.load
// CHECK: approx.perforation.output %arg1[%[[Y:.*]], %[[X:.*]]] schemes([#approx.perforation<accurate>, #approx.perforation<rows>, #approx.perforation<center, skip = 2>]) knob(@perforation_output) : memref<?x?xf32> {
// CHECK-NEXT: ^bb0(%[[R:.*]]: index, %[[C:.*]]: index):
// CHECK: %[[RN:.*]] = arith.addi %[[R]], %c1
// CHECK: %[[RC:.*]] = arith.minsi %[[RN]], %{{.*}}
// CHECK: %[[V:.*]] = memref.load %arg0[%[[RC]], %[[C]]]
// CHECK: %[[S:.*]] = arith.mulf %[[V]], %[[SCALE]]
// CHECK: approx.perforation.yield %[[S]] : f32
// CHECK-NOT: memref.store
// LOWER-LABEL: gpu.module @shift
// LOWER-SAME: data = {schemes = [{reconstruction = "nn", scheme = "accurate", skip = 1 : i64, type = "perforation_scheme"}, {reconstruction = "nn", scheme = "rows", skip = 1 : i64, type = "perforation_scheme"}, {reconstruction = "nn", scheme = "cols", skip = 1 : i64, type = "perforation_scheme"}, {reconstruction = "copy", scheme = "center", skip = 1 : i64, type = "perforation_scheme"}]}
// LOWER-NOT: approx.perforation.
gpu.module @shift {
  gpu.func @shift(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %hm1 = arith.subi %h, %c1 : index
    %scale = arith.constant 0.5 : f32
    %by = gpu.block_id y
    %ty = gpu.thread_id y
    %c8 = arith.constant 8 : index
    %y0 = arith.muli %by, %c8 : index
    %y = arith.addi %ty, %y0 : index
    %x = gpu.global_id x
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %yn = arith.addi %y, %c1 : index
      %yc = arith.minsi %yn, %hm1 : index
      %v = memref.load %in[%yc, %x] : memref<?x?xf32>
      %s = arith.mulf %v, %scale : f32
      memref.store %s, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// A zero-border read (an scf.if yielding the value) is cloned whole.
// CHECK-LABEL: gpu.func @zero
// CHECK: approx.perforation.output
// CHECK-NEXT: ^bb0(%[[R:.*]]: index, %[[C:.*]]: index):
// CHECK: %[[UP:.*]] = arith.subi %[[R]], %c1
// CHECK: %[[OK:.*]] = arith.cmpi sge, %[[UP]], %c0
// CHECK: scf.if %[[OK]] -> (f16)
// CHECK: memref.load %arg0[%[[UP]], %[[C]]]
// CHECK: approx.perforation.yield
// LOWER-LABEL: gpu.func @zero
// LOWER-NOT: approx.perforation.
gpu.module @zero {
  gpu.func @zero(%in: memref<?x?xf16>, %out: memref<?x?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %y = gpu.global_id y
    %x = gpu.global_id x
    %up = arith.subi %y, %c1 : index
    %ok = arith.cmpi sge, %up, %c0 : index
    %v = scf.if %ok -> (f16) {
      %l = memref.load %in[%up, %x] : memref<?x?xf16>
      scf.yield %l : f16
    } else {
      %z = arith.constant 0.0 : f16
      scf.yield %z : f16
    }
    memref.store %v, %out[%y, %x] : memref<?x?xf16>
    gpu.return
  }
}

// -----

// A thread id in the stored value: only the responsible thread runs the
// region (at its own coordinate), so the value may depend on it; the rows
// scheme's neighbour gets that thread's value.
// CHECK-LABEL: gpu.func @tid
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: approx.perforation.output %arg1
// CHECK-NEXT: ^bb0(%[[R:.*]]: index, %[[C:.*]]: index):
// CHECK: memref.load %arg0[%[[R]], %[[T]]]
// CHECK: approx.perforation.yield
// LOWER-LABEL: gpu.func @tid
// LOWER-NOT: approx.perforation.
gpu.module @tid {
  gpu.func @tid(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %t = gpu.thread_id x
    %v = memref.load %in[%y, %t] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}
