// Loops over a run-time trip count: exp, and a sqrt before two loads. What
// unroll-versioned and hoist-loads act on.
module attributes {gpu.container_module} {
  gpu.module @loops {
    gpu.func @exp_loop(%a: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %x = memref.load %a[%i] : memref<?xf32>
        %e = math.exp %x : f32
        memref.store %e, %a[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @sqrt_then_loads(%t: memref<?xf32>, %s: memref<?xf32>,
                              %x: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %tv = memref.load %t[%i] : memref<?xf32>
        %r = math.sqrt %tv : f32
        %sv = memref.load %s[%i] : memref<?xf32>
        %xv = memref.load %x[%i] : memref<?xf32>
        %q = arith.divf %sv, %xv : f32
        %y = arith.addf %q, %r : f32
        memref.store %y, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
