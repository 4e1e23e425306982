// Energy histogram: thread i computes the energy e = exp(x[i]) of its
// sample, adds 1 to bin floor(log(e) * 4) clamped to [0, 64) with
// memref.atomic_rmw addi, accumulates e into a total with atomic addf and
// the maximum with atomic maximumf, and sets bit (bin mod 32) of an
// occupancy mask with a memref.generic_atomic_rmw (a CAS loop). Feature:
// memref atomics (atomic_rmw addi/addf/maximumf, generic_atomic_rmw) next to
// tunable math.
// The float total depends on the order of the atomic additions, so argument 2
// is not bitwise reproducible even between two runs of one binary:
// NONDETERMINISTIC: 2
// LAUNCH: --kernel energy_histogram --block 256 --grid 16 --size 4096 --input 0=uniform:0:16 --inout 1=uniform:0:1000 --inout 2=uniform:0:1 --inout 3=uniform:0:1000 --scalar 4=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/histogram.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=atomics" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/atomics.ptx -o %t/atomics.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/atomics.ptx
// RUN: %summary %t/atomics.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/atomics.manifest.json | FileCheck %s --check-prefix=SITE
//
// PTX-DAG: atom.global.add.u32
// PTX-DAG: atom.global.add.f32
// PTX-DAG: atom.{{.*}}global.cas.b32
// MAN: manifest version=3 module=atomics gpu_module=histogram chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel energy_histogram args=(memref<?xf32> read, memref<64xi32> readwrite, memref<2xf32> readwrite, memref<1xi32> readwrite, scalar {{index|i64}}) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @histogram {
    // stats[0]: total energy, stats[1]: maximum energy.
    gpu.func @energy_histogram(%x: memref<?xf32>, %bins: memref<64xi32>,
                               %stats: memref<2xf32>, %check: memref<1xi32>,
                               %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %four = arith.constant 4.0 : f32
        %one = arith.constant 1 : i32
        %zero = arith.constant 0 : i32
        %c63 = arith.constant 63 : i32
        %v = memref.load %x[%i] : memref<?xf32>
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=energy_histogram kernels=[energy_histogram] loc=atomics.mlir:[[@LINE+1]]:
        %e = math.exp %v : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=energy_histogram kernels=[energy_histogram] loc=atomics.mlir:[[@LINE+1]]:
        %l = math.log %e : f32
        %s = arith.mulf %l, %four : f32
        %fl = math.floor %s : f32
        %b0 = arith.fptosi %fl : f32 to i32
        %b1 = arith.maxsi %b0, %zero : i32
        %b = arith.minsi %b1, %c63 : i32
        %bi = arith.index_cast %b : i32 to index
        %old = memref.atomic_rmw addi %one, %bins[%bi] : (i32, memref<64xi32>) -> i32
        %t = memref.atomic_rmw addf %e, %stats[%c0] : (f32, memref<2xf32>) -> f32
        %m = memref.atomic_rmw maximumf %e, %stats[%c1] : (f32, memref<2xf32>) -> f32
        %r = memref.generic_atomic_rmw %check[%c0] : memref<1xi32> {
        ^bb0(%cur: i32):
          %c31 = arith.constant 31 : i32
          %bit = arith.andi %b, %c31 : i32
          %mask = arith.shli %one, %bit : i32
          %nx = arith.ori %cur, %mask : i32
          memref.atomic_yield %nx : i32
        }
      }
      gpu.return
    }
  }
}
