// GEMM of PolyBench/GPU 1.0 (gemm.cu), DATA_TYPE double:
//   C := alpha * A * B + beta * C,  A: NI x NK, B: NK x NJ, C: NI x NJ.
// gemm_kernel: one thread per C element, j = x (block 32 x 8), i = y,
// bounds-checked; C is read and written in memory at every k, as the CUDA
// kernel does (`c[i * NJ + j] += ...`), so a narrower storage type of C
// rounds every partial sum (memory-object precision scaling's semantics).
// The host table (Apps.cpp) launches it; sizes are the index arguments.
gpu.module @pb_gemm {
  gpu.func @gemm_kernel(%a: memref<?x?xf64>, %b: memref<?x?xf64>,
                        %c: memref<?x?xf64>, %alpha: f64, %beta: f64,
                        %ni: index, %nj: index, %nk: index) kernel {
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
    %iok = arith.cmpi ult, %i, %ni : index
    %jok = arith.cmpi ult, %j, %nj : index
    %ok = arith.andi %iok, %jok : i1
    scf.if %ok {
      %c_in = memref.load %c[%i, %j] : memref<?x?xf64>
      %c_b = arith.mulf %c_in, %beta : f64
      memref.store %c_b, %c[%i, %j] : memref<?x?xf64>
      scf.for %k = %c0 to %nk step %c1 {
        %aik = memref.load %a[%i, %k] : memref<?x?xf64>
        %bkj = memref.load %b[%k, %j] : memref<?x?xf64>
        %acc = memref.load %c[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %alpha, %aik : f64
        %p = arith.mulf %t, %bkj : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %c[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }
}
