// Volume rendering transfer: a 3-D density field rho (D x H x W, all
// dynamic) is integrated along z per (x, y) column with Beer-Lambert
// absorption T = exp(-sigma * rho * dz) per voxel, writing the transmittance
// image (H x W, dynamic) and the optical depth -log(T_final) per pixel, with
// memref.dim reading the sizes. Feature: 2-D and 3-D memrefs with dynamic
// shapes (descriptors with 2 and 3 sizes/strides), 2-D launch.
// LAUNCH: --kernel transmittance --block 16,16 --grid 4,4 --shape 0=32x64x64 --shape 1=64x64 --shape 2=64x64 --input 0=uniform:0:1 --scalar 3=0.8 --scalar 4=0.1
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/volume.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=memref_nd" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/memref_nd.ptx -o %t/memref_nd.cubin
// RUN: %summary %t/memref_nd.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/memref_nd.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=memref_nd gpu_module=volume chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel transmittance args=(memref<?x?x?xf32> read, memref<?x?xf32> write, memref<?x?xf32> write, scalar f32, scalar f32) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @volume {
    gpu.func @transmittance(%rho: memref<?x?x?xf32>, %trans: memref<?x?xf32>,
                            %depth: memref<?x?xf32>, %sigma: f32, %dz: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %d = memref.dim %rho, %c0 : memref<?x?x?xf32>
      %h = memref.dim %rho, %c1 : memref<?x?x?xf32>
      %w = memref.dim %rho, %c2 : memref<?x?x?xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %x0 = arith.muli %bx, %dx : index
      %x = arith.addi %x0, %tx : index
      %y0 = arith.muli %by, %dy : index
      %y = arith.addi %y0, %ty : index
      %okx = arith.cmpi ult, %x, %w : index
      %oky = arith.cmpi ult, %y, %h : index
      %ok = arith.andi %okx, %oky : i1
      scf.if %ok {
        %one = arith.constant 1.0 : f32
        %k = arith.mulf %sigma, %dz : f32
        %nk = arith.negf %k : f32
        %t = scf.for %z = %c0 to %d step %c1 iter_args(%acc = %one) -> (f32) {
          %r = memref.load %rho[%z, %y, %x] : memref<?x?x?xf32>
          %a = arith.mulf %nk, %r : f32
          // SITE-DAG: site exp f32 form=tunable knob=lambda function=transmittance kernels=[transmittance] loc=memref-2d-3d.mlir:[[@LINE+1]]:
          %tv = math.exp %a : f32
          %acc1 = arith.mulf %acc, %tv : f32
          scf.yield %acc1 : f32
        }
        memref.store %t, %trans[%y, %x] : memref<?x?xf32>
        // SITE-DAG: site log f32 form=tunable knob=lambda function=transmittance kernels=[transmittance] loc=memref-2d-3d.mlir:[[@LINE+1]]:
        %lt = math.log %t : f32
        %od = arith.negf %lt : f32
        memref.store %od, %depth[%y, %x] : memref<?x?xf32>
      }
      gpu.return
    }
  }
}
