// approx.build_knob: a knob fixed when the module is built (docs/
// configurations.md): the values it could take, the one this build took,
// and, for a storage knob, the memory object it types. Round trip.
// RUN: approx-opt %s -split-input-file | approx-opt -split-input-file | FileCheck %s

// CHECK-LABEL: gpu.module @storage
// CHECK: approx.build_knob @precision__k__a0 default(0) value(1) values([#approx.storage<f64>, #approx.storage<f32>, #approx.storage<f16>]) object(@k, 0)
// CHECK: approx.build_knob @precision__k__a1 default(0) value(0) values([#approx.storage<f32>, #approx.storage<bf16>]) object(@k, 1)
gpu.module @storage {
  approx.build_knob @precision__k__a0 default(0) value(1)
      values([#approx.storage<f64>, #approx.storage<f32>, #approx.storage<f16>])
      object(@k, 0)
  approx.build_knob @precision__k__a1 default(0) value(0)
      values([#approx.storage<f32>, #approx.storage<bf16>]) object(@k, 1)
  gpu.func @k(%x: memref<?xf32>, %y: memref<?xf32>) kernel { gpu.return }
}

// -----

// A build knob need not type an object: any typed values will do.
// CHECK-LABEL: gpu.module @schemes
// CHECK: approx.build_knob @scheme default(0) value(0) values([#approx.perforation<accurate>, #approx.perforation<rows>]){{$}}
gpu.module @schemes {
  approx.build_knob @scheme default(0) value(0)
      values([#approx.perforation<accurate>, #approx.perforation<rows>])
}

// -----

// A memory object passed to two kernels: one knob, one type for both.
// CHECK-LABEL: gpu.module @shared_object
// CHECK: approx.build_knob @precision__A default(0) value(1) values([#approx.storage<f64>, #approx.storage<f32>]) object(@k1, 0) also {{\[\[}}@k2, 1]] named "A"
gpu.module @shared_object {
  approx.build_knob @precision__A default(0) value(1)
      values([#approx.storage<f64>, #approx.storage<f32>])
      object(@k1, 0) also [[@k2, 1]] named "A"
  gpu.func @k1(%x: memref<?xf32>) kernel { gpu.return }
  gpu.func @k2(%n: memref<?xi32>, %x: memref<?xf32>) kernel { gpu.return }
}
