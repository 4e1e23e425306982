// approx-record-manifest on a gpu.module without a kernel: a manifest with
// no kernel is legal, but likely a mistake (helpers compiled alone, a
// missing `kernel` keyword), so it warns.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --approx-record-manifest | FileCheck %s

// CHECK-LABEL: module attributes {approx.manifest = {helpers = {gpu_module = "helpers", kernels = [], knobs = [], sites = []}}}
// expected-warning @+1 {{approx-record-manifest: gpu.module 'helpers' has no kernel (gpu.func ... kernel): its manifest lists none}}
gpu.module @helpers {
  func.func @f() {
    return
  }
  gpu.func @not_a_kernel() {
    gpu.return
  }
}
