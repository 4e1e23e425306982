// ATAX of PolyBench/GPU 1.0 (atax.cu), DATA_TYPE double: y = A^T (A x),
// A: NX x NY, x: NY, tmp: NX, y: NY. tmp and y hold the host's values
// (zeros) when the kernels start and accumulate in memory.
// atax_kernel1: thread i (block 256 x 1) computes tmp[i] += A[i][j] x[j];
// atax_kernel2: thread j computes y[j] += A[i][j] tmp[i]; bounds-checked.
gpu.module @pb_atax {
  gpu.func @atax_kernel1(%A: memref<?x?xf64>, %x: memref<?xf64>,
                         %tmp: memref<?xf64>, %nx: index, %ny: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g = arith.addi %g0, %tx : index
    %ok = arith.cmpi ult, %g, %nx : index
    scf.if %ok {
      scf.for %j = %c0 to %ny step %c1 {
        %a = memref.load %A[%g, %j] : memref<?x?xf64>
        %xv = memref.load %x[%j] : memref<?xf64>
        %acc = memref.load %tmp[%g] : memref<?xf64>
        %p = arith.mulf %a, %xv : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %tmp[%g] : memref<?xf64>
      }
    }
    gpu.return
  }

  gpu.func @atax_kernel2(%A: memref<?x?xf64>, %y: memref<?xf64>,
                         %tmp: memref<?xf64>, %nx: index, %ny: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g = arith.addi %g0, %tx : index
    %ok = arith.cmpi ult, %g, %ny : index
    scf.if %ok {
      scf.for %i = %c0 to %nx step %c1 {
        %a = memref.load %A[%i, %g] : memref<?x?xf64>
        %t = memref.load %tmp[%i] : memref<?xf64>
        %acc = memref.load %y[%g] : memref<?xf64>
        %p = arith.mulf %a, %t : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %y[%g] : memref<?xf64>
      }
    }
    gpu.return
  }
}
