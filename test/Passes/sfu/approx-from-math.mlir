// approx-from-math: math/arith functions in kernels -> tunable approx ops,
// and a site (with its reason) for everything recognised but left precise.
// RUN: approx-opt %s -split-input-file --approx-from-math | FileCheck %s
// RUN: approx-opt %s -split-input-file --approx-from-math="f64-demote=true" | FileCheck %s --check-prefix=DEMOTE
// RUN: approx-opt %s -split-input-file --approx-from-math="functions=sin,rcp knob=tau knob-max=48" | FileCheck %s --check-prefix=SOME
// RUN: approx-opt %s -split-input-file --approx-from-math="chip=sm_70" | FileCheck %s --check-prefix=SM70
// RUN: approx-opt %s -split-input-file --approx-from-math="newton-steps=2 range-reduction=true" | FileCheck %s --check-prefix=OPTS

// Every function with an SFU form on every float type, the 1/x form, and
// what is left alone (with its reason).
// CHECK-LABEL: gpu.module @all
// CHECK-SAME: #approx.site<technique = "sfu", function = "all", op = "expm1", type = f32, form = precise, reason = "no SFU form: ex2.approx(x) - 1 cancels near 0 and loses all relative accuracy there"
// CHECK-SAME: #approx.site<technique = "sfu", function = "all", op = "atan2", type = f32, form = precise, reason = "no SFU form: PTX has no approximate instruction for it"
// CHECK-SAME: #approx.site<technique = "sfu", function = "all", op = "rcp", type = f32, form = fast, reason = "fastmath<afn> already allows an approximation: lowered as upstream lowers it, not tunable"
// CHECK-SAME: #approx.site<technique = "sfu", function = "all", op = "exp", type = f32, form = fast
// CHECK: approx.knob @lambda range(0, 64) default(0)
// CHECK-NOT: approx.knob
// CHECK-LABEL: gpu.func @all
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[V:.*]]: vector<4xf32>, %[[H:.*]]: f16, %[[B:.*]]: vector<2xbf16>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[SIN:.*]] = approx.sin %[[X]] knob(@lambda) : f32
// CHECK: %[[COS:.*]] = approx.cos %[[SIN]] knob(@lambda) : f32
// CHECK: %[[TAN:.*]] = approx.tan %[[COS]] knob(@lambda) : f32
// CHECK: %[[EXP:.*]] = approx.exp %[[TAN]] knob(@lambda) : f32
// CHECK: %[[EXP2:.*]] = approx.exp2 %[[EXP]] knob(@lambda) : f32
// CHECK: %[[LOG:.*]] = approx.log %[[EXP2]] knob(@lambda) : f32
// CHECK: %[[LOG2:.*]] = approx.log2 %[[LOG]] knob(@lambda) : f32
// CHECK: %[[LOG10:.*]] = approx.log10 %[[LOG2]] knob(@lambda) : f32
// CHECK: %[[POW:.*]] = approx.pow %[[LOG10]], %[[Y]] knob(@lambda) : f32
// CHECK: %[[SQRT:.*]] = approx.sqrt %[[POW]] knob(@lambda) : f32
// CHECK: %[[RSQRT:.*]] = approx.rsqrt %[[SQRT]] knob(@lambda) : f32
// CHECK: %[[DIV:.*]] = approx.div %[[RSQRT]], %[[Y]] knob(@lambda) : f32
// CHECK: %[[RCP:.*]] = approx.rcp %[[DIV]] knob(@lambda) : f32
// CHECK: %[[D2:.*]] = approx.div %[[TWO]], %[[RCP]] knob(@lambda) : f32
// CHECK: %[[TANH:.*]] = approx.tanh %[[D2]] knob(@lambda) : f32
// CHECK: %[[EM1:.*]] = math.expm1 %[[TANH]] : f32
// CHECK: math.atan2 %[[EM1]], %[[Y]] : f32
// CHECK: approx.sin %[[V]] knob(@lambda) : vector<4xf32>
// CHECK: approx.exp %[[H]] knob(@lambda) : f16
// CHECK: approx.exp2 %[[B]] knob(@lambda) : vector<2xbf16>
// CHECK: arith.divf %[[ONE]], %{{.*}} fastmath<fast> : f32
// CHECK: math.exp %{{.*}} fastmath<afn> : f32
// CHECK: gpu.return
gpu.module @all {
  gpu.func @all(%x: f32, %y: f32, %v: vector<4xf32>, %h: f16, %b: vector<2xbf16>) kernel {
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %0 = math.sin %x : f32
    %1 = math.cos %0 : f32
    %2 = math.tan %1 : f32
    %3 = math.exp %2 : f32
    %4 = math.exp2 %3 : f32
    %5 = math.log %4 : f32
    %6 = math.log2 %5 : f32
    %7 = math.log10 %6 : f32
    %8 = math.powf %7, %y : f32
    %9 = math.sqrt %8 : f32
    %10 = math.rsqrt %9 : f32
    %11 = arith.divf %10, %y : f32
    %12 = arith.divf %one, %11 : f32
    %13 = arith.divf %two, %12 : f32
    %14 = math.tanh %13 : f32
    %15 = math.expm1 %14 : f32
    %16 = math.atan2 %15, %y : f32
    %17 = math.sin %v : vector<4xf32>
    %18 = math.exp %h : f16
    %19 = math.exp2 %b : vector<2xbf16>
    %20 = arith.divf %one, %16 fastmath<fast> : f32
    %21 = math.exp %20 fastmath<afn> : f32
    gpu.return
  }
}

