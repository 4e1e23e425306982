// REQUIRES: libdevice
// RUN: approx-opt %s -split-input-file -verify-diagnostics --approx-check-target="libdevice=%libdevice" | FileCheck %s

// Calls to libdevice, LLVM intrinsics, the driver's functions and functions
// defined in the gpu.module link: the IR passes unchanged.
// CHECK-LABEL: gpu.module @links
gpu.module @links {
  func.func private @__nv_sinf(f32) -> f32
  llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
  func.func @helper(%x: f32) -> f32 {
    return %x : f32
  }
  gpu.func @k(%x: f32, %p: !llvm.ptr) kernel {
    %a = func.call @__nv_sinf(%x) : (f32) -> f32
    %b = func.call @helper(%a) : (f32) -> f32
    %c = llvm.call @vprintf(%p, %p) : (!llvm.ptr, !llvm.ptr) -> i32
    gpu.return
  }
}

// -----

// A call to a declaration nobody provides would leave PTX that does not load.
gpu.module @unresolved {
  func.func private @opaque(f32) -> f32
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{approx-to-ptx: call to 'opaque', which has no body in gpu.module 'unresolved' and is no libdevice, LLVM or CUDA driver function: the PTX would not load (define the function in the gpu.module)}}
    %o = func.call @opaque(%x) : (f32) -> f32
    gpu.return
  }
}

// -----

// The same through a device function no kernel calls: it is still in the PTX.
gpu.module @unresolved_llvm {
  llvm.func @ext(f32) -> f32
  llvm.func @dev(%x: f32) -> f32 {
    // expected-error @+1 {{approx-to-ptx: call to 'ext'}}
    %y = llvm.call @ext(%x) : (f32) -> f32
    llvm.return %y : f32
  }
}


// -----

// Every symbol of a gpu.module becomes a PTX name: '.' would not assemble.
gpu.module @names {
  // expected-error @+1 {{approx-to-ptx: symbol 'my.helper' in gpu.module 'names' cannot be a PTX symbol: it contains '.'}}
  func.func private @"my.helper"() {
    return
  }
  gpu.func @k() kernel {
    func.call @"my.helper"() : () -> ()
    gpu.return
  }
}

// -----

// Globals too.
gpu.module @globals {
  // expected-error @+1 {{approx-to-ptx: symbol 'table-1' in gpu.module 'globals' cannot be a PTX symbol: it contains '-'}}
  memref.global "private" constant @"table-1" : memref<2xf32> = dense<[1.0, 2.0]>
}

// -----

// NVPTX has no scalable vectors (its instruction selection aborts on them).
gpu.module @scalable {
  func.func @f(%x: vector<[4]xf32>) -> vector<[4]xf32> {
    // expected-error @+1 {{approx-to-ptx: scalable vector type 'vector<[4]xf32>' in gpu.module 'scalable': NVPTX has no scalable vectors (use a fixed size)}}
    %0 = math.sqrt %x : vector<[4]xf32>
    return %0 : vector<[4]xf32>
  }
}

// -----

// Also as a block argument only, or nested in another type.
gpu.module @scalable_arg {
  // expected-error @+1 {{approx-to-ptx: scalable vector type 'vector<[2]xf16>'}}
  gpu.func @k(%m: memref<4xvector<[2]xf16>>) kernel {
    gpu.return
  }
}

// -----

// Launch bounds within the hardware's limits pass unchanged.
// CHECK-LABEL: gpu.module @bounds_ok
gpu.module @bounds_ok {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 128, 8, 1>,
      nvvm.maxntid = array<i32: 1024>, nvvm.minctasm = 2 : i32,
      known_grid_size = array<i32: 65536, 1, 1>} {
    gpu.return
  }
}

// -----

// A zero dimension would print `.reqntid 128, 0, 1`, which ptxas rejects.
gpu.module @bounds_zero {
  // expected-error @+1 {{approx-to-ptx: known_block_size of 'k' has the entry 0; every dimension must be at least 1}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 128, 0, 1>} {
    gpu.return
  }
}

// -----

gpu.module @bounds_too_many_threads {
  // expected-error @+1 {{approx-to-ptx: nvvm.maxntid of 'k' asks for 2048 threads per block; the limit is 1024}}
  gpu.func @k() kernel attributes {nvvm.maxntid = array<i32: 64, 32, 1>} {
    gpu.return
  }
}

// -----

gpu.module @bounds_z {
  // expected-error @+1 {{approx-to-ptx: nvvm.reqntid of 'k' has z = 128; the limit is 64}}
  gpu.func @k() kernel attributes {nvvm.reqntid = array<i32: 1, 1, 128>} {
    gpu.return
  }
}

// -----

gpu.module @bounds_negative_grid {
  // expected-error @+1 {{approx-to-ptx: gpu.known_grid_size of 'f' has the entry -4; every dimension must be at least 1}}
  func.func @f() attributes {gpu.known_grid_size = array<i32: -4, 1, 1>} {
    return
  }
}

// -----

