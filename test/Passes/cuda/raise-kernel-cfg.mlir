// RUN: approx-opt %s -split-input-file -approx-raise-kernel-cfg | FileCheck %s

// A loop (the shape clang -O1 emits for a for loop) lifts to scf.while, an
// if to scf.if, and the kernel is marked structured.
// CHECK-LABEL: gpu.module @loop
// CHECK: gpu.func @k
// CHECK-SAME: approx.cfg = "structured"
// CHECK: scf.if
// CHECK: scf.while
// CHECK-NOT: llvm.br
// CHECK-NOT: llvm.cond_br
// CHECK-NOT: cf.{{br|cond_br|switch}}
gpu.module @loop {
  gpu.func @k(%p: !llvm.ptr, %n: i32) kernel {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %pos = llvm.icmp "sgt" %n, %c0 : i32
    llvm.cond_br %pos, ^body(%c0 : i32), ^exit
  ^body(%i: i32):
    %x = llvm.sitofp %i : i32 to f32
    %y = math.exp %x : f32
    %a = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %y, %a : f32, !llvm.ptr
    %next = llvm.add %i, %c1 : i32
    %more = llvm.icmp "slt" %next, %n : i32
    llvm.cond_br %more, ^body(%next : i32), ^exit
  ^exit:
    gpu.return
  }
}

// -----

// llvm.switch becomes a structured switch.
// CHECK-LABEL: gpu.module @switch
// CHECK: approx.cfg = "structured"
// CHECK: scf.index_switch
gpu.module @switch {
  gpu.func @k(%p: !llvm.ptr, %v: i32) kernel {
    llvm.switch %v : i32, ^d [
      1: ^one,
      2: ^two
    ]
  ^one:
    %c1 = llvm.mlir.constant(1.0 : f32) : f32
    llvm.store %c1, %p : f32, !llvm.ptr
    llvm.br ^d
  ^two:
    %c2 = llvm.mlir.constant(2.0 : f32) : f32
    llvm.store %c2, %p : f32, !llvm.ptr
    llvm.br ^d
  ^d:
    gpu.return
  }
}

// -----

// A block ending in llvm.unreachable (after a trap) keeps the LLVM CFG: the
// warp split versions it block by block, and the reason is recorded.
// CHECK-LABEL: gpu.module @trap
// CHECK: approx.cfg = "blocks: the body ends a block with 'llvm.unreachable'"
// CHECK: llvm.cond_br
// CHECK: llvm.unreachable
gpu.module @trap {
  gpu.func @k(%p: !llvm.ptr, %c: i1) kernel {
    llvm.cond_br %c, ^bad, ^ok
  ^bad:
    nvvm.barrier0
    llvm.unreachable
  ^ok:
    gpu.return
  }
}

// -----

// Straight-line kernels are trivially structured.
// CHECK-LABEL: gpu.module @flat
// CHECK: approx.cfg = "structured"
gpu.module @flat {
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// scf.index_switch compares the zero-extended value: a negative case value
// keeps the LLVM CFG rather than change the kernel's meaning.
// CHECK-LABEL: gpu.module @negative_case
// CHECK: approx.cfg = "blocks: a switch has negative case values"
// CHECK: llvm.switch
gpu.module @negative_case {
  gpu.func @k(%p: !llvm.ptr, %v: i32) kernel {
    llvm.switch %v : i32, ^d [
      -1: ^one
    ]
  ^one:
    %c1 = llvm.mlir.constant(1.0 : f32) : f32
    llvm.store %c1, %p : f32, !llvm.ptr
    llvm.br ^d
  ^d:
    gpu.return
  }
}
