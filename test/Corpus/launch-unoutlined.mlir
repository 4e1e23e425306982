// Softplus, y[i] = log(1 + exp(x[i])), launched from host code through an
// unoutlined `gpu.launch`: the kernel exists only once gpu-kernel-outlining has
// run (it becomes gpu.module @softplus_kernel, gpu.func @softplus_kernel with
// arguments (n, x, y) in order of first use; the host func is left to the host
// lowering). Feature: gpu.launch in a host func.func.
// LAUNCH: --kernel softplus_kernel --block 128 --grid 64 --size 8192 --scalar 0=size --input 1=uniform:-20:20
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/softplus_kernel.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=softplus" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/softplus.ptx -o %t/softplus.cubin
// RUN: %summary %t/softplus.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/softplus.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=softplus gpu_module=softplus_kernel chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda kind=global type=i32 range=0..64 default=0 warp_slot=hw
// MAN-NEXT: kernel softplus_kernel args=(scalar {{index|i64}}, memref<?xf32> read, memref<?xf32> write) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  func.func @softplus(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %nb = arith.ceildivui %n, %c128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<?xf32>
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=softplus_kernel kernels=[softplus_kernel] loc=launch-unoutlined.mlir:[[@LINE+1]]:
        %e = math.exp %v : f32
        %one = arith.constant 1.0 : f32
        %s = arith.addf %one, %e : f32
        // SITE-DAG: site log f32 form=tunable knob=lambda function=softplus_kernel kernels=[softplus_kernel] loc=launch-unoutlined.mlir:[[@LINE+1]]:
        %l = math.log %s : f32
        memref.store %l, %y[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return
  }
}
