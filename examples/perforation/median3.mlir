// Median of the 3x3 window (Paeth's 19-exchange network of min/max),
// borders clamped, one output per thread; for approx-perforation-raise:
//
//   approx-opt median3.mlir --approx-to-ptx="chip=sm_90 output-dir=DIR perforate=accurate,rows1:nn,rows1:linear,stencil:nn"
//
// Without `perforate` the same file compiles to the direct global-load kernel,
// the baseline of bench/perforation.
gpu.module @median3 {
  gpu.func @median3(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
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
      %lo0 = arith.minimumf %vm1p0, %vm1p1 : f32
      %hi0 = arith.maximumf %vm1p0, %vm1p1 : f32
      %lo1 = arith.minimumf %vp0p0, %vp0p1 : f32
      %hi1 = arith.maximumf %vp0p0, %vp0p1 : f32
      %lo2 = arith.minimumf %vp1p0, %vp1p1 : f32
      %hi2 = arith.maximumf %vp1p0, %vp1p1 : f32
      %lo3 = arith.minimumf %vm1m1, %lo0 : f32
      %hi3 = arith.maximumf %vm1m1, %lo0 : f32
      %lo4 = arith.minimumf %vp0m1, %lo1 : f32
      %hi4 = arith.maximumf %vp0m1, %lo1 : f32
      %lo5 = arith.minimumf %vp1m1, %lo2 : f32
      %hi5 = arith.maximumf %vp1m1, %lo2 : f32
      %lo6 = arith.minimumf %hi3, %hi0 : f32
      %hi6 = arith.maximumf %hi3, %hi0 : f32
      %lo7 = arith.minimumf %hi4, %hi1 : f32
      %hi7 = arith.maximumf %hi4, %hi1 : f32
      %lo8 = arith.minimumf %hi5, %hi2 : f32
      %hi8 = arith.maximumf %hi5, %hi2 : f32
      %lo9 = arith.minimumf %lo3, %lo4 : f32
      %hi9 = arith.maximumf %lo3, %lo4 : f32
      %lo10 = arith.minimumf %hi7, %hi8 : f32
      %hi10 = arith.maximumf %hi7, %hi8 : f32
      %lo11 = arith.minimumf %lo7, %lo8 : f32
      %hi11 = arith.maximumf %lo7, %lo8 : f32
      %lo12 = arith.minimumf %hi9, %lo5 : f32
      %hi12 = arith.maximumf %hi9, %lo5 : f32
      %lo13 = arith.minimumf %lo6, %lo11 : f32
      %hi13 = arith.maximumf %lo6, %lo11 : f32
      %lo14 = arith.minimumf %hi6, %lo10 : f32
      %hi14 = arith.maximumf %hi6, %lo10 : f32
      %lo15 = arith.minimumf %hi13, %hi11 : f32
      %hi15 = arith.maximumf %hi13, %hi11 : f32
      %lo16 = arith.minimumf %lo15, %lo14 : f32
      %hi16 = arith.maximumf %lo15, %lo14 : f32
      %lo17 = arith.minimumf %hi12, %lo16 : f32
      %hi17 = arith.maximumf %hi12, %lo16 : f32
      %r = arith.minimumf %hi17, %hi16 : f32
      %hi18 = arith.maximumf %hi17, %hi16 : f32
      memref.store %r, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
