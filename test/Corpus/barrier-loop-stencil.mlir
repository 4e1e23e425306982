// Forced 1-D heat equation on shared-memory tiles: each 256-thread block
// loads its tile plus one halo cell per side into workgroup memory, then runs
// `steps` explicit time steps; each step reads the neighbours, adds the
// forcing 0.01 sin(omega t + x) and damping exp(-0.001 t), writes its cell
// between two gpu.barriers, and keeps its value in a private-memory
// attribution. Feature: gpu.barrier inside a loop with transcendentals (sin,
// exp), workgroup and private attributions, a block-level stencil.
// LAUNCH: --kernel heat --block 256 --grid 16 --size 4096 --input 0=uniform:0:1 --scalar 2=size --scalar 3=64 --scalar 4=0.25
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/stencil.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=barrier_stencil" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/barrier_stencil.ptx -o %t/barrier_stencil.cubin
// RUN: %summary %t/barrier_stencil.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/barrier_stencil.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=barrier_stencil gpu_module=stencil chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel heat args=(memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}, scalar {{index|i64}}, scalar f32) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @stencil {
    // Cells outside [0, n) read as 0 (Dirichlet boundary).
    gpu.func @heat(%u: memref<?xf32>, %out: memref<?xf32>, %n: index, %steps: index,
                   %alpha: f32)
        workgroup(%tile: memref<258xf32, #gpu.address_space<workgroup>>)
        private(%mine: memref<1xf32, #gpu.address_space<private>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c257 = arith.constant 257 : index
      %zero = arith.constant 0.0 : f32
      %omega = arith.constant 0.3 : f32
      %force = arith.constant 0.01 : f32
      %damp = arith.constant -0.001 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c256 : index
      %g = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %g, %n : index
      %v0 = scf.if %inside -> f32 {
        %v = memref.load %u[%g] : memref<?xf32>
        scf.yield %v : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %v0, %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
      %gi = arith.index_cast %g : index to i32
      %gf = arith.sitofp %gi : i32 to f32
      %slot = arith.addi %tid, %c1 : index
      %t0 = arith.cmpi eq, %tid, %c0 : index
      scf.for %t = %c0 to %steps step %c1 {
        %cur = memref.load %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
        memref.store %cur, %tile[%slot] : memref<258xf32, #gpu.address_space<workgroup>>
        // The halo cells stay 0: the boundary of each tile is held fixed.
        scf.if %t0 {
          memref.store %zero, %tile[%c0] : memref<258xf32, #gpu.address_space<workgroup>>
          memref.store %zero, %tile[%c257] : memref<258xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %li = arith.subi %slot, %c1 : index
        %ri = arith.addi %slot, %c1 : index
        %l = memref.load %tile[%li] : memref<258xf32, #gpu.address_space<workgroup>>
        %r = memref.load %tile[%ri] : memref<258xf32, #gpu.address_space<workgroup>>
        %lr = arith.addf %l, %r : f32
        %c2 = arith.addf %cur, %cur : f32
        %lap = arith.subf %lr, %c2 : f32
        %dif = arith.mulf %alpha, %lap : f32
        %ti = arith.index_cast %t : index to i32
        %tf = arith.sitofp %ti : i32 to f32
        %wt = arith.mulf %omega, %tf : f32
        %ph = arith.addf %wt, %gf : f32
        // SITE-DAG: site sin f32 form=tunable knob=lambda function=heat kernels=[heat] loc=barrier-loop-stencil.mlir:[[@LINE+1]]:
        %s = math.sin %ph : f32
        %dt = arith.mulf %damp, %tf : f32
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=heat kernels=[heat] loc=barrier-loop-stencil.mlir:[[@LINE+1]]:
        %dm = math.exp %dt : f32
        %fs = arith.mulf %force, %s : f32
        %f = arith.mulf %fs, %dm : f32
        %nv0 = arith.addf %cur, %dif : f32
        %nv = arith.addf %nv0, %f : f32
        memref.store %nv, %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
        gpu.barrier
      }
      scf.if %inside {
        %fin = memref.load %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
        memref.store %fin, %out[%g] : memref<?xf32>
      }
      gpu.return
    }
  }
}
