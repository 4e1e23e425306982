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
