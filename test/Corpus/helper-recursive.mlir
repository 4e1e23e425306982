// Adaptive Simpson quadrature of f(x) = exp(-x^2) cos(3x): each thread
// integrates f over [lo[i], hi[i]] with @simpson, a recursive func.func (two
// recursive calls, not in tail position, depth-limited to 10), that calls the
// inlinable @integrand. Feature: a helper that cannot be inlined (recursion):
// it keeps its own function and its own warp-split flag; its sites are under
// its own name and its kernel still lists the knob.
// LAUNCH: --kernel quad --block 64 --grid 16 --size 1024 --input 0=uniform:-3:0 --input 1=uniform:0:3 --scalar 3=size --scalar 4=1e-6
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/quadrature.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=recursive" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/recursive.ptx -o %t/recursive.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/recursive.ptx
// RUN: %summary %t/recursive.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/recursive.manifest.json | FileCheck %s --check-prefix=SITE
//
// @simpson stays a function that calls itself.
// PTX: .func {{.*}}simpson(
// PTX: call{{.*}}simpson
// Sites: @integrand inlined three times into @quad and twice into @simpson.
// MAN: manifest version=3 module=recursive gpu_module=quadrature chip=sm_90 kernels=1 sites=10
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel quad args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}, scalar f32) knobs=[lambda] sites=10
// SITE-DAG: site exp f32 form=tunable knob=lambda function=simpson kernels=[quad] loc=helper-recursive.mlir:[[# @LINE + 13]]:{{[0-9]+}} (inlined at helper-recursive.mlir:[[# @LINE + 33]]:
// SITE-DAG: site cos f32 form=tunable knob=lambda function=simpson kernels=[quad] loc=helper-recursive.mlir:[[# @LINE + 14]]:{{[0-9]+}} (inlined at helper-recursive.mlir:[[# @LINE + 32]]:
// SITE-DAG: site exp f32 form=tunable knob=lambda function=simpson kernels=[quad] loc=helper-recursive.mlir:[[# @LINE + 11]]:{{[0-9]+}} (inlined at helper-recursive.mlir:[[# @LINE + 32]]:
// SITE-DAG: site cos f32 form=tunable knob=lambda function=simpson kernels=[quad] loc=helper-recursive.mlir:[[# @LINE + 12]]:{{[0-9]+}} (inlined at helper-recursive.mlir:[[# @LINE + 31]]:
// SITE-DAG: site exp f32 form=tunable knob=lambda function=quad kernels=[quad]
// SITE-DAG: site cos f32 form=tunable knob=lambda function=quad kernels=[quad]

module attributes {gpu.container_module} {
  gpu.module @quadrature {
    func.func private @integrand(%x: f32) -> f32 {
      %three = arith.constant 3.0 : f32
      %xx = arith.mulf %x, %x : f32
      %nxx = arith.negf %xx : f32
      %e = math.exp %nxx : f32
      %tx = arith.mulf %three, %x : f32
      %c = math.cos %tx : f32
      %r = arith.mulf %e, %c : f32
      return %r : f32
    }

    func.func private @simpson(%a: f32, %b: f32, %fa: f32, %fm: f32, %fb: f32,
                               %whole: f32, %eps: f32, %depth: i32) -> f32 {
      %half = arith.constant 0.5 : f32
      %four = arith.constant 4.0 : f32
      %sixth = arith.constant 0.166666672 : f32
      %fifteenth = arith.constant 0.0666666701 : f32
      %fifteen = arith.constant 15.0 : f32
      %ab = arith.addf %a, %b : f32
      %m = arith.mulf %ab, %half : f32
      %am = arith.addf %a, %m : f32
      %lm = arith.mulf %am, %half : f32
      %mb = arith.addf %m, %b : f32
      %rm = arith.mulf %mb, %half : f32
      %flm = func.call @integrand(%lm) : (f32) -> f32
      %frm = func.call @integrand(%rm) : (f32) -> f32
      // left = (m - a) / 6 * (fa + 4 flm + fm), right likewise on [m, b].
      %wl = arith.subf %m, %a : f32
      %wl6 = arith.mulf %wl, %sixth : f32
      %fl4 = arith.mulf %four, %flm : f32
      %sl0 = arith.addf %fa, %fl4 : f32
      %sl = arith.addf %sl0, %fm : f32
      %left = arith.mulf %wl6, %sl : f32
      %wr = arith.subf %b, %m : f32
      %wr6 = arith.mulf %wr, %sixth : f32
      %fr4 = arith.mulf %four, %frm : f32
      %sr0 = arith.addf %fm, %fr4 : f32
      %sr = arith.addf %sr0, %fb : f32
      %right = arith.mulf %wr6, %sr : f32
      %lr = arith.addf %left, %right : f32
      %delta = arith.subf %lr, %whole : f32
      %ad = math.absf %delta : f32
      %tol = arith.mulf %fifteen, %eps : f32
      %close = arith.cmpf ole, %ad, %tol : f32
      %c0 = arith.constant 0 : i32
      %deep = arith.cmpi sle, %depth, %c0 : i32
      %stop = arith.ori %close, %deep : i1
      %res = scf.if %stop -> f32 {
        %corr = arith.mulf %delta, %fifteenth : f32
        %r = arith.addf %lr, %corr : f32
        scf.yield %r : f32
      } else {
        %c1 = arith.constant 1 : i32
        %d1 = arith.subi %depth, %c1 : i32
        %e2 = arith.mulf %eps, %half : f32
        %ql = func.call @simpson(%a, %m, %fa, %flm, %fm, %left, %e2, %d1)
            : (f32, f32, f32, f32, f32, f32, f32, i32) -> f32
        %qr = func.call @simpson(%m, %b, %fm, %frm, %fb, %right, %e2, %d1)
            : (f32, f32, f32, f32, f32, f32, f32, i32) -> f32
        %q = arith.addf %ql, %qr : f32
        scf.yield %q : f32
      }
      return %res : f32
    }

    gpu.func @quad(%lo: memref<?xf32>, %hi: memref<?xf32>, %out: memref<?xf32>,
                   %n: index, %eps: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %half = arith.constant 0.5 : f32
        %four = arith.constant 4.0 : f32
        %sixth = arith.constant 0.166666672 : f32
        %a = memref.load %lo[%i] : memref<?xf32>
        %b = memref.load %hi[%i] : memref<?xf32>
        %ab = arith.addf %a, %b : f32
        %m = arith.mulf %ab, %half : f32
        %fa = func.call @integrand(%a) : (f32) -> f32
        %fm = func.call @integrand(%m) : (f32) -> f32
        %fb = func.call @integrand(%b) : (f32) -> f32
        %w = arith.subf %b, %a : f32
        %w6 = arith.mulf %w, %sixth : f32
        %fm4 = arith.mulf %four, %fm : f32
        %s0 = arith.addf %fa, %fm4 : f32
        %s = arith.addf %s0, %fb : f32
        %whole = arith.mulf %w6, %s : f32
        %depth = arith.constant 10 : i32
        %q = func.call @simpson(%a, %b, %fa, %fm, %fb, %whole, %eps, %depth)
            : (f32, f32, f32, f32, f32, f32, f32, i32) -> f32
        memref.store %q, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
