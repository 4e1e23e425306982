// approx-record-manifest: kernel arguments a launcher cannot pass, and names
// that cannot be PTX symbols, and approx.sites that do not match the code.
// One line each, naming the argument, symbol or site.
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/descriptor.mlir -split-input-file -verify-diagnostics --approx-record-manifest
// RUN: approx-opt %t/bare.mlir -split-input-file -verify-diagnostics --approx-record-manifest=bare-ptr=true
// RUN: approx-opt %t/names.mlir -split-input-file -verify-diagnostics --approx-record-manifest

//--- descriptor.mlir
gpu.module @odd_int_arg {
  // expected-error @+1 {{approx-record-manifest: argument #0 of kernel @k has type 'i7', which a launcher cannot pass (supported: integers, index, f16, bf16, f32, f64, fixed vectors of them, !llvm.ptr, and memrefs of them)}}
  gpu.func @k(%x: i7) kernel {
    gpu.return
  }
}

// -----

gpu.module @bool_vector {
  // expected-error @+1 {{approx-record-manifest: argument #0 of kernel @k has type 'vector<8xi1>', which a launcher cannot pass}}
  gpu.func @k(%x: vector<8xi1>) kernel {
    gpu.return
  }
}

// -----

gpu.module @complex_memref {
  // expected-error @+1 {{approx-record-manifest: argument #2 of kernel @k is 'memref<4xcomplex<f32>>', a memref of an element type a launcher cannot describe}}
  gpu.func @k(%a: memref<4xf32>, %n: index, %b: memref<4xcomplex<f32>>) kernel {
    gpu.return
  }
}

// -----

// Only kernels matter: a helper with such an argument is fine, the error
// names the kernel.
gpu.module @helper_ok {
  gpu.func @helper(%c: complex<f32>) {
    gpu.return
  }
  // expected-error @+1 {{approx-record-manifest: argument #0 of kernel @k2 has type 'complex<f32>', which a launcher cannot pass}}
  gpu.func @k2(%c: complex<f32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @knob_param_not_last {
  approx.knob @lambda range(0, 64) default(0)
  // expected-error @+1 {{approx-record-manifest: argument #1 of kernel @k follows a knob parameter: knob parameters must come last}}
  gpu.func @k(%l: i32 {approx.knob = @lambda}, %x: f32) kernel {
    gpu.return
  }
}

// -----

gpu.module @knob_param_type {
  approx.knob @lambda range(0, 64) default(0)
  // expected-error @+1 {{approx-record-manifest: argument #0 of kernel @k carries knob lambda but is not i32 or i64}}
  gpu.func @k(%l: f32 {approx.knob = @lambda}) kernel {
    gpu.return
  }
}

//--- bare.mlir
gpu.module @dynamic_bare {
  // expected-error @+1 {{approx-record-manifest: bare-ptr needs static shapes and identity layouts, but argument #1 of kernel @k is 'memref<?xf32>'}}
  gpu.func @k(%a: memref<4xf32>, %b: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @strided_bare {
  // expected-error @+1 {{approx-record-manifest: bare-ptr needs static shapes and identity layouts, but argument #0 of kernel @k is 'memref<4xf32, strided<[2]>>'}}
  gpu.func @k(%a: memref<4xf32, strided<[2]>>) kernel {
    gpu.return
  }
}

//--- names.mlir
gpu.module @kernel_name {
  // expected-error @+1 {{approx-record-manifest: kernel name 'a-b' cannot be a PTX symbol: it contains '-'}}
  gpu.func @"a-b"() kernel {
    gpu.return
  }
}

// -----

gpu.module @kernel_name_escape {
  // expected-error @+1 {{approx-record-manifest: kernel name 'k\x1b[31m' cannot be a PTX symbol: it contains '\x1b'}}
  gpu.func @"k\1B[31m"() kernel {
    gpu.return
  }
}

// -----

gpu.module @public_helper {
  // expected-error @+1 {{approx-record-manifest: symbol name 'my helper' cannot be a PTX symbol: it contains ' '}}
  func.func @"my helper"() {
    return
  }
}

// -----

// Private does not help: NVPTX prints a private function under its own name
// too (ptxas then rejects '.'; a '-' aborts the printer).
gpu.module @private_helper {
  // expected-error @+1 {{approx-record-manifest: symbol name 'my.helper' cannot be a PTX symbol: it contains '.'}}
  func.func private @"my.helper"() {
    return
  }
  gpu.func @k() kernel {
    func.call @"my.helper"() : () -> ()
    gpu.return
  }
}

// -----

// approx.sites must match the code: a site naming a knob its kernel does not
// read would give the runtime a manifest it refuses.
// expected-error @+1 {{approx-record-manifest: the site of 'sin' in 'k1' names knob 'lambda', which kernel 'k1' does not read: approx.sites does not match the code}}
gpu.module @stale_sites attributes {
  approx.sites = [#approx.site<technique = "sfu", function = "k1", op = "sin", type = f32, knob = @lambda, form = tunable, loc = "here">]} {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @k1(%x: f32) kernel {
    gpu.return
  }
}

// -----

// A site naming a knob the module does not declare (left over, or written
// by hand): the runtime would reject the manifest.
// expected-error @+1 {{approx-record-manifest: the site of 'exp' in 'k' names knob 'lambda', which gpu.module 'stale' does not declare: approx.sites does not match the code}}
gpu.module @stale attributes {approx.sites = [
    #approx.site<technique = "sfu", function = "k", op = "exp", type = f32, knob = @lambda, form = tunable, loc = "k.mlir:3:10", data = {versioning = "region"}>]} {
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// expected-error @+1 {{approx-record-manifest: a gpu.module with an empty name cannot have a manifest record}}
gpu.module @"" {
}
