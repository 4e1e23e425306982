// approx-hoist-loads: in blocks holding split ops, plain loads (with their
// pure address arithmetic) move up to just after the last op that may write
// memory, keeping their order.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-hoist-loads))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-hoist-loads{max-loads=1}))' | FileCheck %s --check-prefix=ONE

// The loads of s and x go above the precise sqrt, with their GEPs; the
// load after the store stays after it.
// CHECK-LABEL: gpu.func @above_precise
// CHECK: %[[T:.*]] = llvm.load
// CHECK-NEXT: llvm.getelementptr %arg1
// CHECK-NEXT: %[[S:.*]] = llvm.load
// CHECK-NEXT: llvm.getelementptr %arg2
// CHECK-NEXT: %[[X:.*]] = llvm.load
// CHECK-NEXT: approx.sqrt %[[T]] knob(@lambda) form(precise)
// CHECK-NEXT: arith.divf %[[S]], %[[X]]
// CHECK: llvm.store
// CHECK-NEXT: llvm.getelementptr %arg3
// CHECK-NEXT: llvm.load
// CHECK-NEXT: approx.exp
// With max-loads=1 only the first load moves.
// ONE-LABEL: gpu.func @above_precise
// ONE: llvm.load
// ONE-NEXT: llvm.getelementptr %arg1
// ONE-NEXT: llvm.load
// ONE-NEXT: approx.sqrt
// ONE-NEXT: llvm.getelementptr %arg2
// ONE-NEXT: llvm.load
gpu.module @hoist {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @above_precise(%t: !llvm.ptr, %s: !llvm.ptr, %x: !llvm.ptr,
                          %y: !llvm.ptr, %i: i64) kernel {
    %tv = llvm.load %t : !llvm.ptr -> f32
    %r = approx.sqrt %tv knob(@lambda) form(precise) : f32
    %sp = llvm.getelementptr %s[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %sv = llvm.load %sp : !llvm.ptr -> f32
    %xp = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %xv = llvm.load %xp : !llvm.ptr -> f32
    %q = arith.divf %sv, %xv : f32
    %sum = arith.addf %q, %r : f32
    llvm.store %sum, %t : f32, !llvm.ptr
    %yp = llvm.getelementptr %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %yv = llvm.load %yp : !llvm.ptr -> f32
    %e = approx.exp %yv knob(@lambda) form(sfu) : f32
    llvm.store %e, %y : f32, !llvm.ptr
    gpu.return
  }
}

// -----

// What stays: volatile and atomic loads, loads from shared memory (through
// clang's addrspacecast too), a load whose address comes from an op with a
// region, loads in a block without split ops; the last load moves up to
// just after the call, not above it.
// CHECK-LABEL: gpu.func @stays
// CHECK: approx.exp
// CHECK-NEXT: llvm.load volatile
// CHECK-NEXT: llvm.load %arg0 atomic
// CHECK-NEXT: llvm.mlir.addressof
// CHECK-NEXT: llvm.addrspacecast
// CHECK-NEXT: llvm.load
// CHECK-NEXT: scf.if
// CHECK: llvm.load
// CHECK-NEXT: llvm.call @opaque
// CHECK-NEXT: llvm.load %arg0
// CHECK-NEXT: approx.log
// CHECK-LABEL: gpu.func @no_split
// CHECK: math.exp
// CHECK-NEXT: llvm.load
gpu.module @stays {
  approx.knob @lambda range(0, 64) default(0)
  llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<32 x f32>
  llvm.func @opaque()
  gpu.func @stays(%p: !llvm.ptr, %c: i1, %q: !llvm.ptr) kernel {
    %x = llvm.load %p : !llvm.ptr -> f32
    %e = approx.exp %x knob(@lambda) form(precise) : f32
    %v = llvm.load volatile %p : !llvm.ptr -> f32
    %a = llvm.load %p atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> f32
    %g = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %gp = llvm.addrspacecast %g : !llvm.ptr<3> to !llvm.ptr
    %sh = llvm.load %gp : !llvm.ptr -> f32
    %sel = scf.if %c -> (!llvm.ptr) {
      scf.yield %p : !llvm.ptr
    } else {
      scf.yield %q : !llvm.ptr
    }
    %w = llvm.load %sel : !llvm.ptr -> f32
    llvm.call @opaque() : () -> ()
    %l = approx.log %w knob(@lambda) form(sfu) : f32
    %after = llvm.load %p : !llvm.ptr -> f32
    %s1 = arith.addf %e, %v : f32
    %s2 = arith.addf %s1, %a : f32
    %s3 = arith.addf %s2, %sh : f32
    %s4 = arith.addf %s3, %l : f32
    %s5 = arith.addf %s4, %after : f32
    llvm.store %s5, %p : f32, !llvm.ptr
    gpu.return
  }
  gpu.func @no_split(%p: !llvm.ptr, %q: !llvm.ptr) kernel {
    %x = llvm.load %p : !llvm.ptr -> f32
    %e = math.exp %x : f32
    %y = llvm.load %q : !llvm.ptr -> f32
    %s = arith.addf %e, %y : f32
    llvm.store %s, %p : f32, !llvm.ptr
    gpu.return
  }
}

// -----

// No load crosses a barrier, in any of its forms.
// CHECK-LABEL: gpu.func @barriers
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// CHECK-NEXT: llvm.load
// CHECK: gpu.barrier
// CHECK-NEXT: llvm.load
// CHECK: llvm.inline_asm
// CHECK-NEXT: llvm.load
gpu.module @barriers {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @barriers(%p: !llvm.ptr) kernel {
    %z = arith.constant 0 : i32
    %x = llvm.load %p : !llvm.ptr -> f32
    %e = approx.exp %x knob(@lambda) form(precise) : f32
    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%z) : (i32) -> ()
    %y = llvm.load %p : !llvm.ptr -> f32
    %f = approx.exp %y knob(@lambda) form(precise) : f32
    gpu.barrier
    %w = llvm.load %p : !llvm.ptr -> f32
    %g = approx.exp %w knob(@lambda) form(precise) : f32
    llvm.inline_asm has_side_effects "bar.sync 0;", "" : () -> ()
    %v = llvm.load %p : !llvm.ptr -> f32
    %s = arith.addf %e, %f : f32
    %s2 = arith.addf %s, %g : f32
    %s3 = arith.addf %s2, %v : f32
    llvm.store %s3, %p : f32, !llvm.ptr
    gpu.return
  }
}

// -----

// memref loads: a global-space memref is hoisted, a workgroup one stays.
// CHECK-LABEL: gpu.func @memref_spaces
// CHECK: memref.load %arg0
// CHECK-NEXT: memref.load %arg1
// CHECK-NEXT: approx.sqrt
// CHECK-NEXT: memref.load %arg2
gpu.module @spaces {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @memref_spaces(%g: memref<4xf32, #gpu.address_space<global>>,
                          %h: memref<4xf32, #gpu.address_space<global>>,
                          %w: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %x = memref.load %g[%c0] : memref<4xf32, #gpu.address_space<global>>
    %r = approx.sqrt %x knob(@lambda) form(precise) : f32
    %y = memref.load %h[%c0] : memref<4xf32, #gpu.address_space<global>>
    %z = memref.load %w[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %r, %y : f32
    %t = arith.addf %s, %z : f32
    memref.store %t, %g[%c0] : memref<4xf32, #gpu.address_space<global>>
    gpu.return
  }
}
