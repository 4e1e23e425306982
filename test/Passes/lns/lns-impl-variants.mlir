// approx-lns-impl-variants: one kernel per listed impl behind a variant knob,
// ops retargeted with their table parameters kept, the original kernel as
// the first impl's variant.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,sfu,texture2}))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=horner,texture2,sfu}))' | FileCheck %s --check-prefix=DEGREE
// The remarks (a kernel already dispatched by a variant knob).
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,sfu}))' -o /dev/null
// Without impls, nothing changes.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants))' | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: gpu.module @two_kernels
// CHECK: approx.variant_knob @lns_impl default(0) dispatch {add = [@add, @add__lns_sfu, @add__lns_texture2], sb = [@sb, @sb__lns_sfu, @sb__lns_texture2]}
// CHECK-LABEL: gpu.func @add(
// CHECK: approx.lns.add %{{.*}}, %{{.*}} impl(<precise>) {approx.lns_variant = {knob = @lns_impl, value = 0 : i64}}
// CHECK-LABEL: gpu.func @add__lns_sfu(
// CHECK: approx.lns.add %{{.*}}, %{{.*}} impl(<sfu>) {approx.lns_variant = {knob = @lns_impl, value = 1 : i64}}
// CHECK-LABEL: gpu.func @add__lns_texture2(
// CHECK: approx.lns.add %{{.*}}, %{{.*}} impl(<texture2, segments = 16>) {approx.lns_variant = {knob = @lns_impl, value = 2 : i64}}
// CHECK-LABEL: gpu.func @sb(
// CHECK: approx.lns.sb %{{.*}} impl(<precise>) {approx.lns_variant = {knob = @lns_impl, value = 0 : i64}}
// CHECK-LABEL: gpu.func @sb__lns_sfu(
// CHECK-LABEL: gpu.func @sb__lns_texture2(
// CHECK: approx.lns.sb %{{.*}} impl(<texture2, input_bits = 14>)
// A kernel without LNS ops is left alone.
// CHECK-LABEL: gpu.func @plain(
// CHECK-NOT: __lns_
// OFF-LABEL: gpu.module @two_kernels
// OFF-NOT: @lns_impl
// OFF-NOT: __lns_
gpu.module @two_kernels {
  gpu.func @add(%a: f32, %b: f32, %o: memref<1xf32>) kernel {
    %false = arith.constant false
    %x = approx.lns.pack %a, %false
    %y = approx.lns.pack %b, %false
    %s = approx.lns.add %x, %y impl(#approx.lns_impl<horner, segments = 16>)
    %l, %n = approx.lns.unpack %s
    %c0 = arith.constant 0 : index
    memref.store %l, %o[%c0] : memref<1xf32>
    gpu.return
  }
  gpu.func @sb(%a: f32, %o: memref<1xf32>) kernel {
    %s = approx.lns.sb %a impl(#approx.lns_impl<sfu, input_bits = 14>) : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
  gpu.func @plain(%o: memref<1xf32>) kernel {
    gpu.return
  }
}

// -----

// A kernel another variant knob dispatches is left alone, with a remark.
// CHECK-LABEL: gpu.module @dispatched
// CHECK-NOT: @lns_impl
// CHECK: gpu.func @k(
gpu.module @dispatched {
  approx.variant_knob @other default(0) dispatch {k = [@k, @k2]}
  // expected-remark @+1 {{no LNS impl variants: kernel @k is already dispatched by variant knob @other}}
  gpu.func @k(%a: f32) kernel {
    %s = approx.lns.sb %a impl(#approx.lns_impl<sfu>) : f32
    gpu.return
  }
  gpu.func @k2(%a: f32) kernel {
    gpu.return
  }
}

// -----

// horner's degree stays with horner; the SFU and precise forms take no
// table parameters.
// DEGREE-LABEL: gpu.module @degree
// DEGREE: approx.lns.sb %{{.*}} impl(<horner, segments = 4, degree = 3>)
// DEGREE: approx.lns.sb %{{.*}} impl(<texture2, segments = 4>)
// DEGREE: approx.lns.sb %{{.*}} impl(<sfu>)
gpu.module @degree {
  gpu.func @k(%a: f32, %o: memref<1xf32>) kernel {
    %s = approx.lns.sb %a impl(#approx.lns_impl<horner, segments = 4, degree = 3>) : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
}
