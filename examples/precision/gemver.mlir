// GEMVER (PolyBench/GPU's gemver, DATA_TYPE double), three kernels over nine
// memory objects: A, u1, v1, u2, v2, x, y, z, w.
//   gemver_kernel1: A += u1 v1^T + u2 v2^T    (thread (i, j), block 32 x 8)
//   gemver_kernel2: x += beta A^T y + z       (thread i, block 256)
//   gemver_kernel3: w += alpha A x            (thread i, block 256)
// The plain f64 program a precision-scaling user starts from: every float
// memory object can be stored as f64, f32, f16 or bf16 (docs/precision.md,
// docs/configurations.md). Each kernel argument names the memory object it
// receives (`approx.object`), as a frontend that knows the host code would:
// precision-space= then gives one storage knob per object (9), each typing
// every argument the object is passed to.
gpu.module @gemver {
  gpu.func @gemver_kernel1(%a: memref<?x?xf64> {approx.object = "A"},
                           %u1: memref<?xf64> {approx.object = "u1"},
                           %v1: memref<?xf64> {approx.object = "v1"},
                           %u2: memref<?xf64> {approx.object = "u2"},
                           %v2: memref<?xf64> {approx.object = "v2"},
                           %n: index) kernel {
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
    %okj = arith.cmpi ult, %j, %n : index
    %oki = arith.cmpi ult, %i, %n : index
    %ok = arith.andi %oki, %okj : i1
    scf.if %ok {
      %av = memref.load %a[%i, %j] : memref<?x?xf64>
      %u1v = memref.load %u1[%i] : memref<?xf64>
      %v1v = memref.load %v1[%j] : memref<?xf64>
      %u2v = memref.load %u2[%i] : memref<?xf64>
      %v2v = memref.load %v2[%j] : memref<?xf64>
      %p1 = arith.mulf %u1v, %v1v : f64
      %p2 = arith.mulf %u2v, %v2v : f64
      %s1 = arith.addf %av, %p1 : f64
      %s2 = arith.addf %s1, %p2 : f64
      memref.store %s2, %a[%i, %j] : memref<?x?xf64>
    }
    gpu.return
  }

  gpu.func @gemver_kernel2(%a: memref<?x?xf64> {approx.object = "A"},
                           %x: memref<?xf64> {approx.object = "x"},
                           %y: memref<?xf64> {approx.object = "y"},
                           %z: memref<?xf64> {approx.object = "z"},
                           %beta: f64, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %i0 = arith.muli %bx, %dx : index
    %i = arith.addi %i0, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %x0 = memref.load %x[%i] : memref<?xf64>
      %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %x0) -> f64 {
        %av = memref.load %a[%j, %i] : memref<?x?xf64>
        %yv = memref.load %y[%j] : memref<?xf64>
        %p = arith.mulf %av, %yv : f64
        %bp = arith.mulf %beta, %p : f64
        %s = arith.addf %acc, %bp : f64
        scf.yield %s : f64
      }
      %zv = memref.load %z[%i] : memref<?xf64>
      %r = arith.addf %sum, %zv : f64
      memref.store %r, %x[%i] : memref<?xf64>
    }
    gpu.return
  }

  gpu.func @gemver_kernel3(%a: memref<?x?xf64> {approx.object = "A"},
                           %x: memref<?xf64> {approx.object = "x"},
                           %w: memref<?xf64> {approx.object = "w"},
                           %alpha: f64, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bx = gpu.block_id x
    %dx = gpu.block_dim x
    %tx = gpu.thread_id x
    %i0 = arith.muli %bx, %dx : index
    %i = arith.addi %i0, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %w0 = memref.load %w[%i] : memref<?xf64>
      %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %w0) -> f64 {
        %av = memref.load %a[%i, %j] : memref<?x?xf64>
        %xv = memref.load %x[%j] : memref<?xf64>
        %p = arith.mulf %av, %xv : f64
        %ap = arith.mulf %alpha, %p : f64
        %s = arith.addf %acc, %ap : f64
        scf.yield %s : f64
      }
      memref.store %sum, %w[%i] : memref<?xf64>
    }
    gpu.return
  }
}
