// Warp softmax denominators with gpu.subgroup_reduce: each thread takes
// exp(x[i]), a gpu.subgroup_reduce add sums the warp's values (uniform: all
// lanes active) and each thread writes exp(x[i]) / sum. Feature:
// gpu.subgroup_reduce next to tunable math.
// UPSTREAM FAILS: MLIR 22's gpu-lower-to-nvvm-pipeline has no lowering for
// gpu.subgroup_reduce (f32 or i32, uniform or not): "error: failed to legalize
// operation 'gpu.subgroup_reduce' that was explicitly marked illegal"
// (checked below with `not`). There is no upstream result to compare against.
// LAUNCH: --kernel warp_softmax --block 256 --grid 16 --size 4096 --input 0=uniform:-4:4
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %upstream %s -o %t/upstream.mlir 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=subgroup" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/subgroup.ptx -o %t/subgroup.cubin
// RUN: %summary %t/subgroup.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/subgroup.manifest.json | FileCheck %s --check-prefix=SITE
//
// UPSTREAM: error: failed to legalize operation 'gpu.subgroup_reduce' that was explicitly marked illegal
// MAN: manifest version=2 module=subgroup gpu_module=warps chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel warp_softmax args=(memref<?xf32> read, memref<?xf32> write) knobs=[lambda] sites=2

module attributes {gpu.container_module} {
  gpu.module @warps {
    // The grid covers x exactly (every lane takes part).
    gpu.func @warp_softmax(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      // SITE-DAG: site exp f32 form=tunable knob=lambda function=warp_softmax kernels=[warp_softmax] loc=subgroup-reduce.mlir:[[@LINE+1]]:
      %e = math.exp %v : f32
      %s = gpu.subgroup_reduce add %e uniform : (f32) -> f32
      // SITE-DAG: site div f32 form=tunable knob=lambda function=warp_softmax kernels=[warp_softmax] loc=subgroup-reduce.mlir:[[@LINE+1]]:
      %p = arith.divf %e, %s : f32
      memref.store %p, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