// -----

// f64: div/rcp/sqrt/rsqrt always (native SFU estimates); the others only with
// f64-demote, otherwise recorded precise with the reason.
// CHECK-LABEL: gpu.module @f64_rules
// CHECK-SAME: op = "sin", type = f64, form = precise, reason = "f64 sin has no SFU form; pass f64-demote for the f32-demoted form"
// CHECK-SAME: op = "pow", type = f64, form = precise, reason = "f64 pow has no SFU form; pass f64-demote for the f32-demoted form"
// CHECK-LABEL: gpu.func @f64_rules
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: %[[SIN:.*]] = math.sin %[[X]] : f64
// CHECK: %[[POW:.*]] = math.powf %[[SIN]], %[[Y]] : f64
// CHECK: %[[DIV:.*]] = approx.div %[[POW]], %[[Y]] knob(@lambda) : f64
// CHECK: %[[RCP:.*]] = approx.rcp %[[DIV]] knob(@lambda) : f64
// CHECK: %[[SQRT:.*]] = approx.sqrt %[[RCP]] knob(@lambda) : f64
// CHECK: approx.rsqrt %[[SQRT]] knob(@lambda) : f64
// DEMOTE-LABEL: gpu.func @f64_rules
// DEMOTE: approx.sin %{{.*}} knob(@lambda) {demote} : f64
// DEMOTE: approx.pow %{{.*}}, %{{.*}} knob(@lambda) {demote} : f64
// DEMOTE: approx.div %{{.*}}, %{{.*}} knob(@lambda) : f64
// DEMOTE-NOT: math.
// OPTS-LABEL: gpu.func @f64_rules
// OPTS: approx.div %{{.*}}, %{{.*}} knob(@lambda) {newton_steps = 2 : i32} : f64
// OPTS: approx.rcp %{{.*}} knob(@lambda) {newton_steps = 2 : i32} : f64
gpu.module @f64_rules {
  gpu.func @f64_rules(%x: f64, %y: f64) kernel {
    %one = arith.constant 1.0 : f64
    %0 = math.sin %x : f64
    %1 = math.powf %0, %y : f64
    %2 = arith.divf %1, %y : f64
    %3 = arith.divf %one, %2 : f64
    %4 = math.sqrt %3 : f64
    %5 = math.rsqrt %4 : f64
    gpu.return
  }
}

// -----

// Nothing converted: no knob is declared, but the precise op is recorded.
// CHECK-LABEL: gpu.module @f64_nothing attributes {approx.sites = [#approx.site<{{.*}}op = "sin", type = f64, form = precise
// CHECK-NOT: approx.knob
// CHECK-LABEL: gpu.func @f64_nothing
// CHECK: math.sin
// DEMOTE-LABEL: gpu.module @f64_nothing
// DEMOTE: approx.knob @lambda range(0, 64) default(0)
gpu.module @f64_nothing {
  gpu.func @f64_nothing(%x: f64) kernel {
    %0 = math.sin %x : f64
    gpu.return
  }
}

// -----

// functions= picks functions (the rest is recorded as not named), knob= and
// knob-max= name and size the declared knob.
// SOME-LABEL: gpu.module @pick
// SOME-SAME: op = "cos", type = f32, form = precise, reason = "not named in functions="
// SOME-SAME: op = "div", type = f32, form = precise, reason = "not named in functions="
// SOME: approx.knob @tau range(0, 48) default(0)
// SOME-NOT: approx.knob
// SOME-LABEL: gpu.func @pick
// SOME: approx.sin %{{.*}} knob(@tau) : f32
// SOME: math.cos
// SOME: arith.divf
// SOME: approx.rcp %{{.*}} knob(@tau) : f32
gpu.module @pick {
  gpu.func @pick(%x: f32, %y: f32) kernel {
    %one = arith.constant 1.0 : f32
    %0 = math.sin %x : f32
    %1 = math.cos %0 : f32
    %2 = arith.divf %1, %y : f32
    %3 = arith.divf %one, %2 : f32
    gpu.return
  }
}

// -----

// A knob the module already declares is reused, range and all.
// CHECK-LABEL: gpu.module @existing
// CHECK: approx.knob @lambda range(0, 16) default(3)
// CHECK-NOT: approx.knob
gpu.module @existing {
  approx.knob @lambda range(0, 16) default(3)
  gpu.func @existing(%x: f32) kernel {
    %0 = math.exp %x : f32
    gpu.return
  }
}

// -----

