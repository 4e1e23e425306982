// approx-from-math: math/arith transcendentals in kernels -> tunable approx ops.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-from-math))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-from-math{f64-demote=true}))' | FileCheck %s --check-prefix=DEMOTE
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-from-math{functions=sin,rcp knob=tau knob-max=48}))' | FileCheck %s --check-prefix=SOME
// kernels= must name a kernel of every gpu.module it runs on: run it on the
// two modules between the BEGIN-K2 and END-K2 markers only.
// RUN: sed -n '/^\/\/ BEGIN-K2/,/^\/\/ END-K2/p' %s | approx-opt -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-from-math{kernels=k2 newton-steps=2 range-reduction=true}))' | FileCheck %s --check-prefix=OPTS

// Every f32 op, the 1/x form, and what is left alone.
// CHECK-LABEL: gpu.module @f32_all
// CHECK: approx.knob @lambda range(0, 64) default(0)
// CHECK-NOT: approx.knob
// CHECK-LABEL: gpu.func @f32_all
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[V:.*]]: vector<4xf32>, %[[H:.*]]: f16)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[SIN:.*]] = approx.sin %[[X]] knob(@lambda) : f32
// CHECK: %[[COS:.*]] = approx.cos %[[SIN]] knob(@lambda) : f32
// CHECK: %[[EXP:.*]] = approx.exp %[[COS]] knob(@lambda) : f32
// CHECK: %[[LOG:.*]] = approx.log %[[EXP]] knob(@lambda) : f32
// CHECK: %[[POW:.*]] = approx.pow %[[LOG]], %[[Y]] knob(@lambda) : f32
// CHECK: %[[SQRT:.*]] = approx.sqrt %[[POW]] knob(@lambda) : f32
// CHECK: %[[RSQRT:.*]] = approx.rsqrt %[[SQRT]] knob(@lambda) : f32
// CHECK: %[[DIV:.*]] = approx.div %[[RSQRT]], %[[Y]] knob(@lambda) : f32
// CHECK: %[[RCP:.*]] = approx.rcp %[[DIV]] knob(@lambda) : f32
// CHECK: %[[D2:.*]] = approx.div %[[TWO]], %[[RCP]] knob(@lambda) : f32
// CHECK: %[[TANH:.*]] = math.tanh %[[D2]] : f32
// CHECK: %[[MUL:.*]] = arith.mulf %[[TANH]], %[[ONE]] : f32
// CHECK: math.sin %[[V]] : vector<4xf32>
// CHECK: math.exp %[[H]] : f16
// CHECK: approx.rcp %[[MUL]] knob(@lambda) : f32
// CHECK-NOT: math.sin %{{.*}} : f32
// CHECK: gpu.return
gpu.module @f32_all {
  gpu.func @f32_all(%x: f32, %y: f32, %v: vector<4xf32>, %h: f16) kernel {
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %0 = math.sin %x : f32
    %1 = math.cos %0 : f32
    %2 = math.exp %1 : f32
    %3 = math.log %2 : f32
    %4 = math.powf %3, %y : f32
    %5 = math.sqrt %4 : f32
    %6 = math.rsqrt %5 : f32
    %7 = arith.divf %6, %y : f32
    %8 = arith.divf %one, %7 : f32
    %9 = arith.divf %two, %8 : f32
    %10 = math.tanh %9 : f32
    %11 = arith.mulf %10, %one : f32
    %12 = math.sin %v : vector<4xf32>
    %13 = math.exp %h : f16
    %14 = arith.divf %one, %11 fastmath<fast> : f32
    gpu.return
  }
}

// -----

