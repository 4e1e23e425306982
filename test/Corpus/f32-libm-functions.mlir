// Statistics helpers without a direct SFU instruction: the normal CDF
// 0.5 (1 + erf(x / sqrt 2)), continuously compounded returns log1p(r) and
// their inverse expm1(l), and the polar angle atan2(y, x). Feature: f32
// expm1, log1p, erf, atan2 (libdevice-only functions: the manifest says how
// each was treated, with a reason wherever one is not plainly tunable).
// LAUNCH: --kernel stats --block 128 --grid 32 --size 4096 --input 0=normal:0:1 --input 1=uniform:-0.5:0.5 --input 2=normal:0:1 --scalar 7=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/stats.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=f32_libm" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/f32_libm.ptx -o %t/f32_libm.cubin
// RUN: %summary %t/f32_libm.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/f32_libm.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=f32_libm gpu_module=stats chip=sm_90 kernels=1
// MAN: kernel stats args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}) knobs=[{{(lambda)?}}] sites=4

module attributes {gpu.container_module} {
  gpu.module @stats {
    gpu.func @stats(%x: memref<?xf32>, %r: memref<?xf32>, %y: memref<?xf32>,
                    %cdf: memref<?xf32>, %logret: memref<?xf32>, %back: memref<?xf32>,
                    %angle: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %rsqrt2 = arith.constant 0.707106769 : f32
        %xv = memref.load %x[%i] : memref<?xf32>
        %z = arith.mulf %xv, %rsqrt2 : f32
        // SITE-DAG: site erf f32 form=precise knob={{.*}} loc=f32-libm-functions.mlir:[[@LINE+1]]:{{.*}} reason={{.+}}
        %e = math.erf %z : f32
        %e1 = arith.addf %one, %e : f32
        %c = arith.mulf %half, %e1 : f32
        memref.store %c, %cdf[%i] : memref<?xf32>
        %rv = memref.load %r[%i] : memref<?xf32>
        // SITE-DAG: site log1p f32 form={{tunable|precise}} knob={{.*}} loc=f32-libm-functions.mlir:[[@LINE+1]]:
        %l = math.log1p %rv : f32
        memref.store %l, %logret[%i] : memref<?xf32>
        // SITE-DAG: site expm1 f32 form={{tunable|precise}} knob={{.*}} loc=f32-libm-functions.mlir:[[@LINE+1]]:
        %b = math.expm1 %l : f32
        memref.store %b, %back[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        // SITE-DAG: site atan2 f32 form=precise knob={{.*}} loc=f32-libm-functions.mlir:[[@LINE+1]]:{{.*}} reason={{.+}}
        %a = math.atan2 %yv, %xv : f32
        memref.store %a, %angle[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
