// The SFU family's lowering (passes/sfu, through convert-approx-to-nvvm):
// each pinned function op's exact SFU or precise form, per type.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm))' | FileCheck %s
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm{precise-sqrt=false}))' | FileCheck %s --check-prefix=NOSQRT

// f32 SFU forms: the PTX of Table 1, .ftz on those calls only.
// CHECK-LABEL: func.func @sfu_f32
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK: %[[SIN:.*]] = llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: %[[COS:.*]] = llvm.call_intrinsic "llvm.nvvm.cos.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG: %[[EXPIN:.*]] = arith.mulf %[[X]], %[[LOG2E]] : f32
// CHECK: %[[EXP:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[EXPIN]]) : (f32) -> f32
// CHECK-DAG: %[[LN2:.*]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[LG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: %[[LOG:.*]] = arith.mulf %[[LG]], %[[LN2]] : f32
// CHECK: %[[AX:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT: %[[PLG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[AX]]) : (f32) -> f32
// CHECK-NEXT: %[[PMUL:.*]] = arith.mulf %[[PLG]], %[[Y]] : f32
// CHECK-NEXT: %[[MAG:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[PMUL]]) : (f32) -> f32
// CHECK-COUNT-3: arith.select
// CHECK-NEXT: %[[DIV:.*]] = llvm.call_intrinsic "llvm.nvvm.div.approx.ftz.f"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-NEXT: %[[RCP:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %[[SQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %[[RSQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: return %[[SIN]], %[[COS]], %[[EXP]], %[[LOG]], %{{.*}}, %[[DIV]], %[[RCP]], %[[SQRT]], %[[RSQRT]]
// CHECK-NOT: approx.
gpu.module @sfu_f32 {
  approx.knob @k range(0, 64) default(0)
  func.func @sfu_f32(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32) {
    %0 = approx.sin %x knob(@k) form(sfu) : f32
    %1 = approx.cos %x knob(@k) form(sfu) : f32
    %2 = approx.exp %x knob(@k) form(sfu) : f32
    %3 = approx.log %x knob(@k) form(sfu) : f32
    %4 = approx.pow %x, %y knob(@k) form(sfu) : f32
    %5 = approx.div %x, %y knob(@k) form(sfu) : f32
    %6 = approx.rcp %x knob(@k) form(sfu) : f32
    %7 = approx.sqrt %x knob(@k) form(sfu) : f32
    %8 = approx.rsqrt %x knob(@k) form(sfu) : f32
    return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f32, f32, f32
  }
}

// -----

// f32 precise forms: what nvcc emits without fast math. sin/cos/exp/log/pow
// stay math ops (libdevice in convert-gpu-to-nvvm), div is arith.divf (div.rn),
// rcp/sqrt are the .rn intrinsics, rsqrt is sqrt.rn then rcp.rn. No .approx.
// CHECK-LABEL: func.func @precise_f32
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-NOT: approx
// CHECK: %[[SIN:.*]] = math.sin %[[X]] : f32
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[X]] : f32
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT: %[[LOG:.*]] = math.log %[[X]] : f32
// CHECK-NEXT: %[[POW:.*]] = math.powf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[DIV:.*]] = arith.divf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[RCP:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.rn.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %[[SQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %[[RS0:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %[[RSQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.rn.f"(%[[RS0]]) : (f32) -> f32
// CHECK-NEXT: return %[[SIN]], %[[COS]], %[[EXP]], %[[LOG]], %{{.*}}, %[[DIV]], %[[RCP]], %[[SQRT]], %[[RSQRT]]
gpu.module @precise_f32 {
  approx.knob @k range(0, 64) default(0)
  func.func @precise_f32(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32) {
    %0 = approx.sin %x knob(@k) form(precise) : f32
    %1 = approx.cos %x knob(@k) form(precise) : f32
    %2 = approx.exp %x knob(@k) form(precise) : f32
    %3 = approx.log %x knob(@k) form(precise) : f32
    %4 = approx.pow %x, %y knob(@k) form(precise) : f32
    %5 = approx.div %x, %y knob(@k) form(precise) : f32
    %6 = approx.rcp %x knob(@k) form(precise) : f32
    %7 = approx.sqrt %x knob(@k) form(precise) : f32
    %8 = approx.rsqrt %x knob(@k) form(precise) : f32
    return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f32, f32, f32
  }
}