// f64: div/rcp/sqrt/rsqrt always, sin/cos/exp/log/pow only with f64-demote.
// CHECK-LABEL: gpu.func @f64_rules
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: %[[SIN:.*]] = math.sin %[[X]] : f64
// CHECK: %[[COS:.*]] = math.cos %[[SIN]] : f64
// CHECK: %[[EXP:.*]] = math.exp %[[COS]] : f64
// CHECK: %[[LOG:.*]] = math.log %[[EXP]] : f64
// CHECK: %[[POW:.*]] = math.powf %[[LOG]], %[[Y]] : f64
// CHECK: %[[DIV:.*]] = approx.div %[[POW]], %[[Y]] knob(@lambda) : f64
// CHECK: %[[RCP:.*]] = approx.rcp %[[DIV]] knob(@lambda) : f64
// CHECK: %[[SQRT:.*]] = approx.sqrt %[[RCP]] knob(@lambda) : f64
// CHECK: approx.rsqrt %[[SQRT]] knob(@lambda) : f64
// DEMOTE-LABEL: gpu.func @f64_rules
// DEMOTE-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// DEMOTE: %[[SIN:.*]] = approx.sin %[[X]] knob(@lambda) {demote} : f64
// DEMOTE: %[[COS:.*]] = approx.cos %[[SIN]] knob(@lambda) {demote} : f64
// DEMOTE: %[[EXP:.*]] = approx.exp %[[COS]] knob(@lambda) {demote} : f64
// DEMOTE: %[[LOG:.*]] = approx.log %[[EXP]] knob(@lambda) {demote} : f64
// DEMOTE: %[[POW:.*]] = approx.pow %[[LOG]], %[[Y]] knob(@lambda) {demote} : f64
// DEMOTE: %[[DIV:.*]] = approx.div %[[POW]], %[[Y]] knob(@lambda) : f64
// DEMOTE: %[[RCP:.*]] = approx.rcp %[[DIV]] knob(@lambda) : f64
// DEMOTE: %[[SQRT:.*]] = approx.sqrt %[[RCP]] knob(@lambda) : f64
// DEMOTE: approx.rsqrt %[[SQRT]] knob(@lambda) : f64
// DEMOTE-NOT: math.
// SOME-LABEL: gpu.func @f64_rules
// SOME: math.sin %{{.*}} : f64
// SOME: arith.divf %{{.*}}, %{{.*}} : f64
// SOME: approx.rcp %{{.*}} knob(@tau) : f64
// SOME: math.sqrt %{{.*}} : f64
gpu.module @f64_rules {
  gpu.func @f64_rules(%x: f64, %y: f64) kernel {
    %one = arith.constant 1.0 : f64
    %0 = math.sin %x : f64
    %1 = math.cos %0 : f64
    %2 = math.exp %1 : f64
    %3 = math.log %2 : f64
    %4 = math.powf %3, %y : f64
    %5 = arith.divf %4, %y : f64
    %6 = arith.divf %one, %5 : f64
    %7 = math.sqrt %6 : f64
    %8 = math.rsqrt %7 : f64
    gpu.return
  }
}

// -----

// Only f64 sin/cos/exp/log/pow here: nothing converted, so no knob either.
// CHECK-LABEL: gpu.module @f64_nothing
// CHECK-NOT: approx.knob
// CHECK-LABEL: gpu.func @f64_nothing
// CHECK: math.sin
// CHECK-NOT: approx.
// DEMOTE-LABEL: gpu.module @f64_nothing
// DEMOTE: approx.knob @lambda range(0, 64) default(0)
// DEMOTE-LABEL: gpu.func @f64_nothing
// DEMOTE: approx.sin %{{.*}} knob(@lambda) {demote} : f64
gpu.module @f64_nothing {
  gpu.func @f64_nothing(%x: f64) kernel {
    %0 = math.sin %x : f64
    gpu.return
  }
}

// -----

// functions= picks the functions (1/x is `rcp`, not `div`); knob= and
// knob-max= name and size the declared knob.
// CHECK-LABEL: gpu.module @pick
// CHECK: approx.knob @lambda range(0, 64) default(0)
// CHECK-LABEL: gpu.func @pick
// CHECK-NOT: math.
// SOME-LABEL: gpu.module @pick
// SOME: approx.knob @tau range(0, 48) default(0)
// SOME-NOT: approx.knob
// SOME-LABEL: gpu.func @pick
// SOME-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// SOME: %[[SIN:.*]] = approx.sin %[[X]] knob(@tau) : f32
// SOME: %[[COS:.*]] = math.cos %[[SIN]] : f32
// SOME: %[[DIV:.*]] = arith.divf %[[COS]], %[[Y]] : f32
// SOME: %[[RCP:.*]] = approx.rcp %[[DIV]] knob(@tau) : f32
// SOME: math.exp %[[RCP]] : f32
// SOME-NOT: range_reduction
// SOME-NOT: @lambda
gpu.module @pick {
  gpu.func @pick(%x: f32, %y: f32) kernel {
    %one = arith.constant 1.0 : f32
    %0 = math.sin %x : f32
    %1 = math.cos %0 : f32
    %2 = arith.divf %1, %y : f32
    %3 = arith.divf %one, %2 : f32
    %4 = math.exp %3 : f32
    gpu.return
  }
}

