// Sobel 3x3 edge magnitude sqrt(Gx^2 + Gy^2), borders clamped, one output
// per thread; the window is found by approx-perforation-raise:
//
//   approx-opt sobel3.mlir --approx-to-ptx="chip=sm_90 output-dir=DIR perforate=accurate,rows1:nn,rows1:linear,stencil:nn"
//
// Without `perforate` the same file compiles to the direct global-load kernel,
// the baseline of bench/perforation.
gpu.module @sobel3 {
  gpu.func @sobel3(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %hm1 = arith.subi %h, %c1 : index
    %wm1 = arith.subi %w, %c1 : index
    %bidy = gpu.block_id y
    %bdimy = gpu.block_dim y
    %tidy = gpu.thread_id y
    %bidx = gpu.block_id x
    %bdimx = gpu.block_dim x
    %tidx = gpu.thread_id x
    %y0 = arith.muli %bidy, %bdimy : index
    %y = arith.addi %y0, %tidy : index
    %x0 = arith.muli %bidx, %bdimx : index
    %x = arith.addi %x0, %tidx : index
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %cm1 = arith.constant -1 : index
      %cp1 = arith.constant 1 : index
      %ym1 = arith.addi %y, %cm1 : index
      %ylom1 = arith.maxsi %ym1, %c0 : index
      %ycm1 = arith.minsi %ylom1, %hm1 : index
      %ylop0 = arith.maxsi %y, %c0 : index
      %ycp0 = arith.minsi %ylop0, %hm1 : index
      %yp1 = arith.addi %y, %cp1 : index
      %ylop1 = arith.maxsi %yp1, %c0 : index
      %ycp1 = arith.minsi %ylop1, %hm1 : index
      %xm1 = arith.addi %x, %cm1 : index
      %xlom1 = arith.maxsi %xm1, %c0 : index
      %xcm1 = arith.minsi %xlom1, %wm1 : index
      %xlop0 = arith.maxsi %x, %c0 : index
      %xcp0 = arith.minsi %xlop0, %wm1 : index
      %xp1 = arith.addi %x, %cp1 : index
      %xlop1 = arith.maxsi %xp1, %c0 : index
      %xcp1 = arith.minsi %xlop1, %wm1 : index
      %vm1m1 = memref.load %in[%ycm1, %xcm1] : memref<?x?xf32>
      %vm1p0 = memref.load %in[%ycm1, %xcp0] : memref<?x?xf32>
      %vm1p1 = memref.load %in[%ycm1, %xcp1] : memref<?x?xf32>
      %vp0m1 = memref.load %in[%ycp0, %xcm1] : memref<?x?xf32>
      %vp0p0 = memref.load %in[%ycp0, %xcp0] : memref<?x?xf32>
      %vp0p1 = memref.load %in[%ycp0, %xcp1] : memref<?x?xf32>
      %vp1m1 = memref.load %in[%ycp1, %xcm1] : memref<?x?xf32>
      %vp1p0 = memref.load %in[%ycp1, %xcp0] : memref<?x?xf32>
      %vp1p1 = memref.load %in[%ycp1, %xcp1] : memref<?x?xf32>
      %gxw0 = arith.constant -1.0 : f32
      %gxs0 = arith.mulf %gxw0, %vm1m1 : f32
      %gxw1 = arith.constant 1.0 : f32
      %gxs1 = math.fma %gxw1, %vm1p1, %gxs0 : f32
      %gxw2 = arith.constant -2.0 : f32
      %gxs2 = math.fma %gxw2, %vp0m1, %gxs1 : f32
      %gxw3 = arith.constant 2.0 : f32
      %gxs3 = math.fma %gxw3, %vp0p1, %gxs2 : f32
      %gxw4 = arith.constant -1.0 : f32
      %gxs4 = math.fma %gxw4, %vp1m1, %gxs3 : f32
      %gxw5 = arith.constant 1.0 : f32
      %gxs5 = math.fma %gxw5, %vp1p1, %gxs4 : f32
      %gyw0 = arith.constant -1.0 : f32
      %gys0 = arith.mulf %gyw0, %vm1m1 : f32
      %gyw1 = arith.constant -2.0 : f32
      %gys1 = math.fma %gyw1, %vm1p0, %gys0 : f32
      %gyw2 = arith.constant -1.0 : f32
      %gys2 = math.fma %gyw2, %vm1p1, %gys1 : f32
      %gyw3 = arith.constant 1.0 : f32
      %gys3 = math.fma %gyw3, %vp1m1, %gys2 : f32
      %gyw4 = arith.constant 2.0 : f32
      %gys4 = math.fma %gyw4, %vp1p0, %gys3 : f32
      %gyw5 = arith.constant 1.0 : f32
      %gys5 = math.fma %gyw5, %vp1p1, %gys4 : f32
      %gxx = arith.mulf %gxs5, %gxs5 : f32
      %mag2 = math.fma %gys5, %gys5, %gxx : f32
      %r = math.sqrt %mag2 : f32
      memref.store %r, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
