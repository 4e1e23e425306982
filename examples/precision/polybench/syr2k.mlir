// SYR2K of PolyBench/GPU 1.0 (syr2k.cu), DATA_TYPE double:
// C := alpha A B^T + alpha B A^T + beta C, A, B: N x M, C: N x N.
// syr2k_kernel: one thread per C element, j = x (block 32 x 8), i = y,
// bounds-checked; C is scaled by beta, then accumulates in memory at every
// k, as the CUDA kernel does.
gpu.module @pb_syr2k {
  gpu.func @syr2k_kernel(%a: memref<?x?xf64>, %b: memref<?x?xf64>,
                         %c: memref<?x?xf64>, %alpha: f64, %beta: f64,
                         %m: index, %n: index) kernel {
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
    %iok = arith.cmpi ult, %i, %n : index
    %jok = arith.cmpi ult, %j, %n : index
    %ok = arith.andi %iok, %jok : i1
    scf.if %ok {
      %cin = memref.load %c[%i, %j] : memref<?x?xf64>
      %cb = arith.mulf %cin, %beta : f64
      memref.store %cb, %c[%i, %j] : memref<?x?xf64>
      scf.for %k = %c0 to %m step %c1 {
        %aik = memref.load %a[%i, %k] : memref<?x?xf64>
        %bjk = memref.load %b[%j, %k] : memref<?x?xf64>
        %bik = memref.load %b[%i, %k] : memref<?x?xf64>
        %ajk = memref.load %a[%j, %k] : memref<?x?xf64>
        %acc = memref.load %c[%i, %j] : memref<?x?xf64>
        %t1 = arith.mulf %alpha, %aik : f64
        %p1 = arith.mulf %t1, %bjk : f64
        %t2 = arith.mulf %alpha, %bik : f64
        %p2 = arith.mulf %t2, %ajk : f64
        %p = arith.addf %p1, %p2 : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %c[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }
}
