// approx-warp-split: bad options, and a knob already compared against another
// slot source. One line each, nothing changed.
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/slot.mlir -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=lane}))'
// RUN: approx-opt %t/chip.mlir -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-warp-split{chip=gfx90a}))'
// RUN: approx-opt %t/versions.mlir -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-warp-split{max-versions=1}))'
// RUN: approx-opt %t/conflict.mlir -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=virtual}))'

//--- slot.mlir
// expected-error @+1 {{approx-warp-split: slot='lane' is not one of hw, virtual, software}}
gpu.module @bad_slot {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k(%x: f32) kernel {
    %s = approx.sin %x knob(@lambda) : f32
    gpu.return
  }
}

//--- chip.mlir
// expected-error @+1 {{approx-warp-split: chip='gfx90a' is not of the form sm_XY}}
gpu.module @bad_chip {
}

//--- versions.mlir
// expected-error @+1 {{approx-warp-split: max-versions=1 is out of range [2, 1024]}}
gpu.module @bad_versions {
}

//--- conflict.mlir
gpu.module @conflict {
  // expected-error @+1 {{approx-warp-split: knob 'lambda' is already compared against the hw slot; this run asks for slot=virtual}}
  approx.knob @lambda range(0, 64) default(0) warp_slot(hw)
  gpu.func @k(%x: f32) kernel {
    %s = approx.sin %x knob(@lambda) : f32
    gpu.return
  }
}
