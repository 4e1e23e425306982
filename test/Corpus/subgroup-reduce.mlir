// Warp softmax denominators with gpu.subgroup_reduce: each thread takes
// exp(x[i]), a gpu.subgroup_reduce add sums the warp's values (uniform: all
// lanes active) and each thread writes exp(x[i]) / sum. Feature:
// gpu.subgroup_reduce next to tunable math.
// UPSTREAM FAILS: MLIR 22's gpu-lower-to-nvvm-pipeline has no lowering for
// gpu.subgroup_reduce (f32 or i32, uniform or not): "error: failed to legalize
// operation 'gpu.subgroup_reduce' that was explicitly marked illegal"
// (checked below with `not`). approx-to-ptx runs the same GPU lowering and
// fails with the same one-line message and writes nothing: it promises what
// upstream compiles, not more.
// LAUNCH: --kernel warp_softmax --block 256 --grid 16 --size 4096 --input 0=uniform:-4:4
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %upstream %s -o %t/upstream.mlir 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: not approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=subgroup" -o %t/final.mlir 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: ls %t | count 0
//
// UPSTREAM: error: failed to legalize operation 'gpu.subgroup_reduce' that was explicitly marked illegal

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
      %e = math.exp %v : f32
      %s = gpu.subgroup_reduce add %e uniform : (f32) -> f32
      %p = arith.divf %e, %s : f32
      memref.store %p, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
