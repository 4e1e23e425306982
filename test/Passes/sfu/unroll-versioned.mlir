// approx-unroll-versioned: an LLVM unroll count on each innermost scf.for /
// scf.while holding split ops, in both copies; outer loops, loops without
// split ops and loops whose annotation already says how to unroll are left
// alone; any other annotation (approx-cc's mustProgress) gets the count added.
// RUN: approx-opt %s -split-input-file -mlir-print-local-scope --pass-pipeline='builtin.module(gpu.module(approx-unroll-versioned{count=8}))' | FileCheck %s

// CHECK-LABEL: gpu.func @both_copies
// CHECK: scf.for
// CHECK: approx.exp {{.*}} form(sfu)
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <count = 8 : i32>>}
// CHECK: scf.while
// CHECK: approx.exp {{.*}} form(precise)
// CHECK: } attributes {loop_annotation = #llvm.loop_annotation<unroll = <count = 8 : i32>>}
gpu.module @copies {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @both_copies(%a: memref<?xf32>, %n: index, %flag: i1, %m: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    scf.if %flag {
      scf.for %i = %c0 to %n step %c1 {
        %x = memref.load %a[%i] : memref<?xf32>
        %e = approx.exp %x knob(@lambda) form(sfu) : f32
        memref.store %e, %a[%i] : memref<?xf32>
      }
    } else {
      %r = scf.while (%i = %z) : (i32) -> i32 {
        %idx = arith.index_cast %i : i32 to index
        %x = memref.load %a[%idx] : memref<?xf32>
        %e = approx.exp %x knob(@lambda) form(precise) : f32
        memref.store %e, %a[%idx] : memref<?xf32>
        %next = arith.addi %i, %one : i32
        %go = arith.cmpi slt, %next, %m : i32
        scf.condition(%go) %next : i32
      } do {
      ^bb0(%i: i32):
        scf.yield %i : i32
      }
    }
    gpu.return
  }
}

// -----

// Only the inner loop of a nest; a loop with no split op (plain math) and
// a loop the input annotated with an unroll directive stay as they are.
// CHECK-LABEL: gpu.func @nest
// CHECK: scf.for
// CHECK: scf.for
// CHECK: form(sfu)
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <count = 8 : i32>>}
// CHECK-NEXT: }
// CHECK-NOT: loop_annotation
// CHECK: math.exp
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// CHECK-NOT: loop_annotation
// CHECK: gpu.return
gpu.module @nest {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @nest(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %j = %c0 to %n step %c1 {
      scf.for %i = %c0 to %n step %c1 {
        %x = memref.load %a[%i] : memref<?xf32>
        %e = approx.exp %x knob(@lambda) form(sfu) : f32
        memref.store %e, %a[%i] : memref<?xf32>
      }
    }
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = math.exp %x : f32
      memref.store %e, %a[%i] : memref<?xf32>
    }
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) form(sfu) : f32
      memref.store %e, %a[%i] : memref<?xf32>
    } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
    gpu.return
  }
}

// -----

// approx-cc's raised loops carry clang's mustProgress (and a #pragma unroll
// its unroll count): the count is merged into the first, the second keeps
// the pragma's, and a disable_nonforced loop is left alone.
// CHECK-LABEL: gpu.func @annotated
// CHECK: form(sfu)
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <count = 8 : i32>, mustProgress = true>}
// CHECK: form(precise)
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <count = 2 : i32>, mustProgress = true>}
// CHECK: form(sfu)
// CHECK: } {loop_annotation = #llvm.loop_annotation<disableNonforced = true, mustProgress = true>}
gpu.module @annotated {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @annotated(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) form(sfu) : f32
      memref.store %e, %a[%i] : memref<?xf32>
    } {loop_annotation = #llvm.loop_annotation<mustProgress = true>}
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) form(precise) : f32
      memref.store %e, %a[%i] : memref<?xf32>
    } {loop_annotation = #llvm.loop_annotation<unroll = <count = 2 : i32>, mustProgress = true>}
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xf32>
      %e = approx.exp %x knob(@lambda) form(sfu) : f32
      memref.store %e, %a[%i] : memref<?xf32>
    } {loop_annotation = #llvm.loop_annotation<disableNonforced = true, mustProgress = true>}
    gpu.return
  }
}
