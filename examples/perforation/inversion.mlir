// Image inversion, out = 1 - in (a 1x1 window: the tile load has no halo,
// and a row scheme rebuilds skipped rows from their neighbours):
//
//   approx-opt inversion.mlir --approx-to-ptx="chip=sm_90 output-dir=DIR perforate=accurate,rows1:nn,rows1:linear,stencil:nn"
//
// Without `perforate` the same file compiles to the direct global-load kernel,
// the baseline of bench/perforation.
gpu.module @inversion {
  gpu.func @inversion(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
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
      %ylop0 = arith.maxsi %y, %c0 : index
      %ycp0 = arith.minsi %ylop0, %hm1 : index
      %xlop0 = arith.maxsi %x, %c0 : index
      %xcp0 = arith.minsi %xlop0, %wm1 : index
      %v = memref.load %in[%ycp0, %xcp0] : memref<?x?xf32>
      %one = arith.constant 1.0 : f32
      %r = arith.subf %one, %v : f32
      memref.store %r, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
