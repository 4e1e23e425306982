// approx-precision-variants types=: bad options and too many combinations
// fail the pass with one line, and nothing changes.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{types=f32,f16,bf16 max-variants=8}))'
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{types=f32,f32}))' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{types=f32,i32}))' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{types=f32 configs=keep:keep}))' 2>&1 | FileCheck %s --check-prefix=BOTH

// TWICE: error: types lists 'f32' twice
// TYPE: error: types names 'i32': expected f64, f32, f16 or bf16
// BOTH: error: configs, types and space are exclusive: give one

// Two f64 arguments with f32, f16 and bf16: 16 combinations > 8.
gpu.module @m {
  // expected-error @below {{kernel @copy would get 16 precision variants (more than max-variants=8)}}
  gpu.func @copy(%x: memref<?xf64>, %y: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %y[%i] : memref<?xf64>
    gpu.return
  }
}
