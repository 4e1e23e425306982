// approx-from-math: bad options are one-line errors, and requests that cannot
// be honoured are warnings. Pass options apply to a whole input, so each RUN
// line takes one split-file part (a missing part fails the run).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/a.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{functions=sin,tan}))'
// RUN: approx-opt %t/b.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{kernels=k,nope}))'
// RUN: approx-opt %t/c.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{kernels=helper}))'
// RUN: approx-opt %t/d.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{newton-steps=4}))'
// RUN: approx-opt %t/e.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{knob=k}))'
// RUN: approx-opt %t/f.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{functions=sin,exp,pow,sqrt}))'
// RUN: approx-opt %t/g.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{knob-max=0}))'
// RUN: approx-opt %t/h.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{knob-max=2147483648}))'
// RUN: approx-opt %t/i.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math{knob=}))'
// RUN: approx-opt %t/j.mlir -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-from-math))'

//--- a.mlir
// expected-error @+1 {{approx-from-math: unknown function 'tan' in functions=; expected one of sin, cos, exp, log, pow, div, rcp, sqrt, rsqrt}}
gpu.module @unknown_function {
  gpu.func @k(%x: f32) kernel {
    %0 = math.sin %x : f32
    gpu.return
  }
}

//--- b.mlir
// expected-error @+1 {{approx-from-math: kernels= names 'nope', which is not a gpu.func kernel of @unknown_kernel}}
gpu.module @unknown_kernel {
  gpu.func @k(%x: f32) kernel {
    %0 = math.sin %x : f32
    gpu.return
  }
}

//--- c.mlir
// A helper (non-kernel) function is not a kernel either.
// expected-error @+1 {{approx-from-math: kernels= names 'helper', which is not a gpu.func kernel of @not_a_kernel}}
gpu.module @not_a_kernel {
  gpu.func @helper(%x: f32) {
    %0 = math.sin %x : f32
    gpu.return
  }
}

//--- d.mlir
// expected-error @+1 {{approx-from-math: newton-steps=4 is out of range [0, 3]}}
gpu.module @too_many_steps {
  gpu.func @k(%x: f64) kernel {
    %0 = math.sqrt %x : f64
    gpu.return
  }
}

//--- e.mlir
// expected-error @+1 {{approx-from-math: knob name 'k' is already taken by a 'gpu.func'}}
gpu.module @knob_name_taken {
  gpu.func @k(%x: f32) kernel {
    %0 = math.sin %x : f32
    gpu.return
  }
}

// -----

// expected-error @+1 {{approx-from-math: knob name 'k' is already taken by a 'memref.global'}}
gpu.module @knob_name_taken_global {
  memref.global "private" @k : memref<4xf32>
  gpu.func @kern(%x: f32) kernel {
    %0 = math.exp %x : f32
    gpu.return
  }
}

//--- f.mlir
// f64 sin/exp/pow named in functions= without f64-demote: left precise, said so;
// and an f32 op on a vector or f16 named in functions= is said to be left too.
gpu.module @f64_no_demote {
  gpu.func @k(%x: f64, %v: vector<4xf32>, %h: f16) kernel {
    // expected-warning @+1 {{approx-from-math: f64 sin has no SFU form and was left precise; pass f64-demote=true for the f32-demoted SFU form}}
    %0 = math.sin %x : f64
    // expected-warning @+1 {{approx-from-math: f64 exp has no SFU form and was left precise; pass f64-demote=true for the f32-demoted SFU form}}
    %1 = math.exp %0 : f64
    // expected-warning @+1 {{approx-from-math: f64 pow has no SFU form and was left precise; pass f64-demote=true for the f32-demoted SFU form}}
    %2 = math.powf %1, %x : f64
    // Not named: no warning.
    %3 = math.cos %2 : f64
    // A function with an f64 SFU form: converted, no warning.
    %4 = math.sqrt %3 : f64
    // expected-warning @+1 {{approx-from-math: sin on 'vector<4xf32>' left precise: approx functions take f32 or f64 scalars}}
    %5 = math.sin %v : vector<4xf32>
    // expected-warning @+1 {{approx-from-math: exp on 'f16' left precise: approx functions take f32 or f64 scalars}}
    %6 = math.exp %h : f16
    gpu.return
  }
}

//--- g.mlir
// expected-error @+1 {{approx-from-math: knob-max=0 is out of range [1, 2^31-1]}}
gpu.module @knob_max_zero {
  gpu.func @k(%x: f32) kernel {
    %0 = math.sin %x : f32
    gpu.return
  }
}

//--- h.mlir
// expected-error @+1 {{approx-from-math: knob-max=2147483648 is out of range [1, 2^31-1]}}
gpu.module @knob_max_too_big {
  gpu.func @k(%x: f32) kernel {
    %0 = math.sin %x : f32
    gpu.return
  }
}

//--- i.mlir
// expected-error @+1 {{approx-from-math: knob= must name a knob}}
gpu.module @empty_knob_name {
  gpu.func @k(%x: f32) kernel {
    %0 = math.sin %x : f32
    gpu.return
  }
}

//--- j.mlir
// Without functions=, nothing is named: f64 sin is left alone silently.
gpu.module @f64_unnamed {
  gpu.func @k(%x: f64) kernel {
    %0 = math.sin %x : f64
    gpu.return
  }
}
