// approx-lns-version's errors, and the verifier of the approx.lns_split
// attribute it writes.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-version))' -verify-diagnostics
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-version{max-versions=1}))' 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: approx-lns-version: max-versions=1 is out of range [2, 1024]

// One knob, two slot kinds in one function.
gpu.module @two_slots {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k(%x: f32, %o: memref<2xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<split, knob = @lambda, slot = hw>) : f32
    // expected-error @+1 {{knob @lambda is compared against the hw slot elsewhere, not virtual}}
    %d = approx.lns.db %x impl(#approx.lns_impl<split, knob = @lambda, slot = virtual>) : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %d, %o[%c0] : memref<2xf32>
    gpu.return
  }
}

// -----

// The knob already compares another slot kind (approx-warp-split or an
// earlier run said so).
gpu.module @knob_slot {
  // expected-error @+1 {{approx-lns-version: knob 'lambda' compares hw warp slots elsewhere, not software}}
  approx.knob @lambda range(0, 64) default(0) warp_slot(hw)
  gpu.func @k(%x: f32, %o: memref<1xf32>) kernel {
    %s = approx.lns.sb %x impl(#approx.lns_impl<split, knob = @lambda, slot = software>) : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

gpu.module @marker_side {
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{'approx.lns_split' side "texture2" does not match impl sfu}}
    %s = approx.lns.sb %x impl(#approx.lns_impl<sfu>) {approx.lns_split = {knob = @lambda, side = "texture2", versioning = "region"}} : f32
    gpu.return
  }
}

// -----

gpu.module @marker_shape {
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{'approx.lns_split' is {knob = @λ, side = "texture2" | "sfu", versioning = "region" | "per-op"} on an LNS op with an impl}}
    %s = approx.lns.sb %x impl(#approx.lns_impl<sfu>) {approx.lns_split = {knob = @lambda, side = "sfu", versioning = "sometimes"}} : f32
    gpu.return
  }
}

// -----

gpu.module @marker_op {
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{'approx.lns_split' is {knob = @λ}}
    %y = arith.addf %x, %x {approx.lns_split = {knob = @lambda, side = "sfu", versioning = "region"}} : f32
    gpu.return
  }
}
