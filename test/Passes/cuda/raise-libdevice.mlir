// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-raise-libdevice))' | FileCheck %s

// f32 and f64 libdevice calls of functions the table knows become math ops,
// with the call's fast-math flags; fdiv becomes arith.divf. Declarations no
// call uses any more are erased.
// CHECK-LABEL: gpu.module @calls
// CHECK-NOT:   llvm.func @__nv_expf
// CHECK-NOT:   llvm.func @__nv_pow(
// CHECK:       llvm.func @__nv_fast_expf
// CHECK-LABEL: gpu.func @k
// CHECK:       math.exp %{{.*}} fastmath<contract> : f32
// CHECK:       math.powf %{{.*}}, %{{.*}} : f64
// CHECK:       math.sqrt %{{.*}} : f32
// CHECK:       math.erf %{{.*}} : f32
// CHECK:       arith.divf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK:       llvm.call @__nv_fast_expf
// CHECK:       llvm.call @__nv_fmaf
gpu.module @calls {
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @__nv_pow(f64, f64) -> f64
  llvm.func @__nv_sqrtf(f32) -> f32
  llvm.func @__nv_erff(f32) -> f32
  llvm.func @__nv_fast_expf(f32) -> f32
  llvm.func @__nv_fmaf(f32, f32, f32) -> f32
  gpu.func @k(%x: f32, %d: f64) kernel {
    %e = llvm.call @__nv_expf(%x) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
    %p = llvm.call @__nv_pow(%d, %d) : (f64, f64) -> f64
    %s = llvm.call @__nv_sqrtf(%e) : (f32) -> f32
    %r = llvm.call @__nv_erff(%s) : (f32) -> f32
    %q = llvm.fdiv %r, %e {fastmathFlags = #llvm.fastmath<contract>} : f32
    %f = llvm.call @__nv_fast_expf(%q) : (f32) -> f32
    %m = llvm.call @__nv_fmaf(%f, %f, %f) : (f32, f32, f32) -> f32
    gpu.return
  }
}

// -----

// LLVM math intrinsics, vectors included.
// CHECK-LABEL: gpu.module @intrinsics
// CHECK:       math.sqrt %{{.*}} : f32
// CHECK:       math.exp %{{.*}} : vector<4xf32>
// CHECK:       math.powf %{{.*}}, %{{.*}} : f64
// CHECK:       arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
gpu.module @intrinsics {
  gpu.func @k(%x: f32, %v: vector<4xf32>, %d: f64) kernel {
    %s = llvm.intr.sqrt(%x) : (f32) -> f32
    %e = llvm.intr.exp(%v) : (vector<4xf32>) -> vector<4xf32>
    %p = llvm.intr.pow(%d, %d) : (f64, f64) -> f64
    %q = llvm.fdiv %e, %v : vector<4xf32>
    gpu.return
  }
}

// -----

// Not raised: a name the table does not know, an f32 call of the f64 name,
// a mismatched signature, f16.
// CHECK-LABEL: gpu.module @kept
// CHECK:       llvm.call @__nv_exp(%{{.*}}) : (f32) -> f32
// CHECK:       llvm.call @__nv_frexpf
// CHECK:       llvm.call @__nv_expf(%{{.*}}) : (f64) -> f64
// CHECK-NOT:   math.
gpu.module @kept {
  llvm.func @__nv_exp(f32) -> f32
  llvm.func @__nv_frexpf(f32, !llvm.ptr) -> f32
  llvm.func @__nv_expf(f64) -> f64
  gpu.func @k(%x: f32, %p: !llvm.ptr, %d: f64) kernel {
    %a = llvm.call @__nv_exp(%x) : (f32) -> f32
    %b = llvm.call @__nv_frexpf(%x, %p) : (f32, !llvm.ptr) -> f32
    %c = llvm.call @__nv_expf(%d) : (f64) -> f64
    gpu.return
  }
}

// -----

// libdevice's rsqrt is already rsqrt.approx: not raised, not a site.
// CHECK-LABEL: gpu.module @rsqrt
// CHECK:       llvm.call @__nv_rsqrtf
// CHECK:       llvm.call @__nv_rsqrt(
// CHECK-NOT:   math.rsqrt
gpu.module @rsqrt {
  llvm.func @__nv_rsqrtf(f32) -> f32
  llvm.func @__nv_rsqrt(f64) -> f64
  gpu.func @k(%x: f32, %d: f64) kernel {
    %a = llvm.call @__nv_rsqrtf(%x) : (f32) -> f32
    %b = llvm.call @__nv_rsqrt(%d) : (f64) -> f64
    gpu.return
  }
}

// -----

// libdevice's integer min / max become arith's (signed or unsigned, int or
// long long); a name with the wrong width stays a call.
// CHECK-LABEL: gpu.module @integer_min_max
// CHECK-NOT:   llvm.func @__nv_min
// CHECK-NOT:   llvm.func @__nv_ullmax
// CHECK:       llvm.func @__nv_llmin
// CHECK-LABEL: gpu.func @k
// CHECK:       arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK:       arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK:       arith.minui %{{.*}}, %{{.*}} : i32
// CHECK:       arith.maxui %{{.*}}, %{{.*}} : i64
// CHECK:       llvm.call @__nv_llmin(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
gpu.module @integer_min_max {
  llvm.func @__nv_min(i32, i32) -> i32
  llvm.func @__nv_max(i32, i32) -> i32
  llvm.func @__nv_umin(i32, i32) -> i32
  llvm.func @__nv_ullmax(i64, i64) -> i64
  llvm.func @__nv_llmin(i32, i32) -> i32
  gpu.func @k(%a: i32, %b: i32, %c: i64) kernel {
    %0 = llvm.call @__nv_min(%a, %b) : (i32, i32) -> i32
    %1 = llvm.call @__nv_max(%0, %b) : (i32, i32) -> i32
    %2 = llvm.call @__nv_umin(%1, %a) : (i32, i32) -> i32
    %3 = llvm.call @__nv_ullmax(%c, %c) : (i64, i64) -> i64
    %4 = llvm.call @__nv_llmin(%2, %a) : (i32, i32) -> i32
    gpu.return
  }
}
