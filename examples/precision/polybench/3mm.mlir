// 3MM of PolyBench/GPU 1.0 (3mm.cu), DATA_TYPE double: E += A * B,
// F += C * D, G += E * F, with A: NI x NK, B: NK x NJ, C: NJ x NM,
// D: NM x NL, E: NI x NJ, F: NJ x NL, G: NI x NL. E, F and G hold the
// host's values (zeros) when the kernels start and accumulate in memory at
// every k, as the CUDA kernels do.
// mm3_kernel1/2/3: one thread per output element, j = x (block 32 x 8),
// i = y, bounds-checked.
gpu.module @pb_3mm {
  // E (NI x NJ) += A * B over NK.
  gpu.func @mm3_kernel1(%A: memref<?x?xf64>, %B: memref<?x?xf64>,
                        %E: memref<?x?xf64>, %ni: index, %nj: index,
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
        %x = memref.load %A[%i, %k] : memref<?x?xf64>
        %y = memref.load %B[%k, %j] : memref<?x?xf64>
        %acc = memref.load %E[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %E[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }

  // F (NJ x NL) += C * D over NM.
  gpu.func @mm3_kernel2(%C: memref<?x?xf64>, %D: memref<?x?xf64>,
                        %F: memref<?x?xf64>, %nj: index, %nl: index,
                        %nm: index) kernel {
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
    %iok = arith.cmpi ult, %i, %nj : index
    %jok = arith.cmpi ult, %j, %nl : index
    %ok = arith.andi %iok, %jok : i1
    scf.if %ok {
      scf.for %k = %c0 to %nm step %c1 {
        %x = memref.load %C[%i, %k] : memref<?x?xf64>
        %y = memref.load %D[%k, %j] : memref<?x?xf64>
        %acc = memref.load %F[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %F[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }

  // G (NI x NL) += E * F over NJ.
  gpu.func @mm3_kernel3(%E: memref<?x?xf64>, %F: memref<?x?xf64>,
                        %G: memref<?x?xf64>, %ni: index, %nl: index,
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
        %x = memref.load %E[%i, %k] : memref<?x?xf64>
        %y = memref.load %F[%k, %j] : memref<?x?xf64>
        %acc = memref.load %G[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %G[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }
}
