// A 3x3 Gaussian blur (1 2 1 / 2 4 2 / 1 2 1, over 16), written plainly:
// one output per thread, each of the 9 inputs a global load at clamped
// coordinates. gaussian3.mlir is the same filter with the tile load
// written by hand; this one is for the transparent pass
// (approx-perforation-raise, docs/perforation.md), which finds the window:
//
//   approx-opt gaussian3_plain.mlir --approx-to-ptx="chip=sm_90 output-dir=DIR perforate=accurate,rows1:nn,rows1:linear,stencil:nn"
//
// Without `perforate` the same file compiles to the direct global-load kernel,
// the baseline of bench/perforation.
gpu.module @gaussian3_plain {
  gpu.func @gaussian3_plain(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel
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
      %gw0 = arith.constant 1.0 : f32
      %gs0 = arith.mulf %gw0, %vm1m1 : f32
      %gw1 = arith.constant 2.0 : f32
      %gs1 = math.fma %gw1, %vm1p0, %gs0 : f32
      %gw2 = arith.constant 1.0 : f32
      %gs2 = math.fma %gw2, %vm1p1, %gs1 : f32
      %gw3 = arith.constant 2.0 : f32
      %gs3 = math.fma %gw3, %vp0m1, %gs2 : f32
      %gw4 = arith.constant 4.0 : f32
      %gs4 = math.fma %gw4, %vp0p0, %gs3 : f32
      %gw5 = arith.constant 2.0 : f32
      %gs5 = math.fma %gw5, %vp0p1, %gs4 : f32
      %gw6 = arith.constant 1.0 : f32
      %gs6 = math.fma %gw6, %vp1m1, %gs5 : f32
      %gw7 = arith.constant 2.0 : f32
      %gs7 = math.fma %gw7, %vp1p0, %gs6 : f32
      %gw8 = arith.constant 1.0 : f32
      %gs8 = math.fma %gw8, %vp1p1, %gs7 : f32
      %sixteenth = arith.constant 0.0625 : f32
      %r = arith.mulf %gs8, %sixteenth : f32
      memref.store %r, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