// -----

// BEGIN-K2
// Only kernels and the functions they call (transitively) are converted;
// non-kernel functions nobody calls are left alone.
// CHECK-LABEL: gpu.module @scope
// CHECK-LABEL: func.func @leaf
// CHECK: approx.exp %{{.*}} knob(@lambda) : f32
// CHECK-LABEL: func.func @helper
// CHECK: approx.sin %{{.*}} knob(@lambda) : f32
// CHECK: call @leaf
// CHECK-LABEL: func.func @unused
// CHECK: math.sin %{{.*}} : f32
// CHECK-NOT: approx.sin
// CHECK-LABEL: gpu.func @not_kernel
// CHECK: math.cos %{{.*}} : f32
// CHECK-LABEL: gpu.func @k1
// CHECK: call @helper
// CHECK: approx.log %{{.*}} knob(@lambda) : f32
// CHECK-LABEL: gpu.func @k2
// CHECK: approx.sqrt %{{.*}} knob(@lambda) : f32
// OPTS-LABEL: gpu.module @scope
// OPTS-LABEL: func.func @leaf
// OPTS: math.exp %{{.*}} : f32
// OPTS-LABEL: func.func @helper
// OPTS: math.sin %{{.*}} : f32
// OPTS-LABEL: func.func @unused
// OPTS: math.sin %{{.*}} : f32
// OPTS-LABEL: func.func @k2_helper
// OPTS: approx.cos %{{.*}} knob(@lambda) {range_reduction} : f32
// OPTS-LABEL: gpu.func @not_kernel
// OPTS: math.cos %{{.*}} : f32
// OPTS-LABEL: gpu.func @k1
// OPTS: math.log %{{.*}} : f32
// OPTS-LABEL: gpu.func @k2
// OPTS: approx.sqrt %{{.*}} knob(@lambda) : f32
// OPTS: approx.sqrt %{{.*}} knob(@lambda) {newton_steps = 2 : i32} : f64
// OPTS: approx.sin %{{.*}} knob(@lambda) {range_reduction} : f32
// OPTS: math.sin %{{.*}} : f64
// OPTS: call @k2_helper
gpu.module @scope {
  func.func @leaf(%x: f32) -> f32 {
    %0 = math.exp %x : f32
    return %0 : f32
  }
  func.func @helper(%x: f32) -> f32 {
    %0 = math.sin %x : f32
    %1 = call @leaf(%0) : (f32) -> f32
    return %1 : f32
  }
  func.func @unused(%x: f32) -> f32 {
    %0 = math.sin %x : f32
    return %0 : f32
  }
  func.func @k2_helper(%x: f32) -> f32 {
    %0 = math.cos %x : f32
    return %0 : f32
  }
  gpu.func @not_kernel(%x: f32) {
    %0 = math.cos %x : f32
    gpu.return
  }
  gpu.func @k1(%x: f32) kernel {
    %0 = func.call @helper(%x) : (f32) -> f32
    %1 = math.log %0 : f32
    gpu.return
  }
  gpu.func @k2(%x: f32, %d: f64) kernel {
    %0 = math.sqrt %x : f32
    %1 = math.sqrt %d : f64
    %2 = math.sin %0 : f32
    %3 = math.sin %d : f64
    %4 = func.call @k2_helper(%2) : (f32) -> f32
    gpu.return
  }
}

// -----

