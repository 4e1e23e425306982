// approx-lns-version: split ops are versioned around their loop (one
// warp-uniform branch outside it), each copy pinned to one side, with the
// barrier and max-versions rules of approx-warp-split (common/WarpVersioning).
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-version))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(approx-lns-expand,gpu.module(approx-lns-version,approx-lns-lower))' | FileCheck %s --check-prefix=SITES

// A loop of sb and db: versioned once, outside the loop; the knob learns its
// slot kind.
// CHECK-LABEL: gpu.module @loop
// CHECK: approx.knob @lambda range(0, 64) default(0) warp_slot(virtual)
// CHECK: %[[SLOT:.*]] = approx.warp_slot virtual : i32
// CHECK-NEXT: %[[L:.*]] = approx.knob_value @lambda : i32
// CHECK-NEXT: %[[F:.*]] = arith.cmpi ult, %[[SLOT]], %[[L]] : i32
// CHECK: %[[R:.*]] = scf.if %[[F]] -> (f32) {
// CHECK-NEXT: scf.for
// CHECK: approx.lns.sb %{{.*}} impl(<texture2, segments = 16>) nonpositive {approx.lns_split = {knob = @lambda, side = "texture2", versioning = "region"}}
// CHECK-NEXT: approx.lns.db %{{.*}} impl(<texture2, segments = 16>) nonpositive {approx.lns_split = {knob = @lambda, side = "texture2", versioning = "region"}}
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: approx.lns.sb %{{.*}} impl(<sfu>) nonpositive {approx.lns_split = {knob = @lambda, side = "sfu", versioning = "region"}}
// CHECK-NEXT: approx.lns.db %{{.*}} impl(<sfu>) nonpositive {approx.lns_split = {knob = @lambda, side = "sfu", versioning = "region"}}
// CHECK: memref.store %[[R]]
// CHECK-NOT: split
// CHECK: gpu.return
// Each pinned op is recorded as a tunable site of the knob, on its side.
// SITES-LABEL: gpu.module @loop
// SITES-SAME: op = "sb", type = f32, knob = @lambda, form = tunable
// SITES-SAME: impl = "split"
// SITES-SAME: side = "texture2"
// SITES-SAME: versioning = "region"
// SITES-SAME: side = "sfu"
gpu.module @loop {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k(%a: memref<?xf32>, %o: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
      %x = memref.load %a[%i] : memref<?xf32>
      %s = approx.lns.sb %x impl(#approx.lns_impl<split, segments = 16, knob = @lambda, slot = virtual>) nonpositive : f32
      %d = approx.lns.db %x impl(#approx.lns_impl<split, segments = 16, knob = @lambda, slot = virtual>) nonpositive : f32
      %v = arith.addf %s, %d : f32
      %n0 = arith.addf %acc, %v : f32
      scf.yield %n0 : f32
    }
    memref.store %r, %o[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// A barrier in the loop: never under the branch; the spans on either side
// of it are versioned inside the loop.
// CHECK-LABEL: gpu.module @barrier
// CHECK: %[[F:.*]] = arith.cmpi ult
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: %[[A:.*]] = scf.if %[[F]] -> (f32) {
// CHECK-NEXT: approx.lns.sb %{{.*}} impl(<texture2>)
// CHECK: } else {
// CHECK-NEXT: approx.lns.sb %{{.*}} impl(<sfu>)
// CHECK: memref.store %[[A]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK-NEXT: scf.if %[[F]] -> (f32) {
// CHECK-NEXT: approx.lns.db %{{.*}} impl(<texture2>)
// CHECK: } else {
// CHECK-NEXT: approx.lns.db %{{.*}} impl(<sfu>)
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @barrier {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k(%a: memref<?xf32>, %n: index)
      workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %s = approx.lns.sb %x impl(#approx.lns_impl<split, knob = @lambda>) nonpositive : f32
      memref.store %s, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %tile[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %d = approx.lns.db %y impl(#approx.lns_impl<split, knob = @lambda>) nonpositive : f32
      memref.store %d, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Two knobs in one span: four copies, nested, each pinned on both knobs;
// ops of other impls are copied untouched.
// CHECK-LABEL: gpu.module @two_knobs
// CHECK: %[[FA:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: %[[FB:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: scf.if %[[FA]]
// CHECK-NEXT: scf.if %[[FB]]
// CHECK-NEXT: scf.for
// CHECK: approx.lns.sb %{{.*}} impl(<texture2>) nonpositive {approx.lns_split = {knob = @a, side = "texture2"
// CHECK-NEXT: approx.lns.sb %{{.*}} impl(<precise>) nonpositive : f32
// CHECK-NEXT: approx.lns.db %{{.*}} impl(<texture2>) nonpositive {approx.lns_split = {knob = @b, side = "texture2"
// CHECK: scf.for
// CHECK: approx.lns.sb %{{.*}} impl(<texture2>) nonpositive {approx.lns_split = {knob = @a
// CHECK: approx.lns.db %{{.*}} impl(<sfu>) nonpositive {approx.lns_split = {knob = @b, side = "sfu"
// CHECK: scf.if %[[FB]]
// CHECK-NEXT: scf.for
// CHECK: approx.lns.sb %{{.*}} impl(<sfu>) nonpositive {approx.lns_split = {knob = @a, side = "sfu"
// CHECK: approx.lns.db %{{.*}} impl(<texture2>) nonpositive {approx.lns_split = {knob = @b
// CHECK: scf.for
// CHECK: approx.lns.sb %{{.*}} impl(<sfu>) nonpositive {approx.lns_split = {knob = @a
// CHECK: approx.lns.db %{{.*}} impl(<sfu>) nonpositive {approx.lns_split = {knob = @b
// CHECK-NOT: scf.for
// CHECK: gpu.return
gpu.module @two_knobs {
  approx.knob @a range(0, 64) default(0)
  approx.knob @b range(0, 64) default(0)
  gpu.func @k(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %s = approx.lns.sb %x impl(#approx.lns_impl<split, knob = @a>) nonpositive : f32
      %p = approx.lns.sb %x impl(#approx.lns_impl<precise>) nonpositive : f32
      %d = approx.lns.db %x impl(#approx.lns_impl<split, knob = @b>) nonpositive : f32
      %v = arith.addf %s, %d : f32
      %w = arith.addf %v, %p : f32
      memref.store %w, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Beyond max-versions (2 copies for 2 knobs): one branch per op, inside the
// loop, and the sites say so.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-version{max-versions=2}))' | FileCheck %s --check-prefix=PEROP
// PEROP-LABEL: gpu.module @per_op
// PEROP: scf.for
// PEROP: scf.if
// PEROP: approx.lns.sb %{{.*}} impl(<texture2>) nonpositive {approx.lns_split = {knob = @a, side = "texture2", versioning = "per-op"}}
// PEROP: scf.if
// PEROP: approx.lns.db %{{.*}} impl(<texture2>) nonpositive {approx.lns_split = {knob = @b, side = "texture2", versioning = "per-op"}}
// PEROP-NOT: scf.for
// PEROP: gpu.return
gpu.module @per_op {
  approx.knob @a range(0, 64) default(0)
  approx.knob @b range(0, 64) default(0)
  gpu.func @k(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %s = approx.lns.sb %x impl(#approx.lns_impl<split, knob = @a>) nonpositive : f32
      %d = approx.lns.db %x impl(#approx.lns_impl<split, knob = @b>) nonpositive : f32
      %v = arith.addf %s, %d : f32
      memref.store %v, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Before approx-lns-expand: an lns.add with a split impl is versioned too.
// No split op: nothing changes.
// CHECK-LABEL: gpu.module @add_and_none
// CHECK: scf.if
// CHECK: approx.lns.add %{{.*}}, %{{.*}} impl(<texture2>) {approx.lns_split = {knob = @lambda, side = "texture2"
// CHECK: approx.lns.add %{{.*}}, %{{.*}} impl(<sfu>) {approx.lns_split = {knob = @lambda, side = "sfu"
// CHECK-LABEL: gpu.func @none
// CHECK-NOT: scf.if
// CHECK-NOT: approx.warp_slot
// CHECK: approx.lns.sb %{{.*}} impl(<texture2>) : f32
// CHECK-NEXT: gpu.return
gpu.module @add_and_none {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k(%a: f32, %b: f32, %o: memref<1xf32>) kernel {
    %x = approx.lns.from_float %a : f32
    %y = approx.lns.from_float %b : f32
    %s = approx.lns.add %x, %y impl(#approx.lns_impl<split, knob = @lambda>)
    %f = approx.lns.to_float %s : f32
    %c0 = arith.constant 0 : index
    memref.store %f, %o[%c0] : memref<1xf32>
    gpu.return
  }
  gpu.func @none(%a: f32) kernel {
    %s = approx.lns.sb %a impl(#approx.lns_impl<texture2>) : f32
    gpu.return
  }
}
