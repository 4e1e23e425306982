// 2MM of PolyBench/GPU 1.0 (2mm.cu), DATA_TYPE double: C += A * B, then
// E += C * D, with A: NI x NK, B: NK x NJ, C: NI x NJ, D: NJ x NL,
// E: NI x NL. As in PolyBench/GPU, C holds its initial values (init_array)
// and E the host's (zeros) when the kernels start; both accumulate in
// memory at every k (a narrower storage type rounds every partial sum).
// mm2_kernel1 / mm2_kernel2: one thread per output element, j = x
// (block 32 x 8), i = y, bounds-checked.
gpu.module @pb_2mm {
  gpu.func @mm2_kernel1(%A: memref<?x?xf64>, %B: memref<?x?xf64>,
                        %C: memref<?x?xf64>, %ni: index, %nj: index,
                        %nk: index) kernel {
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
      scf.for %k = %c0 to %nk step %c1 {
        %a = memref.load %A[%i, %k] : memref<?x?xf64>
        %b = memref.load %B[%k, %j] : memref<?x?xf64>
        %acc = memref.load %C[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %C[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }

  gpu.func @mm2_kernel2(%C: memref<?x?xf64>, %D: memref<?x?xf64>,
                        %E: memref<?x?xf64>, %ni: index, %nl: index,
                        %nj: index) kernel {
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
    %jok = arith.cmpi ult, %j, %nl : index
    %ok = arith.andi %iok, %jok : i1
    scf.if %ok {
      scf.for %k = %c0 to %nj step %c1 {
        %c = memref.load %C[%i, %k] : memref<?x?xf64>
        %d = memref.load %D[%k, %j] : memref<?x?xf64>
        %acc = memref.load %E[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %c, %d : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %E[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }
}
