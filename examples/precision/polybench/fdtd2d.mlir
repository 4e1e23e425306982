// FDTD-2D of PolyBench/GPU 1.0 (fdtd2d.cu), DATA_TYPE double: TMAX time
// steps of a 2-D finite-difference time-domain update, ex: NX x (NY+1),
// ey: (NX+1) x NY, hz: NX x NY, _fict_: TMAX. Three kernels per time step,
// launched in sequence by the host's t loop; all bounds-checked, j = x
// (block 32 x 8), i = y. The constants 0.5 and 0.7 are doubles (as in
// the OpenCL version and PolyBench's CPU code; the CUDA kernels' 0.5f and
// 0.7f are the same 0.5 and a float 0.7).
gpu.module @pb_fdtd2d {
  // ey[0][j] = _fict_[t]; ey[i][j] -= 0.5 (hz[i][j] - hz[i-1][j]) for i > 0.
  gpu.func @fdtd_step1_kernel(%fict: memref<?xf64>, %ex: memref<?x?xf64>,
                              %ey: memref<?x?xf64>, %hz: memref<?x?xf64>,
                              %t: index, %nx: index, %ny: index) kernel {
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
    %iok = arith.cmpi ult, %i, %nx : index
    %jok = arith.cmpi ult, %j, %ny : index
    %ok = arith.andi %iok, %jok : i1
    scf.if %ok {
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {
        %f = memref.load %fict[%t] : memref<?xf64>
        memref.store %f, %ey[%i, %j] : memref<?x?xf64>
      } else {
        %half = arith.constant 0.5 : f64
        %im = arith.subi %i, %c1 : index
        %e = memref.load %ey[%i, %j] : memref<?x?xf64>
        %h = memref.load %hz[%i, %j] : memref<?x?xf64>
        %hm = memref.load %hz[%im, %j] : memref<?x?xf64>
        %d = arith.subf %h, %hm : f64
        %p = arith.mulf %half, %d : f64
        %r = arith.subf %e, %p : f64
        memref.store %r, %ey[%i, %j] : memref<?x?xf64>
      }
    }
    gpu.return
  }

  // ex[i][j] -= 0.5 (hz[i][j] - hz[i][j-1]) for j > 0.
  gpu.func @fdtd_step2_kernel(%ex: memref<?x?xf64>, %ey: memref<?x?xf64>,
                              %hz: memref<?x?xf64>, %nx: index,
                              %ny: index) kernel {
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
    %iok = arith.cmpi ult, %i, %nx : index
    %jok = arith.cmpi ult, %j, %ny : index
    %jlo = arith.cmpi ugt, %j, %c0 : index
    %ok0 = arith.andi %iok, %jok : i1
    %ok = arith.andi %ok0, %jlo : i1
    scf.if %ok {
      %half = arith.constant 0.5 : f64
      %jm = arith.subi %j, %c1 : index
      %e = memref.load %ex[%i, %j] : memref<?x?xf64>
      %h = memref.load %hz[%i, %j] : memref<?x?xf64>
      %hm = memref.load %hz[%i, %jm] : memref<?x?xf64>
      %d = arith.subf %h, %hm : f64
      %p = arith.mulf %half, %d : f64
      %r = arith.subf %e, %p : f64
      memref.store %r, %ex[%i, %j] : memref<?x?xf64>
    }
    gpu.return
  }

  // hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]).
  gpu.func @fdtd_step3_kernel(%ex: memref<?x?xf64>, %ey: memref<?x?xf64>,
                              %hz: memref<?x?xf64>, %nx: index,
                              %ny: index) kernel {
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
    %iok = arith.cmpi ult, %i, %nx : index
    %jok = arith.cmpi ult, %j, %ny : index
    %ok = arith.andi %iok, %jok : i1
    scf.if %ok {
      %c07 = arith.constant 0.7 : f64
      %ip = arith.addi %i, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %h = memref.load %hz[%i, %j] : memref<?x?xf64>
      %exp = memref.load %ex[%i, %jp] : memref<?x?xf64>
      %ex0 = memref.load %ex[%i, %j] : memref<?x?xf64>
      %eyp = memref.load %ey[%ip, %j] : memref<?x?xf64>
      %ey0 = memref.load %ey[%i, %j] : memref<?x?xf64>
      %s1 = arith.subf %exp, %ex0 : f64
      %s2 = arith.addf %s1, %eyp : f64
      %s3 = arith.subf %s2, %ey0 : f64
      %p = arith.mulf %c07, %s3 : f64
      %r = arith.subf %h, %p : f64
      memref.store %r, %hz[%i, %j] : memref<?x?xf64>
    }
    gpu.return
  }
}