// newton-steps= applies to f64 div/rcp/sqrt/rsqrt only, range-reduction= to
// sin/cos only.
// OPTS-LABEL: gpu.module @options
// OPTS-LABEL: gpu.func @k2
// OPTS-SAME: (%[[X:.*]]: f32, %[[D:.*]]: f64, %[[E:.*]]: f64)
// CHECK-LABEL: gpu.module @options
// CHECK-LABEL: gpu.func @k2
// CHECK: approx.div %{{.*}}, %{{.*}} knob(@lambda) : f64
// CHECK-NOT: newton_steps
// CHECK-NOT: range_reduction
// OPTS: approx.div %[[D]], %[[E]] knob(@lambda) {newton_steps = 2 : i32} : f64
// OPTS: approx.rcp %{{.*}} knob(@lambda) {newton_steps = 2 : i32} : f64
// OPTS: approx.rsqrt %{{.*}} knob(@lambda) {newton_steps = 2 : i32} : f64
// OPTS: approx.div %[[X]], %[[X]] knob(@lambda) : f32
// OPTS: approx.cos %[[X]] knob(@lambda) {range_reduction} : f32
// OPTS: approx.exp %[[X]] knob(@lambda) : f32
gpu.module @options {
  gpu.func @k2(%x: f32, %d: f64, %e: f64) kernel {
    %one = arith.constant 1.0 : f64
    %0 = arith.divf %d, %e : f64
    %1 = arith.divf %one, %0 : f64
    %2 = math.rsqrt %1 : f64
    %3 = arith.divf %x, %x : f32
    %4 = math.cos %x : f32
    %5 = math.exp %x : f32
    gpu.return
  }
}

// END-K2

// -----

// An existing knob of that name is reused, not redeclared, whatever its range.
// CHECK-LABEL: gpu.module @reuse
// CHECK: approx.knob @lambda range(2, 10) default(4)
// CHECK-NOT: approx.knob
// CHECK-LABEL: gpu.func @reuse
// CHECK: approx.exp %{{.*}} knob(@lambda) : f32
// CHECK: approx.exp %{{.*}} knob(@lambda) form(sfu) : f32
// SOME-LABEL: gpu.module @reuse
// SOME-NOT: approx.knob @tau
// SOME: math.exp %{{.*}} : f32
gpu.module @reuse {
  approx.knob @lambda range(2, 10) default(4)
  gpu.func @reuse(%x: f32) kernel {
    %0 = math.exp %x : f32
    %1 = approx.exp %0 knob(@lambda) form(sfu) : f32
    gpu.return
  }
}

// -----

// Several kernels and many ops: the knob is declared once per gpu.module, and
// each gpu.module gets its own.
// CHECK-LABEL: gpu.module @once_a
// CHECK-COUNT-1: approx.knob @lambda
// CHECK-NOT: approx.knob
// CHECK-LABEL: gpu.module @once_b
// CHECK: approx.knob @lambda range(0, 64) default(0)
// CHECK-NOT: approx.knob
// CHECK: approx.rsqrt
gpu.module @once_a {
  gpu.func @a1(%x: f32) kernel {
    %0 = math.exp %x : f32
    %1 = math.exp %0 : f32
    gpu.return
  }
  gpu.func @a2(%x: f32) kernel {
    %0 = math.log %x : f32
    gpu.return
  }
}
gpu.module @once_b {
  gpu.func @b(%x: f32) kernel {
    %0 = math.rsqrt %x : f32
    gpu.return
  }
}

// -----

// Ops nested in regions are converted in place; loops and ifs are kept.
// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for
// CHECK: scf.if
// CHECK: approx.sin %{{.*}} knob(@lambda) : f32
// CHECK: } else {
// CHECK: approx.cos %{{.*}} knob(@lambda) : f32
// CHECK-NOT: math.
gpu.module @nested {
  gpu.func @nested(%x: f32, %n: index, %c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
      %v = scf.if %c -> (f32) {
        %s = math.sin %acc : f32
        scf.yield %s : f32
      } else {
        %s = math.cos %acc : f32
        scf.yield %s : f32
      }
      scf.yield %v : f32
    }
    gpu.return
  }
}