gpu.module @bounds_minctasm {
  // expected-error @+1 {{approx-to-ptx: nvvm.minctasm of 'k' is 0; it must be at least 1}}
  gpu.func @k() kernel attributes {nvvm.minctasm = 0 : i32} {
    gpu.return
  }
}

// -----

// Vector math is lowered element by element: a million-element vector would
// take gigabytes to compile. The limit is 1024 elements.
gpu.module @huge_vector {
  // expected-error @+1 {{approx-to-ptx: vector type 'vector<1048576xf32>' in gpu.module 'huge_vector' has 1048576 elements; at most 1024 are supported in device code (a thread has 255 registers)}}
  gpu.func @k(%a: memref<?xvector<1048576xf32>>) kernel {
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @vector_at_limit
gpu.module @vector_at_limit {
  gpu.func @k(%a: memref<?xvector<32x32xf32>>) kernel {
    gpu.return
  }
}

// -----

// An `llvm.`-named declaration that is no LLVM intrinsic, and an `__nv_` one
// libdevice does not define, are unresolved too.
gpu.module @fake_intrinsic {
  llvm.func @"llvm.x"(f32) -> f32
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{approx-to-ptx: call to 'llvm.x', which has no body in gpu.module 'fake_intrinsic'}}
    %y = llvm.call @"llvm.x"(%x) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @fake_libdevice {
  llvm.func @__nv_nosuchf(f32) -> f32
  gpu.func @k(%x: f32) kernel {
    // expected-error @+1 {{approx-to-ptx: call to '__nv_nosuchf', which has no body in gpu.module 'fake_libdevice'}}
    %y = llvm.call @__nv_nosuchf(%x) : (f32) -> f32
    gpu.return
  }
}

// -----

// Symbols of local linkage are renamed by the NVPTX backend (every character
// PTX does not allow becomes `_$_`): `.str` is fine, a leading digit is not.
// CHECK-LABEL: gpu.module @local_names
gpu.module @local_names {
  llvm.mlir.global private constant @".str"("%f\0A\00") {addr_space = 0 : i32}
  llvm.func internal @"helper-1"() {
    llvm.return
  }
}

// -----

gpu.module @local_digit {
  // expected-error @+1 {{approx-to-ptx: symbol '1abc' in gpu.module 'local_digit' cannot be a PTX symbol: it}}
  llvm.mlir.global private constant @"1abc"(0 : i32) : i32
}

// -----

// Static shared memory over 48 KiB: ptxas would refuse it. Counted per
// kernel over the globals its functions reference.
gpu.module @too_much_shared {
  llvm.mlir.global internal @big() {addr_space = 3 : i32} : !llvm.array<16384 x f32>
  llvm.mlir.global internal @more() {addr_space = 3 : i32} : !llvm.array<1 x f32>
  llvm.func @touch() {
    %p = llvm.mlir.addressof @more : !llvm.ptr<3>
    llvm.return
  }
  // expected-error @+1 {{approx-to-ptx: kernel 'k' uses 65540 bytes of static shared memory; PTX allows 49152 (allocate more as dynamic shared memory)}}
  gpu.func @k() kernel {
    %p = llvm.mlir.addressof @big : !llvm.ptr<3>
    llvm.call @touch() : () -> ()
    gpu.return
  }
}

// -----

gpu.module @too_much_memref_shared {
  memref.global "private" @tile : memref<128x128xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{approx-to-ptx: kernel 'k' uses 65536 bytes of static shared memory}}
  gpu.func @k() kernel {
    %t = memref.get_global @tile : memref<128x128xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @too_much_attribution {
  // expected-error @+1 {{approx-to-ptx: kernel 'k' uses 65536 bytes of static shared memory}}
  gpu.func @k() workgroup(%w : memref<16384xf32, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

// 48 KiB exactly, and a big global no kernel references: accepted.
// CHECK-LABEL: gpu.module @shared_at_limit
gpu.module @shared_at_limit {
  llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<12288 x f32>
  llvm.mlir.global internal @unused() {addr_space = 3 : i32} : !llvm.array<65536 x f32>
  gpu.func @k() kernel {
    %p = llvm.mlir.addressof @tile : !llvm.ptr<3>
    gpu.return
  }
}

// -----

// Inline asm whose constraints do not parse or do not fit its operands
// (NVPTX instruction selection crashes on them in LLVM 22's release build):
// LLVM's own check refuses it, the hostile byte escaped.
gpu.module @asm_bad {
  llvm.func @f() {
    // expected-error @+1 {{approx-to-ptx: inline asm constraints 'a\x0db' in gpu.module 'asm_bad' do not fit its 0 operand(s) and no result: number of input constraints does not match number of parameters}}
    llvm.inline_asm has_side_effects "bar.sync 0;", "a\0Db" : () -> ()
    llvm.return
  }
}

// -----

// Valid constraints, one operand and one result: unchanged.
// CHECK-LABEL: gpu.module @asm_ok
// CHECK: llvm.inline_asm
gpu.module @asm_ok {
  llvm.func @g(%x: f32) -> f32 {
    %y = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %x : (f32) -> f32
    llvm.return %y : f32
  }
}
