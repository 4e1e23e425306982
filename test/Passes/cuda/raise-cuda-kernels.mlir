// RUN: approx-opt %s -split-input-file --approx-raise-cuda-kernels='module-name=bm' | FileCheck %s

// clang's imported device code: the kernel becomes a gpu.func with its CFG,
// argument attributes and launch bounds; device functions and globals move
// along; module flags and host data-layout facts go.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NOT:   llvm.module_flags
// CHECK:       gpu.module @bm {
// CHECK:         llvm.mlir.global internal @table
// CHECK:         gpu.func @_Z1kPfi(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i32) kernel
// CHECK-SAME:      nvvm.maxntid = array<i32: 256>
// CHECK-SAME:      nvvm.minctasm = 2 : i32
// CHECK:           llvm.cond_br
// CHECK:           llvm.call @helper
// CHECK:           gpu.return
// CHECK:         llvm.func @helper(%{{.*}}: f32) -> f32
// CHECK:           llvm.return
module attributes {llvm.target_triple = "nvptx64-nvidia-cuda", llvm.ident = "clang"} {
  llvm.module_flags [#llvm.mlir.module_flag<override, "nvvm-reflect-ftz", 0 : i32>]
  llvm.mlir.global internal @table(dense<1.0> : tensor<4xf32>) {addr_space = 1 : i32} : !llvm.array<4 x f32>
  llvm.func ptx_kernelcc @_Z1kPfi(%p: !llvm.ptr {llvm.noalias}, %n: i32) attributes {passthrough = ["mustprogress", ["nvvm.maxntid", "256"], ["nvvm.minctasm", "2"]]} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %in = llvm.icmp "slt" %c0, %n : i32
    llvm.cond_br %in, ^bb1, ^bb2
  ^bb1:
    %x = llvm.load %p : !llvm.ptr -> f32
    %y = llvm.call @helper(%x) : (f32) -> f32
    llvm.store %y, %p : f32, !llvm.ptr
    llvm.br ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @helper(%x: f32) -> f32 {
    llvm.return %x : f32
  }
}

// -----

// __launch_bounds__ with three dimensions and __cluster_dims__.
// CHECK-LABEL: gpu.func @k() kernel
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-SAME:    nvvm.maxntid = array<i32: 32, 8, 1>
module {
  llvm.func ptx_kernelcc @k() attributes {passthrough = [["nvvm.maxntid", "32,8,1"], ["nvvm.cluster_dim", "2,1,1"]]} {
    llvm.return
  }
}
