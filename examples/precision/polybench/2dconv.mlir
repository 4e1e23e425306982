// 2DCONV of PolyBench/GPU 1.0 (2DConvolution.cu), DATA_TYPE double: a 3x3
// convolution of A (NI x NJ) into B, interior points only.
// Convolution2D_kernel: one thread per B element, j = x (block 32 x 8),
// i = y, bounds-checked (0 < i < NI-1, 0 < j < NJ-1); the nine products are
// summed in the CUDA kernel's order. The border of B is not written.
gpu.module @pb_2dconv {
  gpu.func @Convolution2D_kernel(%A: memref<?x?xf64>, %B: memref<?x?xf64>,
                                 %ni: index, %nj: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %j0 = arith.muli %bx, %dx : index
    %j = arith.addi %j0, %tx : index
    %i0 = arith.muli %by, %dy : index
    %i = arith.addi %i0, %ty : index
    %nim1 = arith.subi %ni, %c1 : index
    %njm1 = arith.subi %nj, %c1 : index
    %ilo = arith.cmpi ugt, %i, %c0 : index
    %ihi = arith.cmpi ult, %i, %nim1 : index
    %jlo = arith.cmpi ugt, %j, %c0 : index
    %jhi = arith.cmpi ult, %j, %njm1 : index
    %ok0 = arith.andi %ilo, %ihi : i1
    %ok1 = arith.andi %jlo, %jhi : i1
    %ok = arith.andi %ok0, %ok1 : i1
    scf.if %ok {
      %c11 = arith.constant 0.2 : f64
      %c21 = arith.constant 0.5 : f64
      %c31 = arith.constant -0.8 : f64
      %c12 = arith.constant -0.3 : f64
      %c22 = arith.constant 0.6 : f64
      %c32 = arith.constant -0.9 : f64
      %c13 = arith.constant 0.4 : f64
      %c23 = arith.constant 0.7 : f64
      %c33 = arith.constant 0.1 : f64
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %a_mm = memref.load %A[%im, %jm] : memref<?x?xf64>
      %a_m0 = memref.load %A[%im, %j] : memref<?x?xf64>
      %a_mp = memref.load %A[%im, %jp] : memref<?x?xf64>
      %a_0m = memref.load %A[%i, %jm] : memref<?x?xf64>
      %a_00 = memref.load %A[%i, %j] : memref<?x?xf64>
      %a_0p = memref.load %A[%i, %jp] : memref<?x?xf64>
      %a_pm = memref.load %A[%ip, %jm] : memref<?x?xf64>
      %a_p0 = memref.load %A[%ip, %j] : memref<?x?xf64>
      %a_pp = memref.load %A[%ip, %jp] : memref<?x?xf64>
      %t1 = arith.mulf %c11, %a_mm : f64
      %t2 = arith.mulf %c21, %a_m0 : f64
      %t3 = arith.mulf %c31, %a_mp : f64
      %t4 = arith.mulf %c12, %a_0m : f64
      %t5 = arith.mulf %c22, %a_00 : f64
      %t6 = arith.mulf %c32, %a_0p : f64
      %t7 = arith.mulf %c13, %a_pm : f64
      %t8 = arith.mulf %c23, %a_p0 : f64
      %t9 = arith.mulf %c33, %a_pp : f64
      %s2 = arith.addf %t1, %t2 : f64
      %s3 = arith.addf %s2, %t3 : f64
      %s4 = arith.addf %s3, %t4 : f64
      %s5 = arith.addf %s4, %t5 : f64
      %s6 = arith.addf %s5, %t6 : f64
      %s7 = arith.addf %s6, %t7 : f64
      %s8 = arith.addf %s7, %t8 : f64
      %s9 = arith.addf %s8, %t9 : f64
      memref.store %s9, %B[%i, %j] : memref<?x?xf64>
    }
    gpu.return
  }
}
