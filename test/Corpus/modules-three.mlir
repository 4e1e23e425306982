// Three gpu.modules in one input: @rotate turns 2-D points by a per-point
// angle (sin, cos), @distances computes f64 Euclidean distances to the origin
// (sqrt, and a division for the inverse distance), @histo is integer-only (a
// bucket index per element: nothing to approximate, so its manifest has a
// kernel and no sites). Feature: three gpu.modules, one without any site.
// LAUNCH: --kernel rotate --block 128 --grid 64 --size 8192 --input 0=uniform:-4:4 --input 1=uniform:-4:4 --input 2=uniform:-3.14159:3.14159 --scalar 5=size
// LAUNCH: --kernel distances --block 128 --grid 64 --size 8192 --input 0=normal:0:10 --input 1=normal:0:10 --scalar 4=size
// LAUNCH: --kernel buckets --block 256 --grid 32 --size 8192 --input 0=uniform:0:1000000 --scalar 2=size --scalar 3=16
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/rotate.ptx -o %t/upstream-r.cubin
// RUN: %ptxas -arch=sm_90 %t/upstream/distances.ptx -o %t/upstream-d.cubin
// RUN: %ptxas -arch=sm_90 %t/upstream/histo.ptx -o %t/upstream-h.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/rotate.ptx -o %t/rotate.cubin
// RUN: %ptxas -arch=sm_90 %t/distances.ptx -o %t/distances.cubin
// RUN: %ptxas -arch=sm_90 %t/histo.ptx -o %t/histo.cubin
// RUN: %summary %t/rotate.manifest.json %t/distances.manifest.json %t/histo.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/rotate.manifest.json %t/distances.manifest.json %t/histo.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=rotate gpu_module=rotate chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel rotate args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=2
// MAN: manifest version=3 module=distances gpu_module=distances chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel distances args=(memref<?xf64> read, memref<?xf64> read, memref<?xf64> write, memref<?xf64> write, scalar {{index|i64}}) knobs=[lambda] sites=2
// MAN: manifest version=3 module=histo gpu_module=histo chip=sm_90 kernels=1 sites=0
// MAN-NOT: knob
// MAN: kernel buckets args=(memref<?xi32> read, memref<?xi32> write, scalar {{index|i64}}, scalar i32) knobs=[] sites=0
// SITE-NOT: site {{.*}} function=buckets

module attributes {gpu.container_module} {
  gpu.module @rotate {
    gpu.func @rotate(%x: memref<?xf32>, %y: memref<?xf32>, %theta: memref<?xf32>,
                     %xo: memref<?xf32>, %yo: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %px = memref.load %x[%i] : memref<?xf32>
        %py = memref.load %y[%i] : memref<?xf32>
        %t = memref.load %theta[%i] : memref<?xf32>
        // SITE-DAG: site sin f32 form=tunable knob=lambda function=rotate kernels=[rotate] loc=modules-three.mlir:[[@LINE+1]]:
        %s = math.sin %t : f32
        // SITE-DAG: site cos f32 form=tunable knob=lambda function=rotate kernels=[rotate] loc=modules-three.mlir:[[@LINE+1]]:
        %c = math.cos %t : f32
        %a = arith.mulf %px, %c : f32
        %b = arith.mulf %py, %s : f32
        %qx = arith.subf %a, %b : f32
        %d = arith.mulf %px, %s : f32
        %e = arith.mulf %py, %c : f32
        %qy = arith.addf %d, %e : f32
        memref.store %qx, %xo[%i] : memref<?xf32>
        memref.store %qy, %yo[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  gpu.module @distances {
    gpu.func @distances(%x: memref<?xf64>, %y: memref<?xf64>, %dist: memref<?xf64>,
                        %inv: memref<?xf64>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %one = arith.constant 1.0 : f64
        %px = memref.load %x[%i] : memref<?xf64>
        %py = memref.load %y[%i] : memref<?xf64>
        %xx = arith.mulf %px, %px : f64
        %yy = arith.mulf %py, %py : f64
        %r2 = arith.addf %xx, %yy : f64
        // SITE-DAG: site sqrt f64 form=tunable knob=lambda function=distances kernels=[distances] loc=modules-three.mlir:[[@LINE+1]]:
        %r = math.sqrt %r2 : f64
        // SITE-DAG: site rcp f64 form=tunable knob=lambda function=distances kernels=[distances] loc=modules-three.mlir:[[@LINE+1]]:
        %ir = arith.divf %one, %r : f64
        memref.store %r, %dist[%i] : memref<?xf64>
        memref.store %ir, %inv[%i] : memref<?xf64>
      }
      gpu.return
    }
  }

  gpu.module @histo {
    // bucket[i] = (key[i] * 2654435761) >> 28 mod nb: a hash bucket per key.
    gpu.func @buckets(%key: memref<?xi32>, %bucket: memref<?xi32>, %n: index,
                      %nb: i32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %k = memref.load %key[%i] : memref<?xi32>
        %golden = arith.constant -1640531535 : i32
        %h = arith.muli %k, %golden : i32
        %c28 = arith.constant 28 : i32
        %hi = arith.shrui %h, %c28 : i32
        %b = arith.remui %hi, %nb : i32
        memref.store %b, %bucket[%i] : memref<?xi32>
      }
      gpu.return
    }
  }
}
