// approx-warp-split never puts block-level synchronisation under its
// warp-uniform branch: barriers end spans, and ops holding both a barrier and
// tunable ops are versioned inside.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split))' | FileCheck %s

// A tiled loop: the barrier stays in the loop body, once; the spans before
// and after it are versioned separately, inside the loop.
// CHECK-LABEL: gpu.func @barrier_in_loop
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: %[[E:.*]] = scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: approx.exp %{{.*}} knob(@lambda) form(sfu)
// CHECK: } else {
// CHECK-NEXT: approx.exp %{{.*}} knob(@lambda) form(precise)
// CHECK: }
// CHECK-NEXT: memref.store %[[E]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK-NEXT: scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: approx.log %{{.*}} knob(@lambda) form(sfu)
// CHECK: } else {
// CHECK-NEXT: approx.log %{{.*}} knob(@lambda) form(precise)
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @tiled {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @barrier_in_loop(%a: memref<?xf32>, %n: index)
      workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) : f32
      memref.store %e, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %tile[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %l = approx.log %y knob(@lambda) : f32
      memref.store %l, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Straight-line code with a barrier between two ops: two spans, the barrier
// between them at function level. Without the barrier it would be one span.
// CHECK-LABEL: gpu.func @barrier_between
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: approx.sin {{.*}} form(sfu)
// CHECK: } else {
// CHECK-NEXT: approx.sin {{.*}} form(precise)
// CHECK: }
// CHECK-NEXT: memref.store
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: approx.cos {{.*}} form(sfu)
gpu.module @between {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @barrier_between(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = approx.sin %x knob(@lambda) : f32
    memref.store %s, %a[%c0] : memref<4xf32>
    nvvm.barrier0
    %c = approx.cos %x knob(@lambda) : f32
    memref.store %c, %a[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// An scf.if holding a barrier and a tunable op is not copied under the flag:
// its own block is versioned around the op only.
// CHECK-LABEL: gpu.func @if_with_barrier
// CHECK: %[[FLAG:.*]] = arith.cmpi ult
// CHECK: scf.if %arg1 {
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if %[[FLAG]] -> (f32) {
// CHECK-NEXT: approx.tanh {{.*}} form(sfu)
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @ifbarrier {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @if_with_barrier(%x: f32, %c: i1, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    scf.if %c {
      gpu.barrier
      %t = approx.tanh %x knob(@lambda) : f32
      memref.store %t, %a[%c0] : memref<4xf32>
    }
    gpu.return
  }
}

// -----

// Other block-level synchronisation: a block reduction, inline PTX naming a
// barrier, and a call to an external function (which may synchronise) all
// end spans and are never copied.
// CHECK-LABEL: gpu.func @other_syncs
// CHECK-COUNT-1: gpu.all_reduce
// CHECK-NOT: gpu.all_reduce
// CHECK-LABEL: gpu.func @asm_sync
// CHECK-COUNT-1: llvm.inline_asm
// CHECK-NOT: llvm.inline_asm
// CHECK-LABEL: gpu.func @external_call
// CHECK-COUNT-1: func.call @opaque
// CHECK-NOT: func.call @opaque
gpu.module @syncs {
  approx.knob @lambda range(0, 64) default(0)
  func.func private @opaque(f32) -> f32
  gpu.func @other_syncs(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %e = approx.exp %x knob(@lambda) : f32
    %sum = gpu.all_reduce add %e uniform {} : (f32) -> (f32)
    %l = approx.log %sum knob(@lambda) : f32
    memref.store %l, %a[%c0] : memref<4xf32>
    gpu.return
  }
  gpu.func @asm_sync(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %e = approx.exp %x knob(@lambda) : f32
    llvm.inline_asm has_side_effects "bar.sync 0;", "" : () -> ()
    %l = approx.log %e knob(@lambda) : f32
    memref.store %l, %a[%c0] : memref<4xf32>
    gpu.return
  }
  gpu.func @external_call(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %e = approx.exp %x knob(@lambda) : f32
    %o = func.call @opaque(%e) : (f32) -> f32
    %l = approx.log %o knob(@lambda) : f32
    memref.store %l, %a[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// A warp-level collective (shuffle) may sit under a warp-uniform branch: it
// does not end the span.
// CHECK-LABEL: gpu.func @shuffle_ok
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: approx.exp {{.*}} form(sfu)
// CHECK-NEXT: gpu.shuffle
// CHECK-NEXT: approx.log {{.*}} form(sfu)
gpu.module @shuffle {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @shuffle_ok(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %e = approx.exp %x knob(@lambda) : f32
    %s, %ok = gpu.shuffle xor %e, %c1, %c32 : f32
    %l = approx.log %s knob(@lambda) : f32
    memref.store %l, %a[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// Imported CUDA (approx-cc) keeps __syncthreads() as an LLVM intrinsic call:
// it ends the span like gpu.barrier, so each loop is versioned on its own
// and the barrier between them is never copied.
// CHECK-LABEL: gpu.func @intrinsic_barrier
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: scf.for
// CHECK: approx.exp {{.*}} form(sfu)
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: approx.exp {{.*}} form(precise)
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: scf.for
// CHECK: approx.log {{.*}} form(sfu)
// CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.barrier
// CHECK: gpu.return
gpu.module @intrinsic {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @intrinsic_barrier(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) : f32
      memref.store %e, %a[%i] : memref<?xf32>
    }
    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%z) : (i32) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %l = approx.log %x knob(@lambda) : f32
      memref.store %l, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// A libdevice call (`__nv_*`, math only) does not synchronise: the loop
// holding it is versioned whole, outside (one flag test, not one per
// iteration). Another external function still may synchronise.
// CHECK-LABEL: gpu.func @libdevice_in_loop
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: scf.while
// CHECK: approx.exp {{.*}} form(sfu)
// CHECK: llvm.call @__nv_fmaxf
// CHECK: } else {
// CHECK-NEXT: scf.while
// CHECK: approx.exp {{.*}} form(precise)
// CHECK-LABEL: gpu.func @unknown_in_loop
// CHECK: scf.while
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: approx.exp {{.*}} form(sfu)
// CHECK: llvm.call @opaque_llvm
gpu.module @libdevice {
  approx.knob @lambda range(0, 64) default(0)
  llvm.func @__nv_fmaxf(f32, f32) -> f32
  llvm.func @opaque_llvm(f32, f32) -> f32
  gpu.func @libdevice_in_loop(%a: memref<?xf32>, %n: i32, %step: i32) kernel {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : i32
    %r:2 = scf.while (%i = %c0, %acc = %zero) : (i32, f32) -> (i32, f32) {
      %idx = arith.index_cast %i : i32 to index
      %x = memref.load %a[%idx] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) : f32
      %m = llvm.call @__nv_fmaxf(%e, %zero) : (f32, f32) -> f32
      %s = arith.addf %acc, %m : f32
      %next = arith.addi %i, %step : i32
      %go = arith.cmpi slt, %next, %n : i32
      scf.condition(%go) %next, %s : i32, f32
    } do {
    ^bb0(%i: i32, %acc: f32):
      scf.yield %i, %acc : i32, f32
    }
    %c0i = arith.constant 0 : index
    memref.store %r#1, %a[%c0i] : memref<?xf32>
    gpu.return
  }
  gpu.func @unknown_in_loop(%a: memref<?xf32>, %n: i32, %step: i32) kernel {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : i32
    %r:2 = scf.while (%i = %c0, %acc = %zero) : (i32, f32) -> (i32, f32) {
      %idx = arith.index_cast %i : i32 to index
      %x = memref.load %a[%idx] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) : f32
      %m = llvm.call @opaque_llvm(%e, %zero) : (f32, f32) -> f32
      %s = arith.addf %acc, %m : f32
      %next = arith.addi %i, %step : i32
      %go = arith.cmpi slt, %next, %n : i32
      scf.condition(%go) %next, %s : i32, f32
    } do {
    ^bb0(%i: i32, %acc: f32):
      scf.yield %i, %acc : i32, f32
    }
    %c0i = arith.constant 0 : index
    memref.store %r#1, %a[%c0i] : memref<?xf32>
    gpu.return
  }
}
