// RUN: approx-opt %s -split-input-file -verify-diagnostics --approx-raise-cuda-kernels

// expected-error @+1 {{approx-raise-cuda-kernels: no kernel: the input defines no __global__ function}}
module {
  llvm.func @device_only(%x: f32) -> f32 {
    llvm.return %x : f32
  }
}

// -----

module {
  // expected-error @+1 {{approx-raise-cuda-kernels: kernel 'k' takes argument 0 by value as a struct; pass its fields or a pointer (the manifest describes pointers and scalars)}}
  llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32)>}) {
    llvm.return
  }
}

// -----

module {
  llvm.func @cudaLaunchDeviceV2(!llvm.ptr, !llvm.ptr) -> i32
  llvm.func ptx_kernelcc @parent(%p: !llvm.ptr) {
    // expected-error @+1 {{approx-raise-cuda-kernels: 'parent' uses dynamic parallelism (a call to 'cudaLaunchDeviceV2'), which approx-cc does not support}}
    %r = llvm.call @cudaLaunchDeviceV2(%p, %p) : (!llvm.ptr, !llvm.ptr) -> i32
    llvm.return
  }
}

// -----

module {
  llvm.func @cudaCGSynchronizeGrid(i64) -> i32
  llvm.func @helper(%h: i64) {
    // expected-error @+1 {{approx-raise-cuda-kernels: 'helper' uses cooperative groups' grid synchronisation (a call to 'cudaCGSynchronizeGrid'), which approx-cc does not support}}
    %r = llvm.call @cudaCGSynchronizeGrid(%h) : (i64) -> i32
    llvm.return
  }
  llvm.func ptx_kernelcc @k(%h: i64) {
    llvm.call @helper(%h) : (i64) -> ()
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{approx-raise-cuda-kernels: kernel 'k': nvvm.maxntid is '25x', not a list of integers}}
  llvm.func ptx_kernelcc @k() attributes {passthrough = [["nvvm.maxntid", "25x"]]} {
    llvm.return
  }
}

// -----

// expected-error @+1 {{approx-raise-cuda-kernels: the input already has a gpu.module; this pass takes clang's imported device code (top-level llvm.funcs)}}
module attributes {gpu.container_module} {
  gpu.module @m {
  }
}
