// The verifier's errors on typed knob values and the value attributes.
// RUN: approx-opt %s -split-input-file -verify-diagnostics

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op values has 2 entries for 3 knob values: one per value}}
  approx.knob @k range(0, 2) default(0)
      values([#approx.perforation<accurate>, #approx.perforation<rows>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op values: 7 : i64 is not a knob value (a scheme, block shape, impl or storage attribute)}}
  approx.knob @k range(0, 1) default(0) values([#approx.perforation<accurate>, 7])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op values: two values have the id 'rows1:nn'}}
  approx.knob @k range(0, 1) default(0)
      values([#approx.perforation<rows>, #approx.perforation<rows, skip = 1>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op values has 1 entries for 2 knob values: one per value}}
  approx.variant_knob @v default(0) dispatch {k = [@k1, @k2]}
      values([#approx.block_shape<x = 32, y = 8>])
  gpu.func @k1() kernel { gpu.return }
  gpu.func @k2() kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+2 {{block 64x32 is not 1 to 1024 threads}}
  approx.knob @k range(0, 1) default(0)
      values([#approx.block_shape<x = 64, y = 32>, #approx.block_shape<x = 1, y = 1>])
}

// -----

gpu.module @m {
  // expected-error @+2 {{rows = 65 is not in 1..64}}
  approx.knob @k range(0, 1) default(0)
      values([#approx.block_shape<x = 8, y = 8, rows = 65>, #approx.block_shape<x = 1, y = 1>])
}

// -----

gpu.module @m {
  // expected-error @+2 {{storage type 'f8E4M3FN' is not f64, f32, f16 or bf16}}
  approx.knob @k range(0, 1) default(0)
      values([#approx.storage<f8E4M3FN>, #approx.storage<f32>])
}

// -----

gpu.module @m {
  // expected-error @+2 {{storage_config has 2 arguments and 1 types}}
  approx.knob @k range(0, 1) default(0)
      values([#approx.storage_config<args = [0, 1], types = [f32]>, #approx.storage<f32>])
}

// -----

gpu.module @m {
  // expected-error @+2 {{storage_config arguments must ascend from 0}}
  approx.knob @k range(0, 1) default(0)
      values([#approx.storage_config<args = [1, 0], types = [f32, f32]>, #approx.storage<f32>])
}
