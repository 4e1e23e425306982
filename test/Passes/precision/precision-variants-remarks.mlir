// approx-precision-variants leaves a kernel it cannot rewrite exactly alone,
// with a remark naming the cause; bad options fail the pass with one line.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:keep,bf16:keep}))' | FileCheck %s
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:keep,f8:keep}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:}))' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:keep}))' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants))' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:keep,f16:keep}))' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16,bf16}))' 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:f16,keep:keep}))' 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=i32:keep,f16:keep}))' 2>&1 | FileCheck %s --check-prefix=FLOATINT
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f32:keep,keep:keep}))' 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:keep,bf16:keep knob=1x}))' 2>&1 | FileCheck %s --check-prefix=KNOB
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=f16:keep,bf16:keep knob=unscaled}))' 2>&1 | FileCheck %s --check-prefix=TAKEN
// UNKNOWN: error: config 'f8:keep' names unknown type 'f8' (expected keep, f64, f32, f16, bf16, or an integer argument's iN or index)
// EMPTY: error: config 'f16:' names unknown type ''
// ONE: error: configs has 1 configuration(s): a variant knob needs at least 2
// NONE: error: configs has 0 configuration(s): a variant knob needs at least 2
// TWICE: error: config 'f16:keep' is listed twice
// ARITY: error: config 'f16' has 1 type(s) but kernel @{{.*}} has 2 memref argument(s)
// INT: error: config 'f16:f16' stores argument #1 of kernel @ints (element type i32) as f16: only f64, f32, f16 and bf16 elements are scaled, to one of those
// FLOATINT: error: config 'i32:keep' stores argument #0 of kernel @{{.*}} (element type f32) as i32: only f64, f32, f16 and bf16 elements are scaled, to one of those
// SAME: error: configs 'f32:keep' and 'keep:keep' give kernel @{{.*}} the same types
// KNOB: error: knob name '1x' is not an identifier: it starts with a digit
// TAKEN: error: symbol @unscaled exists; the precision variant knob needs that name (choose another knob=)

// CHECK-LABEL: gpu.module @subview
// CHECK-NOT: approx.variant_knob
// CHECK: gpu.func @k(
gpu.module @subview {
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-remark @+1 {{not precision-scaled: argument #0 of kernel @k is used by 'memref.subview'; a scaled memref may only be read by memref.load, written by memref.store and measured by memref.dim}}
    %s = memref.subview %x[%c0][%c4][1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    gpu.return
  }
}

// -----

gpu.module @call {
  func.func @use(%x: memref<?xf32>) {
    return
  }
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    // expected-remark @+1 {{not precision-scaled: argument #0 of kernel @k is used by 'func.call'}}
    func.call @use(%x) : (memref<?xf32>) -> ()
    gpu.return
  }
}

// -----

gpu.module @vector {
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    // expected-remark @+1 {{not precision-scaled: argument #0 of kernel @k is used by 'vector.load'}}
    %v = vector.load %x[%c0] : memref<?xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @atomic {
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    // expected-remark @+1 {{not precision-scaled: argument #0 of kernel @k is used by 'memref.atomic_rmw'}}
    %r = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<?xf32>) -> f32
    gpu.return
  }
}

// -----

gpu.module @cast {
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    // expected-remark @+1 {{not precision-scaled: argument #0 of kernel @k is used by 'memref.cast'}}
    %c = memref.cast %x : memref<?xf32> to memref<*xf32>
    gpu.return
  }
}

// -----

// An argument no configuration scales may be used freely, an integer one
// keeps its type; a kernel without float memrefs is not a candidate (no
// remark without kernels=).
// CHECK-LABEL: gpu.module @unscaled_use
// CHECK: approx.variant_knob @precision default(0) dispatch {ints = [@ints__p0, @ints__p1], unscaled = [@unscaled__p0, @unscaled__p1]}
// CHECK: gpu.func @counts(%{{.*}}: memref<?xi32>)
// CHECK-LABEL: gpu.func @ints__p0
// CHECK-SAME: (%{{.*}}: memref<?xf16>, %{{.*}}: memref<?xi32>)
// CHECK-LABEL: gpu.func @unscaled__p0
// CHECK-SAME: memref<?xf16>, %[[Y:.*]]: memref<?xf32>
// CHECK: memref.subview %[[Y]]
// CHECK-LABEL: gpu.func @unscaled__p1
// CHECK-SAME: memref<?xbf16>, %{{.*}}: memref<?xf32>
gpu.module @unscaled_use {
  gpu.func @counts(%n: memref<?xi32>) kernel {
    gpu.return
  }
  gpu.func @ints(%x: memref<?xf32>, %n: memref<?xi32>) kernel {
    gpu.return
  }
  gpu.func @unscaled(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %v = memref.load %x[%c0] : memref<?xf32>
    %s = memref.subview %y[%c0][%c4][1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.store %v, %s[%c0] : memref<?xf32, strided<[1], offset: ?>>
    gpu.return
  }
}

// -----

gpu.module @pointers {
  // expected-remark @+1 {{not precision-scaled: argument #0 of kernel @k is an !llvm.ptr; only memref arguments are supported}}
  gpu.func @k(%p: !llvm.ptr, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

// Dispatch does not chain: a kernel already dispatched is left alone.
gpu.module @dispatched {
  approx.variant_knob @block default(0) dispatch {k = [@k, @k2]}
  // expected-remark @+1 {{not precision-scaled: kernel @k is already dispatched by variant knob @block}}
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    gpu.return
  }
  // expected-remark @+1 {{not precision-scaled: kernel @k2 is already dispatched by variant knob @block}}
  gpu.func @k2(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @clash
// CHECK: dispatch {k__p0 = [@k__p0__p0, @k__p0__p1]}
// CHECK: gpu.func @k(
gpu.module @clash {
  // expected-remark @+1 {{not precision-scaled: symbol @k__p0 exists; it would be a precision variant of @k}}
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    gpu.return
  }
  gpu.func @k__p0(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    gpu.return
  }
}
