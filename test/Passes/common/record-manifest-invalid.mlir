// approx-record-manifest: kernel arguments a launcher cannot pass.
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/descriptor.mlir -split-input-file -verify-diagnostics --approx-record-manifest
// RUN: approx-opt %t/bare.mlir -split-input-file -verify-diagnostics --approx-record-manifest=bare-ptr=true

//--- descriptor.mlir
gpu.module @vector_arg {
  // expected-error @+1 {{approx-record-manifest: argument #1 of kernel @k has type 'vector<4xf32>', which a launcher cannot pass}}
  gpu.func @k(%x: f32, %v: vector<4xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @odd_int_arg {
  // expected-error @+1 {{approx-record-manifest: argument #0 of kernel @k has type 'i7', which a launcher cannot pass}}
  gpu.func @k(%x: i7) kernel {
    gpu.return
  }
}

// -----

gpu.module @strided_memref {
  // expected-error @+1 {{approx-record-manifest: argument #0 of kernel @k has type 'memref<4xf32, strided<[2]>>', which a launcher cannot describe (need an identity-layout memref of a scalar element type)}}
  gpu.func @k(%a: memref<4xf32, strided<[2]>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @vector_memref {
  // expected-error @+1 {{approx-record-manifest: argument #2 of kernel @k has type 'memref<4xvector<2xf32>>', which a launcher cannot describe (need an identity-layout memref of a scalar element type)}}
  gpu.func @k(%a: memref<4xf32>, %n: index, %b: memref<4xvector<2xf32>>) kernel {
    gpu.return
  }
}

// -----

// Only kernels matter: a helper with such an argument is fine, the error
// names the kernel.
gpu.module @helper_ok {
  gpu.func @helper(%v: vector<4xf32>) {
    gpu.return
  }
  // expected-error @+1 {{approx-record-manifest: argument #0 of kernel @k2 has type 'complex<f32>', which a launcher cannot pass}}
  gpu.func @k2(%c: complex<f32>) kernel {
    gpu.return
  }
}

//--- bare.mlir
gpu.module @dynamic_bare {
  // expected-error @+1 {{approx-record-manifest: bare-ptr needs static shapes, but argument #1 of kernel @k is 'memref<?xf32>'}}
  gpu.func @k(%a: memref<4xf32>, %b: memref<?xf32>) kernel {
    gpu.return
  }
}
