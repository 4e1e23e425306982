// RUN: rm -rf %t && mkdir -p %t
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(approx-export{output-dir=%t name=k})'
// RUN: ls %t | count 0

// A gpu.binary the manifest does not describe: refused, nothing written.
module attributes {gpu.container_module} {
  // expected-error @+1 {{approx-export: no manifest record for gpu.binary 'kernels'; run approx-record-manifest before lowering}}
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8">]
}

// -----

// A long symbol name is shortened in the message.
module attributes {gpu.container_module} {
  // expected-error-re @+1 {{approx-export: no manifest record for gpu.binary 'k{{x+}}...[96 bytes]...{{x+}}z'}}
  gpu.binary @kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxz [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8">]
}

// -----

// A hand-written record with a number JSON cannot hold: refused, not printed
// as `inf` into a manifest no JSON reader takes.
module attributes {gpu.container_module, approx.manifest = {kernels = {kernels = [{name = "k", shape = [1.0e309]}]}}} {
  // expected-error @+1 {{approx-export: the manifest record of 'kernels' holds the number inf, which JSON cannot represent (in 'kernels'); it is not a record approx-record-manifest wrote}}
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8">]
}

// -----

module attributes {gpu.container_module, approx.manifest = {kernels = {knobs = [{name = "lambda", max = 18446744073709551615 : ui64}]}}} {
  // expected-error @+1 {{approx-export: the manifest record of 'kernels' holds the integer 18446744073709551615, which does not fit in 64 bits (in 'knobs')}}
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8">]
}

// -----

module attributes {gpu.container_module, approx.manifest = {kernels = {knobs = [{name = "lambda", max = 170141183460469231731687303715884105727 : i128}]}}} {
  // expected-error @+1 {{approx-export: the manifest record of 'kernels' holds the integer 170141183460469231731687303715884105727, which does not fit in 64 bits (in 'knobs')}}
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8">]
}
