// SYRK of PolyBench/GPU 1.0 (syrk.cu), DATA_TYPE double:
// C := alpha A A^T + beta C, A: N x M, C: N x N.
// syrk_kernel: one thread per C element, j = x (block 32 x 8), i = y,
// bounds-checked; C is scaled by beta, then accumulates in memory at every
// k, as the CUDA kernel does.
gpu.module @pb_syrk {
  gpu.func @syrk_kernel(%a: memref<?x?xf64>, %c: memref<?x?xf64>,
                        %alpha: f64, %beta: f64, %m: index, %n: index) kernel {
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
        %ajk = memref.load %a[%j, %k] : memref<?x?xf64>
        %acc = memref.load %c[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %alpha, %aik : f64
        %p = arith.mulf %t, %ajk : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %c[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }
}
