// approx-precision-variants space= beside host code: the default build keeps
// the kernel as written, so the launch still verifies; a configuration that
// changes a launched kernel's argument type is refused at the launch.
// RUN: approx-opt %s --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f16}))' | FileCheck %s
// RUN: approx-opt %s -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f16 configuration=precision__k__a0=f16}))'

// CHECK-LABEL: gpu.module @kernels
// CHECK: approx.build_knob @precision__k__a0 default(0) value(0)
// CHECK: gpu.func @k(%{{.*}}: memref<?xf64>)
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@k {{.*}} args(%{{.*}} : memref<?xf64>)
// A non-default value would change a kernel the host code beside it launches.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf64>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf64>
      memref.store %v, %x[%i] : memref<?xf64>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{configuration: @precision__k__a0=f16 changes the type of argument 0 of @k, which this host code launches: build the gpu.module without its host code}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf64>)
    return
  }
}
