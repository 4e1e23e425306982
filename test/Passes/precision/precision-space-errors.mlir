// approx-precision-variants space=: bad options and configurations are
// refused with one error naming the cause, and the module is left alone.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f32,f16 configuration=precision__k__a0=bf16}))'
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f32,i8}))' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f16,f16}))' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f16 types=f16}))' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configuration=precision__k__a0=f16}))' 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f16 configuration=precision__k__a0}))' 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f16 configuration=precision__k__a0=f16,precision__k__a0=f64}))' 2>&1 | FileCheck %s --check-prefix=DUP
// TYPE: error: space names 'i8': expected f64, f32, f16 or bf16
// TWICE: error: space lists 'f16' twice
// BOTH: error: configs, types and space are exclusive: give one
// ALONE: error: configuration= chooses values of space= knobs: give space= too
// ENTRY: error: configuration entry 'precision__k__a0' is not KNOB=VALUE
// DUP: error: configuration names knob 'precision__k__a0' twice

// expected-error @+1 {{configuration: 'bf16' is not a value of knob @precision__k__a0 (f64, f32, f16)}}
gpu.module @not_a_value {
  gpu.func @k(%x: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %x[%i] : memref<?xf64>
    gpu.return
  }
}

// -----

// expected-error @+1 {{symbol @precision__k__a0 exists; the storage knob of argument 0 of @k needs that name (choose another knob=)}}
gpu.module @clash {
  approx.knob @precision__k__a0 range(0, 1) default(0)
  gpu.func @k(%x: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %x[%i] : memref<?xf64>
    gpu.return
  }
}

// -----

// One object of two element types cannot have one storage knob.
gpu.module @object_types {
  gpu.func @k1(%a: memref<?xf64> {approx.object = "A"}) kernel { gpu.return }
  // expected-error @+1 {{memory object 'A' is f64 in @k1 but f32 in argument 0 of @k2}}
  gpu.func @k2(%a: memref<?xf32> {approx.object = "A"}) kernel { gpu.return }
}

// -----

gpu.module @object_bad_name {
  // expected-error @+1 {{memory object 'a b' cannot name knob @precision__a b: it}}
  gpu.func @k(%a: memref<?xf64> {approx.object = "a b"}) kernel { gpu.return }
}
