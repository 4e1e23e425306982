// Round-trip of the lns op family: the type, every op, and the impl
// attribute with every kind and its parameters.
// RUN: approx-opt %s -split-input-file | approx-opt -split-input-file | FileCheck %s
// RUN: approx-opt %s -split-input-file --mlir-print-op-generic | approx-opt -split-input-file | FileCheck %s

// CHECK-LABEL: gpu.func @arith
// CHECK-SAME: (%[[F:.*]]: f32, %[[L:.*]]: f32, %[[N:.*]]: i1)
// CHECK: %[[A:.*]] = approx.lns.from_float %[[F]] : f32
// CHECK: %[[B:.*]] = approx.lns.pack %[[L]], %[[N]]
// CHECK: %[[M:.*]] = approx.lns.mul %[[A]], %[[B]]
// CHECK: %[[D:.*]] = approx.lns.div %[[M]], %[[B]]
// CHECK: %[[S:.*]] = approx.lns.add %[[D]], %[[A]] impl(<precise>)
// CHECK: %[[T:.*]] = approx.lns.sub %[[S]], %[[A]] impl(<texture2, segments = 128>)
// CHECK: approx.lns.add %[[T]], %[[A]] impl(<split, segments = 64, knob = @lambda, slot = virtual>)
// CHECK: approx.lns.unpack %[[T]]
// CHECK: approx.lns.to_float %[[T]] : f32
gpu.module @arith {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @arith(%f: f32, %l: f32, %n: i1) {
    %a = approx.lns.from_float %f : f32
    %b = approx.lns.pack %l, %n
    %m = approx.lns.mul %a, %b
    %d = approx.lns.div %m, %b
    %s = approx.lns.add %d, %a impl(#approx.lns_impl<precise>)
    %t = approx.lns.sub %s, %a impl(#approx.lns_impl<texture2, segments = 128>)
    %u = approx.lns.add %t, %a impl(#approx.lns_impl<split, segments = 64, knob = @lambda, slot = virtual>)
    %log, %neg = approx.lns.unpack %t
    %g = approx.lns.to_float %t : f32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @functions
// CHECK: approx.lns.sb %{{.*}} impl(<sfu>) : f32
// CHECK: approx.lns.db %{{.*}} impl(<sfu>) nonpositive : f32
// CHECK: approx.lns.sb %{{.*}} impl(<horner, segments = 2, degree = 3>) : f32
// CHECK: approx.lns.db %{{.*}} impl(<texture1, segments = 256>) : f32
// CHECK: approx.lns.sb %{{.*}} impl(<texture2, segments = 64>) : f32
// CHECK: approx.lns.sb %{{.*}} impl(<texture2, input_bits = 12>) : f32
// CHECK: approx.lns.db %{{.*}} impl(<texture1, input_bits = 16, max_error = {{.*}} : f64>) : f32
// CHECK: approx.lns.db %{{.*}} impl(<horner, max_error = 5.000000e-07 : f64, degree = 3>) : f32
// CHECK: approx.lns.sb %{{.*}} impl(<texture3, segments = 256>) : f32
// CHECK: approx.lns.db %{{.*}} impl(<texture3, input_bits = 16>) nonpositive : f32
// CHECK: approx.lns.sb %{{.*}} impl(<texture3, input_bits = 18, max_error = {{.*}} : f64>) : f32
gpu.module @functions {
  gpu.func @functions(%x: f32) {
    %0 = approx.lns.sb %x impl(#approx.lns_impl<sfu>) : f32
    %1 = approx.lns.db %x impl(#approx.lns_impl<sfu>) nonpositive : f32
    %2 = approx.lns.sb %x impl(#approx.lns_impl<horner, segments = 2, degree = 3>) : f32
    %3 = approx.lns.db %x impl(#approx.lns_impl<texture1, segments = 256>) : f32
    %4 = approx.lns.sb %x impl(#approx.lns_impl<texture2, segments = 64>) : f32
    %5 = approx.lns.sb %x impl(#approx.lns_impl<texture2, input_bits = 12>) : f32
    %6 = approx.lns.db %x impl(#approx.lns_impl<texture1, input_bits = 16, max_error = 1.0e-6 : f64>) : f32
    %7 = approx.lns.db %x impl(#approx.lns_impl<horner, max_error = 5.0e-7 : f64, degree = 3>) : f32
    %8 = approx.lns.sb %x impl(#approx.lns_impl<texture3, segments = 256>) : f32
    %9 = approx.lns.db %x impl(#approx.lns_impl<texture3, input_bits = 16>) nonpositive : f32
    %10 = approx.lns.sb %x impl(#approx.lns_impl<texture3, input_bits = 18, max_error = 1.0e-6 : f64>) : f32
    gpu.return
  }
}

// -----

// The LNS type in signatures and loop-carried values.
// CHECK-LABEL: func.func @carried
// CHECK-SAME: (%{{.*}}: !approx.lns) -> !approx.lns
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (!approx.lns)
func.func @carried(%x: !approx.lns) -> !approx.lns {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (!approx.lns) {
    %n = approx.lns.mul %acc, %x
    scf.yield %n : !approx.lns
  }
  return %r : !approx.lns
}
