// MVT of PolyBench/GPU 1.0 (mvt.cu), DATA_TYPE double: x1 += A y_1 and
// x2 += A^T y_2, A: N x N, vectors of N. x1 and x2 start from their
// init_array values and accumulate in memory.
// mvt_kernel1 / mvt_kernel2: thread i (block 256 x 1), bounds-checked.
gpu.module @pb_mvt {
  gpu.func @mvt_kernel1(%a: memref<?x?xf64>, %x1: memref<?xf64>,
                        %y_1: memref<?xf64>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g = arith.addi %g0, %tx : index
    %ok = arith.cmpi ult, %g, %n : index
    scf.if %ok {
      scf.for %j = %c0 to %n step %c1 {
        %av = memref.load %a[%g, %j] : memref<?x?xf64>
        %yv = memref.load %y_1[%j] : memref<?xf64>
        %acc = memref.load %x1[%g] : memref<?xf64>
        %p = arith.mulf %av, %yv : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %x1[%g] : memref<?xf64>
      }
    }
    gpu.return
  }

  gpu.func @mvt_kernel2(%a: memref<?x?xf64>, %x2: memref<?xf64>,
                        %y_2: memref<?xf64>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %g0 = arith.muli %bx, %dx : index
    %g = arith.addi %g0, %tx : index
    %ok = arith.cmpi ult, %g, %n : index
    scf.if %ok {
      scf.for %j = %c0 to %n step %c1 {
        %av = memref.load %a[%j, %g] : memref<?x?xf64>
        %yv = memref.load %y_2[%j] : memref<?xf64>
        %acc = memref.load %x2[%g] : memref<?xf64>
        %p = arith.mulf %av, %yv : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %x2[%g] : memref<?xf64>
      }
    }
    gpu.return
  }
}
