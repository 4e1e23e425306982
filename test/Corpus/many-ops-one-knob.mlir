// Softened gravitational N-body step with diagnostics, all under one knob:
// straight-line code per body writes log of its kinetic energy plus its
// velocity projected on a heading angle (sqrt, cos, sin); a nested loop
// (tiles of 32 bodies, then the bodies of a tile) accumulates accelerations
// with rsqrt(r^2 + eps^2)^3 and a cut-off exp(-r / r_c), and the potential
// is divided by the body's mass at the end. Feature: many tunable ops under
// one knob in straight-line code and in nested loops (one versioned region
// per loop nest or straight-line span, one warp-slot read per kernel).
// LAUNCH: --kernel nbody --block 128 --grid 8 --size 1024 --input 0=uniform:-10:10 --input 1=uniform:-10:10 --input 2=uniform:0.5:2 --input 3=uniform:-1:1 --input 4=uniform:-1:1 --input 5=uniform:-3.14159:3.14159 --scalar 10=1024 --scalar 11=0.01 --scalar 12=5.0
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/gravity.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=many_ops" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/many_ops.ptx -o %t/many_ops.cubin
// RUN: %summary %t/many_ops.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/many_ops.manifest.json | FileCheck %s --check-prefix=SITE
// One warp-slot read and one knob load for the whole kernel.
// RUN: grep -c '%%warpid' %t/many_ops.ptx | FileCheck %s --check-prefix=ONE
//
// ONE: 1
// MAN: manifest version=3 module=many_ops gpu_module=gravity chip=sm_90 kernels=1 sites=8
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel nbody args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> read, memref<?xf32> read, memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}, scalar f32, scalar f32) knobs=[lambda] sites=8

module attributes {gpu.container_module} {
  gpu.module @gravity {
    // Outputs: ax, ay (accelerations), pot (potential per unit mass),
    // diag (log kinetic energy + speed + heading terms).
    gpu.func @nbody(%px: memref<?xf32>, %py: memref<?xf32>, %m: memref<?xf32>,
                    %vx: memref<?xf32>, %vy: memref<?xf32>, %ang: memref<?xf32>,
                    %ax: memref<?xf32>, %ay: memref<?xf32>, %pot: memref<?xf32>,
                    %diag: memref<?xf32>, %n: index, %eps2: f32, %rc: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %half = arith.constant 0.5 : f32
        %zero = arith.constant 0.0 : f32
        %one = arith.constant 1.0 : f32
        %xi = memref.load %px[%i] : memref<?xf32>
        %yi = memref.load %py[%i] : memref<?xf32>
        %mi = memref.load %m[%i] : memref<?xf32>
        %ui = memref.load %vx[%i] : memref<?xf32>
        %wi = memref.load %vy[%i] : memref<?xf32>
        %th = memref.load %ang[%i] : memref<?xf32>
        // Straight-line diagnostics.
        %uu = arith.mulf %ui, %ui : f32
        %ww = arith.mulf %wi, %wi : f32
        %v2 = arith.addf %uu, %ww : f32
        %ke0 = arith.mulf %half, %mi : f32
        %ke = arith.mulf %ke0, %v2 : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
        %lke = math.log %ke : f32
        // SITE-DAG: site sqrt f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
        %speed = math.sqrt %v2 : f32
        // SITE-DAG: site cos f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
        %ct = math.cos %th : f32
        // SITE-DAG: site sin f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
        %st = math.sin %th : f32
        %hx = arith.mulf %speed, %ct : f32
        %hy = arith.mulf %speed, %st : f32
        %h = arith.addf %hx, %hy : f32
        %dg = arith.addf %lke, %h : f32
        memref.store %dg, %diag[%i] : memref<?xf32>
        // Nested loops: tiles of 32 bodies, bodies within a tile.
        %ntiles = arith.ceildivui %n, %c32 : index
        %acc:3 = scf.for %t = %c0 to %ntiles step %c1
            iter_args(%sx = %zero, %sy = %zero, %sp = %zero) -> (f32, f32, f32) {
          %j0 = arith.muli %t, %c32 : index
          %jend0 = arith.addi %j0, %c32 : index
          %jend = arith.minui %jend0, %n : index
          %r:3 = scf.for %j = %j0 to %jend step %c1
              iter_args(%tx = %sx, %ty = %sy, %tp = %sp) -> (f32, f32, f32) {
            %xj = memref.load %px[%j] : memref<?xf32>
            %yj = memref.load %py[%j] : memref<?xf32>
            %mj = memref.load %m[%j] : memref<?xf32>
            %dx = arith.subf %xj, %xi : f32
            %dy = arith.subf %yj, %yi : f32
            %dxx = arith.mulf %dx, %dx : f32
            %dyy = arith.mulf %dy, %dy : f32
            %r2a = arith.addf %dxx, %dyy : f32
            %r2 = arith.addf %r2a, %eps2 : f32
            // SITE-DAG: site rsqrt f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
            %ir = math.rsqrt %r2 : f32
            %ir2 = arith.mulf %ir, %ir : f32
            %ir3 = arith.mulf %ir2, %ir : f32
            %rr = arith.mulf %r2, %ir : f32
            // SITE-DAG: site div f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
            %q = arith.divf %rr, %rc : f32
            %nq = arith.negf %q : f32
            // SITE-DAG: site exp f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
            %cut = math.exp %nq : f32
            %s0 = arith.mulf %mj, %ir3 : f32
            %s = arith.mulf %s0, %cut : f32
            %fx = arith.mulf %s, %dx : f32
            %fy = arith.mulf %s, %dy : f32
            %nx = arith.addf %tx, %fx : f32
            %ny = arith.addf %ty, %fy : f32
            %pj0 = arith.mulf %mj, %ir : f32
            %pj = arith.mulf %pj0, %cut : f32
            %np = arith.subf %tp, %pj : f32
            scf.yield %nx, %ny, %np : f32, f32, f32
          }
          scf.yield %r#0, %r#1, %r#2 : f32, f32, f32
        }
        memref.store %acc#0, %ax[%i] : memref<?xf32>
        memref.store %acc#1, %ay[%i] : memref<?xf32>
        // SITE-DAG: site div f32 form=tunable knob=lambda function=nbody kernels=[nbody] loc=many-ops-one-knob.mlir:[[@LINE+1]]:
        %pm = arith.divf %acc#2, %mi : f32
        memref.store %pm, %pot[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