// -----

// f64 precise forms; precise ignores demote and newton_steps.
// CHECK-LABEL: func.func @precise_f64
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK-NOT: approx
// CHECK: %[[SIN:.*]] = math.sin %[[X]] : f64
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[X]] : f64
// CHECK-NEXT: %[[POW:.*]] = math.powf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[DIV:.*]] = arith.divf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[RCP:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.rn.d"(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[SQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.d"(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[RS0:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.d"(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[RSQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.rn.d"(%[[RS0]]) : (f64) -> f64
// CHECK-NEXT: return %[[SIN]], %[[EXP]], %[[POW]], %[[DIV]], %[[RCP]], %[[SQRT]], %[[RSQRT]]
gpu.module @precise_f64 {
  approx.knob @k range(0, 64) default(0)
  func.func @precise_f64(%x: f64, %y: f64) -> (f64, f64, f64, f64, f64, f64, f64) {
    %0 = approx.sin %x knob(@k) form(precise) : f64
    %1 = approx.exp %x knob(@k) form(precise) {demote} : f64
    %2 = approx.pow %x, %y knob(@k) form(precise) : f64
    %3 = approx.div %x, %y knob(@k) form(precise) {newton_steps = 2 : i32} : f64
    %4 = approx.rcp %x knob(@k) form(precise) : f64
    %5 = approx.sqrt %x knob(@k) form(precise) : f64
    %6 = approx.rsqrt %x knob(@k) form(precise) {newton_steps = 3 : i32} : f64
    return %0, %1, %2, %3, %4, %5, %6 : f64, f64, f64, f64, f64, f64, f64
  }
}

// -----

