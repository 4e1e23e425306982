// Particle-system lighting: per particle, the distance falloff
// 1 / sqrt(d^2 + eps) and the attenuation exp(-k d) are written with
// fastmath<afn> or fastmath<fast> (the producer already allowed approximate
// functions), the surface term sin(theta) with fastmath<afn>, and a gamma
// step powf and a divide with fastmath<nnan,ninf> (no afn: still exact).
// Feature: fastmath flags: afn/fast sites are `fast` (lowered as upstream
// lowers them, not tunable); others stay tunable.
// LAUNCH: --kernel shade --block 128 --grid 32 --size 4096 --input 0=uniform:0.1:50 --input 1=uniform:-3.14159:3.14159 --scalar 3=size --scalar 4=0.05
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/lighting.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=fastmath" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/fastmath.ptx -o %t/fastmath.cubin
// RUN: %summary %t/fastmath.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/fastmath.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=fastmath gpu_module=lighting chip=sm_90 kernels=1 sites=7
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel shade args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}, scalar f32) knobs=[lambda] sites=7

module attributes {gpu.container_module} {
  gpu.module @lighting {
    gpu.func @shade(%dist: memref<?xf32>, %theta: memref<?xf32>, %out: memref<?xf32>,
                    %n: index, %k: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %eps = arith.constant 1.0e-4 : f32
        %one = arith.constant 1.0 : f32
        %gamma = arith.constant 0.454545468 : f32
        %d = memref.load %dist[%i] : memref<?xf32>
        %th = memref.load %theta[%i] : memref<?xf32>
        %d2 = arith.mulf %d, %d : f32
        %d2e = arith.addf %d2, %eps : f32
        // SITE-DAG: site sqrt f32 form=fast knob={{.*}} function=shade kernels=[shade] loc=fastmath.mlir:[[@LINE+1]]:{{.*}} reason={{.+}}
        %r = math.sqrt %d2e fastmath<afn> : f32
        // SITE-DAG: site rcp f32 form=fast knob={{.*}} function=shade kernels=[shade] loc=fastmath.mlir:[[@LINE+1]]:{{.*}} reason={{.+}}
        %fall = arith.divf %one, %r fastmath<fast> : f32
        %kd = arith.mulf %k, %d : f32
        %nkd = arith.negf %kd : f32
        // SITE-DAG: site exp f32 form=fast knob={{.*}} function=shade kernels=[shade] loc=fastmath.mlir:[[@LINE+1]]:{{.*}} reason={{.+}}
        %att = math.exp %nkd fastmath<fast> : f32
        // SITE-DAG: site sin f32 form=fast knob={{.*}} function=shade kernels=[shade] loc=fastmath.mlir:[[@LINE+1]]:{{.*}} reason={{.+}}
        %s = math.sin %th fastmath<afn> : f32
        %sa = math.absf %s : f32
        %l0 = arith.mulf %fall, %att : f32
        %l1 = arith.mulf %l0, %sa : f32
        // SITE-DAG: site pow f32 form=tunable knob=lambda function=shade kernels=[shade] loc=fastmath.mlir:[[@LINE+1]]:
        %g = math.powf %l1, %gamma fastmath<nnan,ninf> : f32
        %g1 = arith.addf %one, %g : f32
        // SITE-DAG: site div f32 form=tunable knob=lambda function=shade kernels=[shade] loc=fastmath.mlir:[[@LINE+1]]:
        %q = arith.divf %g, %g1 fastmath<nnan,ninf> : f32
        // SITE-DAG: site rsqrt f32 form=fast knob={{.*}} function=shade kernels=[shade] loc=fastmath.mlir:[[@LINE+1]]:{{.*}} reason={{.+}}
        %rs = math.rsqrt %g1 fastmath<fast> : f32
        %o = arith.mulf %q, %rs : f32
        memref.store %o, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
