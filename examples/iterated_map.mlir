// Transcendentals in a helper function called from a loop with loop-carried
// values: each thread iterates x <- helper(x, k) `steps` times (a damped
// oscillator map), the helper using sin, exp and pow. Compute-bound: several
// transcendental rounds per element, one load and one store.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func private @step(%x: f32, %v: f32, %k: f32) -> (f32, f32) {
      %damp = arith.constant -0.05 : f32
      %c = arith.constant 0.75 : f32
      %half = arith.constant 0.5 : f32
      %s = math.sin %x : f32
      %d = math.exp %damp : f32
      %a = math.absf %v : f32
      %eps = arith.constant 1.0e-3 : f32
      %ae = arith.addf %a, %eps : f32
      %p = math.powf %ae, %half : f32
      %f = arith.mulf %k, %s : f32
      %v1 = arith.subf %v, %f : f32
      %v2 = arith.mulf %v1, %d : f32
      %g = arith.mulf %c, %p : f32
      %v3 = arith.divf %v2, %ae : f32
      %v4 = arith.mulf %v3, %g : f32
      %x1 = arith.addf %x, %v4 : f32
      return %x1, %v4 : f32, f32
    }

    gpu.func @iterate(%data: memref<?xf32>, %n: index, %steps: index,
                      %k: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x0 = memref.load %data[%i] : memref<?xf32>
        %r:2 = scf.for %s = %c0 to %steps step %c1
            iter_args(%x = %x0, %v = %zero) -> (f32, f32) {
          %y:2 = func.call @step(%x, %v, %k) : (f32, f32, f32) -> (f32, f32)
          scf.yield %y#0, %y#1 : f32, f32
        }
        memref.store %r#0, %data[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
