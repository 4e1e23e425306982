// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-unwrap-externals))' | FileCheck %s

// convert-gpu-to-nvvm's output for `func.func private @__nv_sinf(f32) -> f32`:
// the wrapper becomes the declaration again, the _mlir_ciface_ one goes.
// CHECK-LABEL: gpu.module @declared
// CHECK:       llvm.func @__nv_sinf(f32) -> f32
// CHECK-NOT:   _mlir_ciface___nv_sinf
// CHECK:       llvm.call @__nv_sinf
gpu.module @declared {
  llvm.func private @__nv_sinf(%arg0: f32) -> f32 attributes {llvm.emit_c_interface} {
    %0 = llvm.call @_mlir_ciface___nv_sinf(%arg0) : (f32) -> f32
    llvm.return %0 : f32
  }
  llvm.func @_mlir_ciface___nv_sinf(f32) -> f32 attributes {llvm.emit_c_interface, sym_visibility = "private"}
  llvm.func @k(%arg0: f32, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
    %0 = llvm.call @__nv_sinf(%arg0) : (f32) -> f32
    llvm.store %0, %arg1 : f32, !llvm.ptr
    llvm.return
  }
}

// -----

// A defined function's wrapper calls the function, not an external: kept.
// CHECK-LABEL: gpu.module @defined
// CHECK:       llvm.func @helper(%{{.*}}: f32) -> f32
// CHECK:       llvm.func @_mlir_ciface_helper(%{{.*}}: f32) -> f32
// CHECK-NEXT:    llvm.call @helper
gpu.module @defined {
  llvm.func @helper(%arg0: f32) -> f32 attributes {llvm.emit_c_interface} {
    llvm.return %arg0 : f32
  }
  llvm.func @_mlir_ciface_helper(%arg0: f32) -> f32 attributes {llvm.emit_c_interface} {
    %0 = llvm.call @helper(%arg0) : (f32) -> f32
    llvm.return %0 : f32
  }
}

// -----

// A void declaration.
// CHECK-LABEL: gpu.module @void_decl
// CHECK:       llvm.func @sink(i32)
// CHECK-NOT:   _mlir_ciface_sink
gpu.module @void_decl {
  llvm.func private @sink(%arg0: i32) attributes {llvm.emit_c_interface} {
    llvm.call @_mlir_ciface_sink(%arg0) : (i32) -> ()
    llvm.return
  }
  llvm.func @_mlir_ciface_sink(i32) attributes {llvm.emit_c_interface, sym_visibility = "private"}
}

// -----

// The C interface of a memref argument takes a descriptor pointer: the
// signatures differ and the wrapper is not a plain forward. Left alone.
// CHECK-LABEL: gpu.module @descriptor
// CHECK:       llvm.func private @ext(%{{.*}}: !llvm.ptr, %{{.*}}: i64)
// CHECK:         llvm.call @_mlir_ciface_ext
// CHECK:       llvm.func @_mlir_ciface_ext(!llvm.ptr)
gpu.module @descriptor {
  llvm.func private @ext(%arg0: !llvm.ptr, %arg1: i64) attributes {llvm.emit_c_interface} {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
    llvm.call @_mlir_ciface_ext(%a) : (!llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @_mlir_ciface_ext(!llvm.ptr) attributes {llvm.emit_c_interface, sym_visibility = "private"}
}

// -----

// A body that does more than forward is not a wrapper: left alone.
// CHECK-LABEL: gpu.module @not_a_forward
// CHECK:       llvm.func private @g(%{{.*}}: f32) -> f32
// CHECK:         llvm.fadd
// CHECK:       llvm.func @_mlir_ciface_g(f32) -> f32
gpu.module @not_a_forward {
  llvm.func private @g(%arg0: f32) -> f32 attributes {llvm.emit_c_interface} {
    %0 = llvm.fadd %arg0, %arg0 : f32
    %1 = llvm.call @_mlir_ciface_g(%0) : (f32) -> f32
    llvm.return %1 : f32
  }
  llvm.func @_mlir_ciface_g(f32) -> f32 attributes {llvm.emit_c_interface, sym_visibility = "private"}
}
