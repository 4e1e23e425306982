// One step of Rodinia's HotSpot thermal simulation (written anew): the
// temperature of each cell moves by step/C * (P + (T_N + T_S - 2T)/R_y +
// (T_E + T_W - 2T)/R_x + (T_amb - T)/R_z), T_amb = 80; borders clamped.
// Two inputs: the power map (a 1x1 window) and the temperature (a 3x3
// cross), so approx-perforation-raise gives each its own tile load.
// Arguments: power, temperature, output, then step/C, 1/R_x, 1/R_y, 1/R_z
// (bench/perforation/hotspot-input.py derives them as Rodinia does).
//
//   approx-opt hotspot.mlir --approx-to-ptx="chip=sm_90 output-dir=DIR perforate=accurate,rows1:nn,rows1:linear,stencil:nn"
//
// Without `perforate` the same file compiles to the direct global-load kernel,
// the baseline of bench/perforation.
gpu.module @hotspot {
  gpu.func @hotspot(%power: memref<?x?xf32>, %temp: memref<?x?xf32>, %out: memref<?x?xf32>,
      %sdc: f32, %rx1: f32, %ry1: f32, %rz1: f32) kernel
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
      %vm1p0 = memref.load %temp[%ycm1, %xcp0] : memref<?x?xf32>
      %vp0m1 = memref.load %temp[%ycp0, %xcm1] : memref<?x?xf32>
      %vp0p0 = memref.load %temp[%ycp0, %xcp0] : memref<?x?xf32>
      %vp0p1 = memref.load %temp[%ycp0, %xcp1] : memref<?x?xf32>
      %vp1p0 = memref.load %temp[%ycp1, %xcp0] : memref<?x?xf32>
      %p = memref.load %power[%ycp0, %xcp0] : memref<?x?xf32>
      %two = arith.constant 2.0 : f32
      %amb = arith.constant 80.0 : f32
      %ns = arith.addf %vm1p0, %vp1p0 : f32
      %ew = arith.addf %vp0m1, %vp0p1 : f32
      %t2 = arith.mulf %two, %vp0p0 : f32
      %dns = arith.subf %ns, %t2 : f32
      %dew = arith.subf %ew, %t2 : f32
      %damb = arith.subf %amb, %vp0p0 : f32
      %a0 = math.fma %dns, %ry1, %p : f32
      %a1 = math.fma %dew, %rx1, %a0 : f32
      %a2 = math.fma %damb, %rz1, %a1 : f32
      %r = math.fma %sdc, %a2, %vp0p0 : f32
      memref.store %r, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
