// approx.build_knob's verifier: one diagnostic per mistake, naming it.
// RUN: approx-opt %s -split-input-file -verify-diagnostics

gpu.module @one_value {
  // expected-error @+1 {{'approx.build_knob' op values has 1 entries: a choice needs at least 2}}
  approx.build_knob @b default(0) value(0) values([#approx.storage<f32>])
}

// -----

gpu.module @value_out_of_range {
  // expected-error @+1 {{'approx.build_knob' op value(2) lies outside [0, 1]}}
  approx.build_knob @b default(0) value(2)
      values([#approx.storage<f32>, #approx.storage<f16>])
}

// -----

gpu.module @default_out_of_range {
  // expected-error @+1 {{'approx.build_knob' op default(-1)}}
  approx.build_knob @b default(-1) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>])
}

// -----

gpu.module @untyped_value {
  // expected-error @+1 {{'approx.build_knob' op values: 3 : i64 is not a knob value}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, 3])
}

// -----

gpu.module @object_not_storage {
  // expected-error @+1 {{'approx.build_knob' op the values of a storage knob (object(...)) must be #approx.storage attributes}}
  approx.build_knob @b default(0) value(0)
      values([#approx.perforation<accurate>, #approx.perforation<rows>])
      object(@k, 0)
  gpu.func @k(%x: memref<?xf32>) kernel { gpu.return }
}

// -----

gpu.module @object_not_a_kernel {
  // expected-error @+1 {{'approx.build_knob' op object names @nope, which is not a kernel of the module}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>]) object(@nope, 0)
  gpu.func @k(%x: memref<?xf32>) kernel { gpu.return }
}

// -----

gpu.module @object_arg_missing {
  // expected-error @+1 {{'approx.build_knob' op object argument 3 does not exist: @k takes 1}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>]) object(@k, 3)
  gpu.func @k(%x: memref<?xf32>) kernel { gpu.return }
}

// -----

gpu.module @object_type_differs {
  // expected-error @+1 {{'approx.build_knob' op object argument 0 of @k is 'memref<?xf32>', not a memref of 'f16' (the knob's value(1))}}
  approx.build_knob @b default(0) value(1)
      values([#approx.storage<f32>, #approx.storage<f16>]) object(@k, 0)
  gpu.func @k(%x: memref<?xf32>) kernel { gpu.return }
}

// -----

gpu.module @also_without_object {
  // expected-error @+1 {{'approx.build_knob' op also and named describe a memory object: give object(@kernel, arg) first}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>]) also [[@k, 0]]
  gpu.func @k(%x: memref<?xf32>) kernel { gpu.return }
}

// -----

gpu.module @also_malformed {
  // expected-error @+1 {{'approx.build_knob' op also entry 0 is not [@kernel, argument index]}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>]) object(@k, 0)
      also [[@k]]
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel { gpu.return }
}

// -----

gpu.module @also_twice {
  // expected-error @+1 {{'approx.build_knob' op the memory object lists argument 0 of @k twice}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>]) object(@k, 0)
      also [[@k, 0]]
  gpu.func @k(%x: memref<?xf32>) kernel { gpu.return }
}

// -----

gpu.module @also_other_type {
  // expected-error @+1 {{'approx.build_knob' op object argument 0 of @k2 is 'memref<?xf64>', not a memref of 'f32' (the knob's value(0))}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>]) object(@k1, 0)
      also [[@k2, 0]]
  gpu.func @k1(%x: memref<?xf32>) kernel { gpu.return }
  gpu.func @k2(%x: memref<?xf64>) kernel { gpu.return }
}

// -----

gpu.module @empty_name {
  // expected-error @+1 {{'approx.build_knob' op named needs a non-empty name}}
  approx.build_knob @b default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<f16>]) object(@k, 0)
      named ""
  gpu.func @k(%x: memref<?xf32>) kernel { gpu.return }
}
