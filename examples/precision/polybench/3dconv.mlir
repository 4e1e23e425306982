// 3DCONV of PolyBench/GPU 1.0 (3DConvolution.cu), DATA_TYPE double: a
// 3-D stencil of A (NI x NJ x NK) into B, one launch per plane i = 1 ..
// NI-2 (the host loops over the planes and passes i).
// convolution3D_kernel: one thread per (j, k) of plane i, k = x (block
// 32 x 8), j = y, bounds-checked (0 < i < NI-1, 0 < j < NJ-1,
// 0 < k < NK-1). The 15 terms are PolyBench/GPU's, in its order: its
// stencil repeats the (i+-1, j-1, k-1) corners with different weights
// (kept as written, it is the benchmark's arithmetic). The border of B is
// not written.
gpu.module @pb_3dconv {
  gpu.func @convolution3D_kernel(%A: memref<?x?x?xf64>, %B: memref<?x?x?xf64>,
                                 %ni: index, %nj: index, %nk: index,
                                 %i: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %k0 = arith.muli %bx, %dx : index
    %k = arith.addi %k0, %tx : index
    %j0 = arith.muli %by, %dy : index
    %j = arith.addi %j0, %ty : index
    %nim1 = arith.subi %ni, %c1 : index
    %njm1 = arith.subi %nj, %c1 : index
    %nkm1 = arith.subi %nk, %c1 : index
    %ihi = arith.cmpi ult, %i, %nim1 : index
    %jhi = arith.cmpi ult, %j, %njm1 : index
    %khi = arith.cmpi ult, %k, %nkm1 : index
    %ilo = arith.cmpi ugt, %i, %c0 : index
    %jlo = arith.cmpi ugt, %j, %c0 : index
    %klo = arith.cmpi ugt, %k, %c0 : index
    %ok0 = arith.andi %ihi, %jhi : i1
    %ok1 = arith.andi %ok0, %khi : i1
    %ok2 = arith.andi %ok1, %ilo : i1
    %ok3 = arith.andi %ok2, %jlo : i1
    %ok = arith.andi %ok3, %klo : i1
    scf.if %ok {
      %c11 = arith.constant 2.0 : f64
      %c21 = arith.constant 5.0 : f64
      %c31 = arith.constant -8.0 : f64
      %c12 = arith.constant -3.0 : f64
      %c22 = arith.constant 6.0 : f64
      %c32 = arith.constant -9.0 : f64
      %c13 = arith.constant 4.0 : f64
      %c23 = arith.constant 7.0 : f64
      %c33 = arith.constant 10.0 : f64
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %km = arith.subi %k, %c1 : index
      %kp = arith.addi %k, %c1 : index
      %v0 = memref.load %A[%im, %jm, %km] : memref<?x?x?xf64>
      %t0 = arith.mulf %c11, %v0 : f64
      %v1 = memref.load %A[%ip, %jm, %km] : memref<?x?x?xf64>
      %t1 = arith.mulf %c13, %v1 : f64
      %v2 = memref.load %A[%im, %jm, %km] : memref<?x?x?xf64>
      %t2 = arith.mulf %c21, %v2 : f64
      %v3 = memref.load %A[%ip, %jm, %km] : memref<?x?x?xf64>
      %t3 = arith.mulf %c23, %v3 : f64
      %v4 = memref.load %A[%im, %jm, %km] : memref<?x?x?xf64>
      %t4 = arith.mulf %c31, %v4 : f64
      %v5 = memref.load %A[%ip, %jm, %km] : memref<?x?x?xf64>
      %t5 = arith.mulf %c33, %v5 : f64
      %v6 = memref.load %A[%i, %jm, %k] : memref<?x?x?xf64>
      %t6 = arith.mulf %c12, %v6 : f64
      %v7 = memref.load %A[%i, %j, %k] : memref<?x?x?xf64>
      %t7 = arith.mulf %c22, %v7 : f64
      %v8 = memref.load %A[%i, %jp, %k] : memref<?x?x?xf64>
      %t8 = arith.mulf %c32, %v8 : f64
      %v9 = memref.load %A[%im, %jm, %kp] : memref<?x?x?xf64>
      %t9 = arith.mulf %c11, %v9 : f64
      %v10 = memref.load %A[%ip, %jm, %kp] : memref<?x?x?xf64>
      %t10 = arith.mulf %c13, %v10 : f64
      %v11 = memref.load %A[%im, %j, %kp] : memref<?x?x?xf64>
      %t11 = arith.mulf %c21, %v11 : f64
      %v12 = memref.load %A[%ip, %j, %kp] : memref<?x?x?xf64>
      %t12 = arith.mulf %c23, %v12 : f64
      %v13 = memref.load %A[%im, %jp, %kp] : memref<?x?x?xf64>
      %t13 = arith.mulf %c31, %v13 : f64
      %v14 = memref.load %A[%ip, %jp, %kp] : memref<?x?x?xf64>
      %t14 = arith.mulf %c33, %v14 : f64
      %s1 = arith.addf %t0, %t1 : f64
      %s2 = arith.addf %s1, %t2 : f64
      %s3 = arith.addf %s2, %t3 : f64
      %s4 = arith.addf %s3, %t4 : f64
      %s5 = arith.addf %s4, %t5 : f64
      %s6 = arith.addf %s5, %t6 : f64
      %s7 = arith.addf %s6, %t7 : f64
      %s8 = arith.addf %s7, %t8 : f64
      %s9 = arith.addf %s8, %t9 : f64
      %s10 = arith.addf %s9, %t10 : f64
      %s11 = arith.addf %s10, %t11 : f64
      %s12 = arith.addf %s11, %t12 : f64
      %s13 = arith.addf %s12, %t13 : f64
      %s14 = arith.addf %s13, %t14 : f64
      memref.store %s14, %B[%i, %j, %k] : memref<?x?x?xf64>
    }
    gpu.return
  }
}
