// Direct Coulomb summation in f64 (the cutcp/DCS kernel shape): each thread
// owns one lattice point and sums q_j / |r - r_j| over all atoms. The inner
// loop is rsqrt-bound: approx-from-math turns 1/sqrt(d2) into approx.rcp of
// approx.sqrt; with `newton-steps` the f64 SFU estimates get refined.
// Compute-bound: natoms rsqrt per output, 4 loads shared by the block (L1).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // atoms: natoms x 4 (x, y, z, q); points: npoints x 3; energy: npoints.
    gpu.func @coulomb(%atoms: memref<?x4xf64>, %points: memref<?x3xf64>,
                      %energy: memref<?xf64>, %natoms: index,
                      %npoints: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.0 : f64
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %p = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %p, %npoints : index
      scf.if %inside {
        %px = memref.load %points[%p, %c0] : memref<?x3xf64>
        %py = memref.load %points[%p, %c1] : memref<?x3xf64>
        %pz = memref.load %points[%p, %c2] : memref<?x3xf64>
        %sum = scf.for %j = %c0 to %natoms step %c1 iter_args(%acc = %zero) -> (f64) {
          %ax = memref.load %atoms[%j, %c0] : memref<?x4xf64>
          %ay = memref.load %atoms[%j, %c1] : memref<?x4xf64>
          %az = memref.load %atoms[%j, %c2] : memref<?x4xf64>
          %q = memref.load %atoms[%j, %c3] : memref<?x4xf64>
          %dx = arith.subf %px, %ax : f64
          %dy = arith.subf %py, %ay : f64
          %dz = arith.subf %pz, %az : f64
          %dx2 = arith.mulf %dx, %dx : f64
          %dy2 = arith.mulf %dy, %dy : f64
          %dz2 = arith.mulf %dz, %dz : f64
          %s1 = arith.addf %dx2, %dy2 : f64
          %d2 = arith.addf %s1, %dz2 : f64
          %inv = math.rsqrt %d2 : f64
          %e = arith.mulf %q, %inv : f64
          %next = arith.addf %acc, %e : f64
          scf.yield %next : f64
        }
        memref.store %sum, %energy[%p] : memref<?xf64>
      }
      gpu.return
    }
  }
}
