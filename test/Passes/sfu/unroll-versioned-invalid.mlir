// approx-unroll-versioned: a count out of [2, 64] is a one-line error.
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/one.mlir -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-unroll-versioned{count=1}))'
// RUN: approx-opt %t/big.mlir -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-unroll-versioned{count=65}))'

//--- one.mlir
// expected-error @+1 {{approx-unroll-versioned: count=1 is out of range [2, 64]}}
gpu.module @one {
}

//--- big.mlir
// expected-error @+1 {{approx-unroll-versioned: count=65 is out of range [2, 64]}}
gpu.module @big {
}
