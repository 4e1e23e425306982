// Log-sum-exp over the rows of a 1024 x 64 row-major matrix: thread r reads
// a[r, 0] with affine.load, walks the row in scf.for loops with offsets from
// affine.apply (r * 64 + j), and writes max + log(sum_j exp(a[r, j] - max))
// with affine.store. Feature: affine.load/affine.store/affine.apply in a
// kernel (no affine.for: upstream cannot compile that, see affine-loop.mlir;
// affine.load indices must be valid affine dims, which an scf.for induction
// variable is not, hence affine.apply + memref.load inside the loops).
// LAUNCH: --kernel logsumexp --block 64 --grid 16 --input 0=normal:0:5
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/lse.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=affine_access" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/affine_access.ptx -o %t/affine_access.cubin
// RUN: %summary %t/affine_access.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/affine_access.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=affine_access gpu_module=lse chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel logsumexp args=(memref<65536xf32> read, memref<1024xf32> write) knobs=[lambda] sites=2

#row = affine_map<(r, j) -> (r * 64 + j)>
module attributes {gpu.container_module} {
  gpu.module @lse {
    gpu.func @logsumexp(%a: memref<65536xf32>, %out: memref<1024xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %r = arith.addi %base, %tid : index
      %first = affine.load %a[%r * 64] : memref<65536xf32>
      %m = scf.for %j = %c1 to %c64 step %c1 iter_args(%acc = %first) -> (f32) {
        %k = affine.apply #row(%r, %j)
        %v = memref.load %a[%k] : memref<65536xf32>
        %m1 = arith.maximumf %acc, %v : f32
        scf.yield %m1 : f32
      }
      %zero = arith.constant 0.0 : f32
      %s = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %k = affine.apply #row(%r, %j)
        %v = memref.load %a[%k] : memref<65536xf32>
        %d = arith.subf %v, %m : f32
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=logsumexp kernels=[logsumexp] loc=affine-access.mlir:[[@LINE+1]]:
        %e = math.exp %d : f32
        %acc1 = arith.addf %acc, %e : f32
        scf.yield %acc1 : f32
      }
      // SITE-DAG: site log f32 form=tunable knob=lambda function=logsumexp kernels=[logsumexp] loc=affine-access.mlir:[[@LINE+1]]:
      %l = math.log %s : f32
      %res = arith.addf %m, %l : f32
      affine.store %res, %out[%r] : memref<1024xf32>
      gpu.return
    }
  }
}
