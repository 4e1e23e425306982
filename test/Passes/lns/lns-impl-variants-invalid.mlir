// approx-lns-impl-variants' errors: one line each, naming the cause.
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,split}))' 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: approx-lns-impl-variants: impls=split: split is tuned through its own λ knob, not as a variant
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,cordic}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: approx-lns-impl-variants: impls='cordic' is not one of precise, sfu, horner, texture1, texture2, texture3
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=sfu,precise,sfu}))' 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: approx-lns-impl-variants: impls lists sfu twice
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=sfu}))' 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: approx-lns-impl-variants: impls needs two or more impls to choose among
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,sfu knob=9lives}))' 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: approx-lns-impl-variants: knob='9lives':
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,sfu knob=taken}))' 2>&1 | FileCheck %s --check-prefix=TAKEN
// TAKEN: approx-lns-impl-variants: symbol @taken exists; the LNS impl variant knob needs that name (choose another knob=)
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,texture3}))' 2>&1 | FileCheck %s --check-prefix=PARAMS
// PARAMS: 'approx.lns.sb' op as impl texture3 in kernel @k__lns_texture3:
// PARAMS-SAME: 1024
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-lns-impl-variants{impls=precise,sfu}))' 2>&1 | FileCheck %s --check-prefix=HELPER
// HELPER: approx-lns-impl-variants: function @helper holds LNS ops but is not a kernel: inline it first (approx-to-ptx does)
gpu.module @m {
  approx.knob @taken range(0, 1) default(0)
  gpu.func @k(%a: f32) kernel {
    %s = approx.lns.sb %a impl(#approx.lns_impl<texture2, segments = 1024>) : f32
    gpu.return
  }
}

// -----

gpu.module @n {
  gpu.func @helper(%a: f32) -> f32 {
    %s = approx.lns.sb %a impl(#approx.lns_impl<sfu>) : f32
    gpu.return %s : f32
  }
}
