// GESUMMV of PolyBench/GPU 1.0 (gesummv.cu), DATA_TYPE double:
// y = alpha A x + beta B x, A, B: N x N, x, y, tmp: N. tmp and y hold the
// host's values (zeros) when the kernel starts and accumulate in memory.
// gesummv_kernel: thread i (block 256 x 1), bounds-checked.
gpu.module @pb_gesummv {
  gpu.func @gesummv_kernel(%a: memref<?x?xf64>, %b: memref<?x?xf64>,
                           %x: memref<?xf64>, %y: memref<?xf64>,
                           %tmp: memref<?xf64>, %alpha: f64, %beta: f64,
                           %n: index) kernel {
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
        %xv = memref.load %x[%j] : memref<?xf64>
        %t = memref.load %tmp[%g] : memref<?xf64>
        %pa = arith.mulf %av, %xv : f64
        %t2 = arith.addf %t, %pa : f64
        memref.store %t2, %tmp[%g] : memref<?xf64>
        %bv = memref.load %b[%g, %j] : memref<?x?xf64>
        %xv2 = memref.load %x[%j] : memref<?xf64>
        %yv = memref.load %y[%g] : memref<?xf64>
        %pb = arith.mulf %bv, %xv2 : f64
        %y2 = arith.addf %yv, %pb : f64
        memref.store %y2, %y[%g] : memref<?xf64>
      }
      %tf = memref.load %tmp[%g] : memref<?xf64>
      %yf = memref.load %y[%g] : memref<?xf64>
      %at = arith.mulf %alpha, %tf : f64
      %by = arith.mulf %beta, %yf : f64
      %r = arith.addf %at, %by : f64
      memref.store %r, %y[%g] : memref<?xf64>
    }
    gpu.return
  }
}
