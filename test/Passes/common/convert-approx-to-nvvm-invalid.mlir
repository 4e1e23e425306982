// convert-approx-to-nvvm: tunable (unpinned) ops cannot be lowered; a bad
// chip is one line at the module.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm))'
// RUN: echo 'gpu.module @m {}' | not approx-opt --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm{chip=gfx90a}))' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: convert-approx-to-nvvm: chip='gfx90a' is not of the form sm_XY

gpu.module @unpinned {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @unpinned(%x: f32) kernel {
    // expected-error @+1 {{convert-approx-to-nvvm: 'approx.sin' is tunable (no form); run approx-warp-split first}}
    %0 = approx.sin %x knob(@lambda) : f32
    gpu.return
  }
}

// -----

// Reported once, at the first unpinned op, even after pinned ones.
gpu.module @unpinned_after_pinned {
  approx.knob @lambda range(0, 64) default(0)
  func.func @unpinned_after_pinned(%x: f64) -> f64 {
    %0 = approx.rcp %x knob(@lambda) form(sfu) : f64
    // expected-error @+1 {{convert-approx-to-nvvm: 'approx.rsqrt' is tunable (no form); run approx-warp-split first}}
    %1 = approx.rsqrt %0 knob(@lambda) {newton_steps = 2 : i32} : f64
    %2 = approx.div %1, %x knob(@lambda) : f64
    return %2 : f64
  }
}

// -----

// Nested in a loop.
gpu.module @unpinned_in_loop {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @unpinned_in_loop(%x: f32, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{convert-approx-to-nvvm: 'approx.pow' is tunable (no form); run approx-warp-split first}}
      %0 = approx.pow %x, %x knob(@lambda) : f32
    }
    gpu.return
  }
}

// -----

// form(correct)'s table has a reserved name.
gpu.module @table_name_taken {
  approx.knob @lambda range(0, 64) default(0)
  // expected-error @+1 {{convert-approx-to-nvvm: symbol '__approx_correct_log_f32' is taken; form(correct) keeps its hard-case table there}}
  func.func private @__approx_correct_log_f32()
  func.func @f(%x: f32) -> f32 {
    %0 = approx.log %x knob(@lambda) form(correct) : f32
    return %0 : f32
  }
}
