// Box-Muller transform, the paper's Listing 2 (BoxMullerGPU from the CUDA
// Mersenne Twister sample): each thread turns pairs of uniform numbers into
// pairs of normal numbers in place. log, sqrt, sin and cos sit in a helper
// called from a loop: approx-to-ptx inlines it and versions the loop.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func private @box_muller(%u1: f32, %u2: f32) -> (f32, f32) {
      %m2 = arith.constant -2.0 : f32
      %twopi = arith.constant 6.28318530717958647 : f32
      %l = math.log %u1 : f32
      %t = arith.mulf %m2, %l : f32
      %r = math.sqrt %t : f32
      %phi = arith.mulf %twopi, %u2 : f32
      %c = math.cos %phi : f32
      %s = math.sin %phi : f32
      %z0 = arith.mulf %r, %c : f32
      %z1 = arith.mulf %r, %s : f32
      return %z0, %z1 : f32, f32
    }

    // data: nRng * nPerRng floats, element (i, rng) at i * nRng + rng.
    gpu.func @box_muller_gpu(%data: memref<?xf32>, %nPerRng: index,
                             %nRng: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %rng = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %rng, %nRng : index
      scf.if %inside {
        scf.for %i = %c0 to %nPerRng step %c2 {
          %i1 = arith.addi %i, %c1 : index
          %o0 = arith.muli %i, %nRng : index
          %o1 = arith.muli %i1, %nRng : index
          %a0 = arith.addi %o0, %rng : index
          %a1 = arith.addi %o1, %rng : index
          %u1 = memref.load %data[%a0] : memref<?xf32>
          %u2 = memref.load %data[%a1] : memref<?xf32>
          %z:2 = func.call @box_muller(%u1, %u2) : (f32, f32) -> (f32, f32)
          memref.store %z#0, %data[%a0] : memref<?xf32>
          memref.store %z#1, %data[%a1] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
