// approx-from-math kernels=: a selection across several gpu.modules (bare or
// MODULE::KERNEL names); a helper shared with unselected kernels is cloned for
// the selected side, so unselected kernels stay exactly as written, and what
// they hold is recorded as precise.
// RUN: approx-opt %s --approx-from-math="kernels=k1,m2::k3" | FileCheck %s
// RUN: approx-opt %s --approx-from-math="kernels=m1::k2" | FileCheck %s --check-prefix=K2

// CHECK-LABEL: gpu.module @m1
// CHECK-SAME: function = "k2", op = "log", type = f32, form = precise, reason = "not in a kernel named in kernels="
// CHECK-SAME: function = "shared", op = "sin", type = f32, form = precise, reason = "not in a kernel named in kernels="
// CHECK: approx.knob @lambda
// CHECK-LABEL: func.func @shared
// CHECK-NEXT: math.sin
// CHECK-LABEL: func.func private @shared_approx
// CHECK-NEXT: approx.sin %{{.*}} knob(@lambda) : f32
// CHECK-LABEL: gpu.func @k1
// CHECK: call @shared_approx
// CHECK: approx.exp
// CHECK-LABEL: gpu.func @k2
// CHECK: call @shared(
// CHECK: math.log
// CHECK-LABEL: gpu.module @m2
// CHECK-LABEL: gpu.func @k3
// CHECK: approx.cos
// K2-LABEL: gpu.module @m1
// K2-LABEL: func.func @shared
// K2-NEXT: math.sin
// K2-LABEL: func.func private @shared_approx
// K2-NEXT: approx.sin
// K2-LABEL: gpu.func @k1
// K2: call @shared(
// K2: math.exp
// K2-LABEL: gpu.func @k2
// K2: call @shared_approx
// K2: approx.log
// K2-LABEL: gpu.module @m2
// K2-NOT: approx.knob
// K2-LABEL: gpu.func @k3
// K2: math.cos
module {
  gpu.module @m1 {
    func.func @shared(%x: f32) -> f32 {
      %0 = math.sin %x : f32
      return %0 : f32
    }
    gpu.func @k1(%a: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<?xf32>
      %s = func.call @shared(%x) : (f32) -> f32
      %e = math.exp %s : f32
      memref.store %e, %a[%c0] : memref<?xf32>
      gpu.return
    }
    gpu.func @k2(%a: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<?xf32>
      %s = func.call @shared(%x) : (f32) -> f32
      %l = math.log %s : f32
      memref.store %l, %a[%c0] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @m2 {
    gpu.func @k3(%a: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<?xf32>
      %c = math.cos %x : f32
      memref.store %c, %a[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