// Helpers: called at the top level of a kernel and from a loop, transitively;
// an unused function and a non-kernel gpu.func are left alone.
// CHECK-LABEL: gpu.module @scope
// CHECK-LABEL: func.func @leaf
// CHECK: approx.exp %{{.*}} knob(@lambda) : f32
// CHECK-LABEL: func.func @helper
// CHECK: approx.sin %{{.*}} knob(@lambda) : f32
// CHECK: call @leaf
// CHECK-LABEL: func.func @unused
// CHECK: math.sin %{{.*}} : f32
// CHECK-LABEL: gpu.func @k
// CHECK: call @helper
// CHECK: approx.log %{{.*}} knob(@lambda) : f32
gpu.module @scope {
  func.func @leaf(%x: f32) -> f32 {
    %0 = math.exp %x : f32
    return %0 : f32
  }
  func.func @helper(%x: f32) -> f32 {
    %0 = math.sin %x : f32
    %1 = func.call @leaf(%0) : (f32) -> f32
    return %1 : f32
  }
  func.func @unused(%x: f32) -> f32 {
    %0 = math.sin %x : f32
    return %0 : f32
  }
  gpu.func @k(%a: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = memref.load %a[%c0] : memref<?xf32>
    %h = func.call @helper(%x) : (f32) -> f32
    scf.for %i = %c0 to %n step %c1 {
      %l = math.log %h : f32
      memref.store %l, %a[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// The target decides: sm_70 has no tanh.approx (stays precise, with the
// reason), no ex2.approx.f16 (f16 exp2 goes through f32 there).
// SM70-LABEL: gpu.module @target
// SM70-SAME: op = "tanh", type = f32, form = precise, reason = "tanh.approx.f32 needs sm_75, the target is sm_70"
// SM70-LABEL: gpu.func @target
// SM70: math.tanh %{{.*}} : f32
// SM70: approx.exp2 %{{.*}} knob(@lambda) : f16
// CHECK-LABEL: gpu.func @target
// CHECK: approx.tanh %{{.*}} knob(@lambda) : f32
// OPTS-LABEL: gpu.func @target
// OPTS: approx.sin %{{.*}} knob(@lambda) {range_reduction} : f32
// OPTS: approx.tanh %{{.*}} knob(@lambda) : f32
gpu.module @target {
  gpu.func @target(%x: f32, %h: f16) kernel {
    %s = math.sin %x : f32
    %0 = math.tanh %s : f32
    %1 = math.exp2 %h : f16
    gpu.return
  }
}

// -----

// A nested symbol table (here a builtin.module) is not the gpu.module's code:
// its math stays as it is and gets no site.
// CHECK-LABEL: gpu.module @nested_table
// CHECK-NOT: approx.sites
// CHECK: builtin.module @inner
// CHECK: math.exp
// CHECK: gpu.func @k
// CHECK: approx.sin
gpu.module @nested_table {
  builtin.module @inner {
    func.func @f(%x: f32) -> f32 {
      %y = math.exp %x : f32
      return %y : f32
    }
  }
  gpu.func @k(%x: f32, %o: memref<4xf32>) kernel {
    %y = math.sin %x : f32
    %c0 = arith.constant 0 : index
    memref.store %y, %o[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// 1 / sqrt(x) is one rsqrt site in f32 and f64 (its precise form is the
// same sqrt.rn, rcp.rn); a sqrt used elsewhere too, f16, and differing
// fast-math flags keep two sites.
// CHECK-LABEL: gpu.module @rsqrt_pair
// CHECK:       approx.rsqrt %{{.*}} knob(@lambda) : f32
// CHECK-NEXT:  approx.rsqrt %{{.*}} knob(@lambda) : f64
// CHECK-NEXT:  approx.sqrt
// CHECK-NEXT:  approx.rcp
// CHECK:       approx.sqrt {{.*}} : f16
// CHECK-NEXT:  approx.rcp {{.*}} : f16
// CHECK:       approx.sqrt
// CHECK-NEXT:  approx.rcp
gpu.module @rsqrt_pair {
  gpu.func @k(%x: f32, %d: f64, %h: f16, %p: memref<4xf32>) kernel {
    %one = arith.constant 1.0 : f32
    %oned = arith.constant 1.0 : f64
    %oneh = arith.constant 1.0 : f16
    %c0 = arith.constant 0 : index
    %s = math.sqrt %x : f32
    %r = arith.divf %one, %s : f32
    %sd = math.sqrt %d : f64
    %rd = arith.divf %oned, %sd : f64
    %s2 = math.sqrt %r : f32
    %r2 = arith.divf %one, %s2 : f32
    %sum = arith.addf %s2, %r2 : f32
    %sh = math.sqrt %h : f16
    %rh = arith.divf %oneh, %sh : f16
    %s3 = math.sqrt %x fastmath<contract> : f32
    %r3 = arith.divf %one, %s3 : f32
    memref.store %sum, %p[%c0] : memref<4xf32>
    memref.store %r3, %p[%c0] : memref<4xf32>
    gpu.return
  }
}
