// approx-warp-split: an unknown slot source and code it cannot version.
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/slot.mlir -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=lane}))'
// RUN: approx-opt %t/multi-block.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-warp-split))'

//--- slot.mlir
// expected-error @+1 {{approx-warp-split: slot='lane' is not one of hw, virtual, software}}
gpu.module @bad_slot {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k(%x: f32) kernel {
    %s = approx.sin %x knob(@lambda) : f32
    gpu.return
  }
}

//--- multi-block.mlir
// Tunable ops in a block of a multi-block region (here a gpu.func body with
// unstructured control flow) cannot be versioned.
gpu.module @multi_block {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @multi_block(%x: f32, %c: i1, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    cf.cond_br %c, ^a, ^b
  ^a:
    // expected-error @+1 {{approx-warp-split: cannot version code in a multi-block region; use structured control flow (scf) around approx ops}}
    %s = approx.sin %x knob(@lambda) : f32
    memref.store %s, %a[%c0] : memref<4xf32>
    gpu.return
  ^b:
    gpu.return
  }
}

// -----

// The same inside a loop in a multi-block function: the loop is the anchor.
gpu.module @multi_block_loop {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @multi_block_loop(%x: f32, %c: i1, %n: index, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    cf.cond_br %c, ^a, ^b
  ^a:
    // expected-error @+1 {{approx-warp-split: cannot version code in a multi-block region; use structured control flow (scf) around approx ops}}
    scf.for %i = %c0 to %n step %c1 {
      %s = approx.exp %x knob(@lambda) : f32
      memref.store %s, %a[%c0] : memref<4xf32>
    }
    gpu.return
  ^b:
    gpu.return
  }
}
