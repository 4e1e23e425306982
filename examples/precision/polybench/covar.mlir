// COVAR of PolyBench/GPU 1.0 (covariance.cu), DATA_TYPE double: the
// covariance matrix of data ((N+1) x (M+1); rows 1..N are observations,
// columns 1..M variables; row and column 0 unused), symmat: (M+1) x (M+1),
// mean: M+1. Three kernels in sequence: mean_kernel, reduce_kernel
// (centres data in place), covar_kernel. float_n (3214212.01) is
// PolyBench's constant, an argument as in PolyBench/GPU's OpenCL version.
gpu.module @pb_covar {
  // mean[j] = sum_(i=1..n) data[i][j] / float_n for j = 1..m (thread
  // j - 1, block 256 x 1); accumulates in memory.
  gpu.func @mean_kernel(%mean: memref<?xf64>, %data: memref<?x?xf64>,
                        %float_n: f64, %m: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g1 = arith.addi %g0, %tx : index
    %j = arith.addi %g1, %c1 : index
    %mp1 = arith.addi %m, %c1 : index
    %np1 = arith.addi %n, %c1 : index
    %ok = arith.cmpi ult, %j, %mp1 : index
    scf.if %ok {
      %zero = arith.constant 0.0 : f64
      memref.store %zero, %mean[%j] : memref<?xf64>
      scf.for %i = %c1 to %np1 step %c1 {
        %d = memref.load %data[%i, %j] : memref<?x?xf64>
        %acc = memref.load %mean[%j] : memref<?xf64>
        %s = arith.addf %acc, %d : f64
        memref.store %s, %mean[%j] : memref<?xf64>
      }
      %sum = memref.load %mean[%j] : memref<?xf64>
      %q = arith.divf %sum, %float_n : f64
      memref.store %q, %mean[%j] : memref<?xf64>
    }
    gpu.return
  }

  // data[i][j] -= mean[j] for i = 1..n, j = 1..m (j - 1 = x, i - 1 = y,
  // block 32 x 8).
  gpu.func @reduce_kernel(%mean: memref<?xf64>, %data: memref<?x?xf64>,
                          %m: index, %n: index) kernel {
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %j0 = arith.muli %bx, %dx : index
    %j1 = arith.addi %j0, %tx : index
    %j = arith.addi %j1, %c1 : index
    %i0 = arith.muli %by, %dy : index
    %i1 = arith.addi %i0, %ty : index
    %i = arith.addi %i1, %c1 : index
    %mp1 = arith.addi %m, %c1 : index
    %np1 = arith.addi %n, %c1 : index
    %iok = arith.cmpi ult, %i, %np1 : index
    %jok = arith.cmpi ult, %j, %mp1 : index
    %ok = arith.andi %iok, %jok : i1
    scf.if %ok {
      %d = memref.load %data[%i, %j] : memref<?x?xf64>
      %mu = memref.load %mean[%j] : memref<?xf64>
      %c = arith.subf %d, %mu : f64
      memref.store %c, %data[%i, %j] : memref<?x?xf64>
    }
    gpu.return
  }

  // Row j1 = 1..m of symmat (thread j1 - 1, block 256 x 1):
  // symmat[j1][j2] for j2 >= j1 accumulates in memory from 0, then is
  // copied to symmat[j2][j1].
  gpu.func @covar_kernel(%symmat: memref<?x?xf64>, %data: memref<?x?xf64>,
                         %m: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g1 = arith.addi %g0, %tx : index
    %j1 = arith.addi %g1, %c1 : index
    %mp1 = arith.addi %m, %c1 : index
    %np1 = arith.addi %n, %c1 : index
    %ok = arith.cmpi ult, %j1, %mp1 : index
    scf.if %ok {
      %zero = arith.constant 0.0 : f64
      scf.for %j2 = %j1 to %mp1 step %c1 {
        memref.store %zero, %symmat[%j1, %j2] : memref<?x?xf64>
        scf.for %i = %c1 to %np1 step %c1 {
          %a = memref.load %data[%i, %j1] : memref<?x?xf64>
          %b = memref.load %data[%i, %j2] : memref<?x?xf64>
          %acc = memref.load %symmat[%j1, %j2] : memref<?x?xf64>
          %p = arith.mulf %a, %b : f64
          %s = arith.addf %acc, %p : f64
          memref.store %s, %symmat[%j1, %j2] : memref<?x?xf64>
        }
        %v = memref.load %symmat[%j1, %j2] : memref<?x?xf64>
        memref.store %v, %symmat[%j2, %j1] : memref<?x?xf64>
      }
    }
    gpu.return
  }
}
