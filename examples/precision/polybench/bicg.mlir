// BICG of PolyBench/GPU 1.0 (bicg.cu), DATA_TYPE double: s = A^T r and
// q = A p, A: NX x NY, r: NX, s: NY, p: NY, q: NX.
// bicg_kernel1: thread j (block 256 x 1) sets s[j] = 0 and accumulates
// A[i][j] r[i] in memory; bicg_kernel2: thread i sets q[i] = 0 and
// accumulates A[i][j] p[j]; bounds-checked.
gpu.module @pb_bicg {
  gpu.func @bicg_kernel1(%A: memref<?x?xf64>, %r: memref<?xf64>,
                         %s: memref<?xf64>, %nx: index, %ny: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g = arith.addi %g0, %tx : index
    %ok = arith.cmpi ult, %g, %ny : index
    scf.if %ok {
      %zero = arith.constant 0.0 : f64
      memref.store %zero, %s[%g] : memref<?xf64>
      scf.for %i = %c0 to %nx step %c1 {
        %a = memref.load %A[%i, %g] : memref<?x?xf64>
        %rv = memref.load %r[%i] : memref<?xf64>
        %acc = memref.load %s[%g] : memref<?xf64>
        %p = arith.mulf %a, %rv : f64
        %sum = arith.addf %acc, %p : f64
        memref.store %sum, %s[%g] : memref<?xf64>
      }
    }
    gpu.return
  }

  gpu.func @bicg_kernel2(%A: memref<?x?xf64>, %p: memref<?xf64>,
                         %q: memref<?xf64>, %nx: index, %ny: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g = arith.addi %g0, %tx : index
    %ok = arith.cmpi ult, %g, %nx : index
    scf.if %ok {
      %zero = arith.constant 0.0 : f64
      memref.store %zero, %q[%g] : memref<?xf64>
      scf.for %j = %c0 to %ny step %c1 {
        %a = memref.load %A[%g, %j] : memref<?x?xf64>
        %pv = memref.load %p[%j] : memref<?xf64>
        %acc = memref.load %q[%g] : memref<?xf64>
        %prod = arith.mulf %a, %pv : f64
        %sum = arith.addf %acc, %prod : f64
        memref.store %sum, %q[%g] : memref<?xf64>
      }
    }
    gpu.return
  }
}