// f64 SFU forms with no Newton step: the paper's Table 2 exactly.
// CHECK-LABEL: func.func @sfu_f64_steps0
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK-NEXT: %[[RCP:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[RSQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.d"(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[R:.*]] = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.d"(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[SQRT:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"(%[[R]]) : (f64) -> f64
// CHECK-NEXT: %[[RY:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"(%[[Y]]) : (f64) -> f64
// CHECK-NEXT: %[[DIV:.*]] = arith.mulf %[[X]], %[[RY]] : f64
// CHECK-NEXT: %[[RCP0:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"(%[[X]]) : (f64) -> f64
// CHECK-NEXT: return %[[RCP]], %[[RSQRT]], %[[SQRT]], %[[DIV]], %[[RCP0]]
// CHECK-NOT: math.fma
gpu.module @sfu_f64_steps0 {
  approx.knob @k range(0, 64) default(0)
  func.func @sfu_f64_steps0(%x: f64, %y: f64) -> (f64, f64, f64, f64, f64) {
    %0 = approx.rcp %x knob(@k) form(sfu) : f64
    %1 = approx.rsqrt %x knob(@k) form(sfu) : f64
    %2 = approx.sqrt %x knob(@k) form(sfu) : f64
    %3 = approx.div %x, %y knob(@k) form(sfu) : f64
    %4 = approx.rcp %x knob(@k) form(sfu) {newton_steps = 0 : i32} : f64
    return %0, %1, %2, %3, %4 : f64, f64, f64, f64, f64
  }
}

// -----

// f64 rcp with 1, 2, 3 Newton steps y += y (1 - x y): two fmas per step, then
// keep the estimate where it is 0, inf or NaN.
// CHECK-LABEL: func.func @rcp_f64_newton
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[Y0:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"(%[[X]]) : (f64) -> f64
// CHECK: %[[NX:.*]] = arith.negf %[[X]] : f64
// CHECK-NEXT: %[[E1:.*]] = math.fma %[[NX]], %[[Y0]], %[[ONE]] : f64
// CHECK-NEXT: %[[Y1:.*]] = math.fma %[[Y0]], %[[E1]], %[[Y0]] : f64
// CHECK-NOT: math.fma
// CHECK: %[[ABS:.*]] = math.absf %[[Y0]] : f64
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[FIN:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : f64
// CHECK-DAG: %[[NZ:.*]] = arith.cmpf one, %[[Y0]], %[[ZERO]] : f64
// CHECK: %[[OK:.*]] = arith.andi %[[FIN]], %[[NZ]] : i1
// CHECK-NEXT: %[[R1:.*]] = arith.select %[[OK]], %[[Y1]], %[[Y0]] : f64
// CHECK: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"
// CHECK-COUNT-4: math.fma
// CHECK-NOT: math.fma
// CHECK: arith.select
// CHECK: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"
// CHECK-COUNT-6: math.fma
// CHECK-NOT: math.fma
// CHECK: arith.select
// CHECK: return %[[R1]]
gpu.module @rcp_f64_newton {
  approx.knob @k range(0, 64) default(0)
  func.func @rcp_f64_newton(%x: f64) -> (f64, f64, f64) {
    %1 = approx.rcp %x knob(@k) form(sfu) {newton_steps = 1 : i32} : f64
    %2 = approx.rcp %x knob(@k) form(sfu) {newton_steps = 2 : i32} : f64
    %3 = approx.rcp %x knob(@k) form(sfu) {newton_steps = 3 : i32} : f64
    return %1, %2, %3 : f64, f64, f64
  }
}

// -----

// f64 rsqrt with Newton steps y += y/2 (1 - x y^2): a mulf and two fmas per step.
// CHECK-LABEL: func.func @rsqrt_f64_newton
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK: %[[Y0:.*]] = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.d"(%[[X]]) : (f64) -> f64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG: %[[SQ:.*]] = arith.mulf %[[Y0]], %[[Y0]] : f64
// CHECK-DAG: %[[NX:.*]] = arith.negf %[[X]] : f64
// CHECK-DAG: %[[ERR:.*]] = math.fma %[[NX]], %[[SQ]], %[[ONE]] : f64
// CHECK-DAG: %[[HY:.*]] = arith.mulf %[[Y0]], %[[HALF]] : f64
// CHECK: %[[Y1:.*]] = math.fma %[[HY]], %[[ERR]], %[[Y0]] : f64
// CHECK-NOT: math.fma
// CHECK: %[[R1:.*]] = arith.select %{{.*}}, %[[Y1]], %[[Y0]] : f64
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.d"
// CHECK-COUNT-6: math.fma
// CHECK-NOT: math.fma
// CHECK: arith.select
// CHECK: return %[[R1]]
gpu.module @rsqrt_f64_newton {
  approx.knob @k range(0, 64) default(0)
  func.func @rsqrt_f64_newton(%x: f64) -> (f64, f64) {
    %1 = approx.rsqrt %x knob(@k) form(sfu) {newton_steps = 1 : i32} : f64
    %3 = approx.rsqrt %x knob(@k) form(sfu) {newton_steps = 3 : i32} : f64
    return %1, %3 : f64, f64
  }
}

// -----

// f64 sqrt with Newton steps: refined rsqrt, s = x * rsqrt, one correction
// s += (x - s^2) y/2; where rsqrt is 0 or inf (x = inf, +-0) the answer is x,
// and where it is NaN (x < 0, NaN) it is NaN.
// CHECK-LABEL: func.func @sqrt_f64_newton
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK: %[[Y0:.*]] = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.d"(%[[X]]) : (f64) -> f64
// CHECK-COUNT-2: math.fma
// CHECK: %[[Y:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Y0]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[X]], %[[Y]] : f64
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG: %[[HY:.*]] = arith.mulf %[[Y]], %[[HALF]] : f64
// CHECK-DAG: %[[NS:.*]] = arith.negf %[[S]] : f64
// CHECK-DAG: %[[RES:.*]] = math.fma %[[NS]], %[[S]], %[[X]] : f64
// CHECK: %[[FIX:.*]] = math.fma %[[RES]], %[[HY]], %[[S]] : f64
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[Y]], %[[Y]] : f64
// CHECK-NEXT: %[[ELSE:.*]] = arith.select %[[NAN]], %[[Y]], %[[X]] : f64
// CHECK: %[[OK:.*]] = arith.andi
// CHECK-NEXT: %[[R:.*]] = arith.select %[[OK]], %[[FIX]], %[[ELSE]] : f64
// CHECK-NOT: llvm.nvvm.rcp
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.d"
// CHECK-COUNT-4: math.fma
// CHECK-NOT: math.fma
// CHECK: return %[[R]]
gpu.module @sqrt_f64_newton {
  approx.knob @k range(0, 64) default(0)
  func.func @sqrt_f64_newton(%x: f64) -> (f64, f64) {
    %1 = approx.sqrt %x knob(@k) form(sfu) {newton_steps = 1 : i32} : f64
    %2 = approx.sqrt %x knob(@k) form(sfu) {newton_steps = 1 : i32} : f64
    return %1, %2 : f64, f64
  }
}

// -----

// f64 div with Newton steps: refined rcp of y, q = x * r, one residual
// correction q += r (x - y q), kept only where r and q are finite and nonzero.
// CHECK-LABEL: func.func @div_f64_newton
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: %[[R0:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.d"(%[[Y]]) : (f64) -> f64
// CHECK-COUNT-4: math.fma
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[R0]] : f64
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[X]], %[[R]] : f64
// CHECK-NEXT: %[[NY:.*]] = arith.negf %[[Y]] : f64
// CHECK-NEXT: %[[RES:.*]] = math.fma %[[NY]], %[[Q]], %[[X]] : f64
// CHECK-NEXT: %[[FIX:.*]] = math.fma %[[RES]], %[[R]], %[[Q]] : f64
// CHECK-NOT: math.fma
// CHECK: %[[ROK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[QOK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[ROK]], %[[QOK]] : i1
// CHECK-NEXT: %[[D:.*]] = arith.select %[[OK]], %[[FIX]], %[[Q]] : f64
// CHECK-NEXT: return %[[D]]
gpu.module @div_f64_newton {
  approx.knob @k range(0, 64) default(0)
  func.func @div_f64_newton(%x: f64, %y: f64) -> f64 {
    %0 = approx.div %x, %y knob(@k) form(sfu) {newton_steps = 2 : i32} : f64
    return %0 : f64
  }
}

// -----

// demote: cvt.rn.f32.f64, the f32 SFU form, cvt.f64.f32.
// CHECK-LABEL: func.func @demote
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: %[[T:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK-NEXT: %[[S:.*]] = llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"(%[[T]]) : (f32) -> f32
// CHECK-NEXT: %[[SIN:.*]] = arith.extf %[[S]] : f32 to f64
// CHECK-NEXT: %[[T2:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG: %[[M:.*]] = arith.mulf %[[T2]], %[[LOG2E]] : f32
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[M]]) : (f32) -> f32
// CHECK-NEXT: %[[EXP:.*]] = arith.extf %[[E]] : f32 to f64
// CHECK-NEXT: %[[PX:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK-NEXT: %[[PY:.*]] = arith.truncf %[[Y]] : f64 to f32
// CHECK-NEXT: %[[PA:.*]] = math.absf %[[PX]] : f32
// CHECK-NEXT: %[[PL:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[PA]]) : (f32) -> f32
// CHECK-NEXT: %[[PM:.*]] = arith.mulf %[[PL]], %[[PY]] : f32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[PM]]) : (f32) -> f32
// CHECK-COUNT-3: arith.select
// CHECK-NEXT: %[[POW:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT: %[[CT:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK: math.roundeven
// CHECK: %[[C:.*]] = llvm.call_intrinsic "llvm.nvvm.cos.approx.ftz.f"
// CHECK-NEXT: %[[COS:.*]] = arith.extf %[[C]] : f32 to f64
// CHECK: %[[LT:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[LT]])
// CHECK: %[[LOG:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT: return %[[SIN]], %[[EXP]], %[[POW]], %[[COS]], %[[LOG]]
gpu.module @demote {
  approx.knob @k range(0, 64) default(0)
  func.func @demote(%x: f64, %y: f64) -> (f64, f64, f64, f64, f64) {
    %0 = approx.sin %x knob(@k) form(sfu) {demote} : f64
    %1 = approx.exp %x knob(@k) form(sfu) {demote} : f64
    %2 = approx.pow %x, %y knob(@k) form(sfu) {demote} : f64
    %3 = approx.cos %x knob(@k) form(sfu) {demote, range_reduction} : f64
    %4 = approx.log %x knob(@k) form(sfu) {demote} : f64
    return %0, %1, %2, %3, %4 : f64, f64, f64, f64, f64
  }
}

// -----

// range_reduction: k = roundeven(x / 2pi), then x - k*2pi_hi - k*2pi_lo by two
// fmas (Cody-Waite), then the SFU call on the reduced argument.
// CHECK-LABEL: func.func @range_reduction
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-DAG: %[[INV2PI:.*]] = arith.constant 0.159154937 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 6.281250e+00 : f32
// CHECK-DAG: %[[LO:.*]] = arith.constant 0.00193530717 : f32
// CHECK-DAG: %[[Q:.*]] = arith.mulf %[[X]], %[[INV2PI]] : f32
// CHECK-DAG: %[[K:.*]] = math.roundeven %[[Q]] : f32
// CHECK: %[[NK:.*]] = arith.negf %[[K]] : f32
// CHECK-NEXT: %[[R1:.*]] = math.fma %[[NK]], %[[HI]], %[[X]] : f32
// CHECK-NEXT: %[[R2:.*]] = math.fma %[[NK]], %[[LO]], %[[R1]] : f32
// CHECK-NEXT: %[[SIN:.*]] = llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"(%[[R2]]) : (f32) -> f32
// CHECK: math.roundeven
// CHECK-COUNT-2: math.fma
// CHECK-NEXT: %[[COS:.*]] = llvm.call_intrinsic "llvm.nvvm.cos.approx.ftz.f"
// CHECK-NEXT: %[[PLAIN:.*]] = llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: return %[[SIN]], %[[COS]], %[[PLAIN]]
gpu.module @range_reduction {
  approx.knob @k range(0, 64) default(0)
  func.func @range_reduction(%x: f32) -> (f32, f32, f32) {
    %0 = approx.sin %x knob(@k) form(sfu) {range_reduction} : f32
    %1 = approx.cos %x knob(@k) form(sfu) {range_reduction} : f32
    %2 = approx.sin %x knob(@k) form(sfu) : f32
    return %0, %1, %2 : f32, f32, f32
  }
}

// -----

// Plain math.sqrt (not an approx op) becomes sqrt.rn unless precise-sqrt=false;
// other math ops and vectors are left alone. approx.sites is dropped once
// lowered.
// CHECK-LABEL: gpu.module @plain_sqrt {
// CHECK-LABEL: func.func @plain_sqrt
// CHECK-SAME: (%[[X:.*]]: f32, %[[D:.*]]: f64, %[[V:.*]]: vector<2xf32>)
// CHECK-NEXT: %[[S:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %[[SD:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.d"(%[[D]]) : (f64) -> f64
// CHECK-NEXT: %[[SV:.*]] = math.sqrt %[[V]] : vector<2xf32>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT: return %[[S]], %[[SD]], %[[SV]], %[[E]]
// NOSQRT-LABEL: func.func @plain_sqrt
// NOSQRT-NOT: llvm.nvvm.sqrt.rn
// NOSQRT: math.sqrt %{{.*}} : f32
// NOSQRT-NEXT: math.sqrt %{{.*}} : f64
// NOSQRT-NOT: llvm.nvvm.sqrt.rn
// NOSQRT: return
gpu.module @plain_sqrt attributes {approx.sites = []} {
  func.func @plain_sqrt(%x: f32, %d: f64, %v: vector<2xf32>) -> (f32, f64, vector<2xf32>, f32) {
    %0 = math.sqrt %x : f32
    %1 = math.sqrt %d : f64
    %2 = math.sqrt %v : vector<2xf32>
    %3 = math.exp %x : f32
    return %0, %1, %2, %3 : f32, f64, vector<2xf32>, f32
  }
}

// -----

// precise-sqrt=false leaves math.sqrt but still lowers approx.sqrt pinned precise.
// NOSQRT-LABEL: func.func @approx_sqrt_any_option
// NOSQRT: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
// CHECK-LABEL: func.func @approx_sqrt_any_option
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
gpu.module @approx_sqrt_any_option {
  approx.knob @k range(0, 64) default(0)
  func.func @approx_sqrt_any_option(%x: f32) -> f32 {
    %0 = approx.sqrt %x knob(@k) form(precise) : f32
    return %0 : f32
  }
}

// -----

// Lowered inside a versioned kernel: the SFU intrinsics only in the then
// branch, the precise forms only in the else branch.
// CHECK-LABEL: gpu.func @branches
// CHECK: nvvm.read.ptx.sreg.warpid
// CHECK: llvm.load
// CHECK: scf.if
// CHECK-NOT: math.exp
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: math.exp
// CHECK: } else {
// CHECK-NOT: approx.ftz
// CHECK: math.exp
// CHECK-NOT: approx.ftz
// CHECK: gpu.return
gpu.module @branches {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @branches(%x: f32, %a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = approx.warp_slot hw : i32
    %l = approx.knob_value @lambda : i32
    %f = arith.cmpi ult, %s, %l : i32
    scf.if %f {
      %e = approx.exp %x knob(@lambda) form(sfu) : f32
      memref.store %e, %a[%c0] : memref<4xf32>
    } else {
      %e = approx.exp %x knob(@lambda) form(precise) : f32
      memref.store %e, %a[%c0] : memref<4xf32>
    }
    gpu.return
  }
}

// -----

// The functions beyond Tables 1-2: tan as CUDA's __tanf, exp2/log2 direct,
// log10 as lg2 times log10(2), tanh as tanh.approx.f32 (inline PTX).
// CHECK-LABEL: func.func @more_f32
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[S:.*]] = llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"(%[[X]])
// CHECK-NEXT: %[[C:.*]] = llvm.call_intrinsic "llvm.nvvm.cos.approx.ftz.f"(%[[X]])
// CHECK-NEXT: %[[TAN:.*]] = llvm.call_intrinsic "llvm.nvvm.div.approx.ftz.f"(%[[S]], %[[C]])
// CHECK-NEXT: %[[E2:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X]])
// CHECK-NEXT: %[[L2:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[X]])
// CHECK-NEXT: %[[LG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[X]])
// CHECK-NEXT: %[[LOG10C:.*]] = arith.constant 3.010300e-01 : f32
// CHECK-NEXT: %[[L10:.*]] = arith.mulf %[[LG]], %[[LOG10C]] : f32
// CHECK-NEXT: %[[TH:.*]] = llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
// CHECK-NEXT: %[[PT:.*]] = math.tan %[[X]] : f32
// CHECK-NEXT: %[[PE2:.*]] = math.exp2 %[[X]] : f32
// CHECK-NEXT: %[[PL2:.*]] = math.log2 %[[X]] : f32
// CHECK-NEXT: %[[PL10:.*]] = math.log10 %[[X]] : f32
// CHECK-NEXT: %[[PTH:.*]] = math.tanh %[[X]] : f32
gpu.module @more_f32 {
  approx.knob @k range(0, 64) default(0)
  func.func @more_f32(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
    %0 = approx.tan %x knob(@k) form(sfu) : f32
    %1 = approx.exp2 %x knob(@k) form(sfu) : f32
    %2 = approx.log2 %x knob(@k) form(sfu) : f32
    %3 = approx.log10 %x knob(@k) form(sfu) : f32
    %4 = approx.tanh %x knob(@k) form(sfu) : f32
    %5 = approx.tan %x knob(@k) form(precise) : f32
    %6 = approx.exp2 %x knob(@k) form(precise) : f32
    %7 = approx.log2 %x knob(@k) form(precise) : f32
    %8 = approx.log10 %x knob(@k) form(precise) : f32
    %9 = approx.tanh %x knob(@k) form(precise) : f32
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
  }
}

// -----

// f16/bf16: native ex2/tanh where PTX has them, everything else through the
// f32 form; precise rcp/sqrt in f32 (.rn) then rounded back.
// CHECK-LABEL: func.func @half
// CHECK-SAME: (%[[H:.*]]: f16, %[[B:.*]]: bf16)
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f16"(%[[H]]) : (f16) -> f16
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.bf16"(%[[B]]) : (bf16) -> bf16
// CHECK-NEXT: llvm.inline_asm "tanh.approx.f16 $0, $1;", "=h,h" %[[H]] : (f16) -> f16
// CHECK-NEXT: llvm.inline_asm "tanh.approx.bf16 $0, $1;", "=h,h" %[[B]] : (bf16) -> bf16
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"(%[[W]])
// CHECK-NEXT: arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT: %[[WB:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT: %[[R:.*]] = llvm.call_intrinsic "llvm.nvvm.rcp.rn.f"(%[[WB]])
// CHECK-NEXT: arith.truncf %[[R]] : f32 to bf16
gpu.module @half {
  approx.knob @k range(0, 64) default(0)
  func.func @half(%h: f16, %b: bf16) -> (f16, bf16, f16, bf16, f16, bf16) {
    %0 = approx.exp2 %h knob(@k) form(sfu) : f16
    %1 = approx.exp2 %b knob(@k) form(sfu) : bf16
    %2 = approx.tanh %h knob(@k) form(sfu) : f16
    %3 = approx.tanh %b knob(@k) form(sfu) : bf16
    %4 = approx.sin %h knob(@k) form(sfu) : f16
    %5 = approx.rcp %b knob(@k) form(precise) : bf16
    return %0, %1, %2, %3, %4, %5 : f16, bf16, f16, bf16, f16, bf16
  }
}

// -----

// Vectors are computed elementwise over the flattened vector; native half
// pairs use the x2 instructions, an odd last element the scalar one.
// CHECK-LABEL: func.func @vectors
// CHECK-SAME: (%[[V:.*]]: vector<2x2xf32>, %[[H:.*]]: vector<3xf16>)
// CHECK: %[[F:.*]] = vector.shape_cast %[[V]] : vector<2x2xf32> to vector<4xf32>
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
// CHECK: %[[J:.*]] = vector.from_elements {{.*}} : vector<4xf32>
// CHECK-NEXT: vector.shape_cast %[[J]] : vector<4xf32> to vector<2x2xf32>
// CHECK: %[[P:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.v2f16"(%[[P]]) : (vector<2xf16>) -> vector<2xf16>
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f16"(%{{.*}}) : (f16) -> f16
// CHECK: vector.from_elements {{.*}} : vector<3xf16>
gpu.module @vectors {
  approx.knob @k range(0, 64) default(0)
  func.func @vectors(%v: vector<2x2xf32>, %h: vector<3xf16>) -> (vector<2x2xf32>, vector<3xf16>) {
    %0 = approx.log2 %v knob(@k) form(sfu) : vector<2x2xf32>
    %1 = approx.exp2 %h knob(@k) form(sfu) : vector<3xf16>
    return %0, %1 : vector<2x2xf32>, vector<3xf16>
  }
}

// -----

// math.sqrt under fastmath<afn> allows the approximation: sqrt.approx.f32 (no
// ftz, which afn does not imply), as nvcc's -prec-sqrt=false.
// CHECK-LABEL: func.func @afn_sqrt
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.approx.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
gpu.module @afn_sqrt {
  func.func @afn_sqrt(%x: f32) -> (f32, f32) {
    %0 = math.sqrt %x fastmath<afn> : f32
    %1 = math.sqrt %x fastmath<nnan> : f32
    return %0, %1 : f32, f32
  }
}
