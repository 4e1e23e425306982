// GPU check kernels for the perforation ops (GpuPerforationTest.cpp): each
// dumps the reconstructed shared buffers, or applies output perforation,
// so the test can compare with the CPU reference (runtime/perforation)
// element by element. Knob orders are listed in GpuPerforationTest.cpp.
// Compiled by scripts/gpu-prepare.sh:
//   approx-opt kernels.mlir --approx-to-ptx="chip=sm_90 output-dir=DIR name=perforation_check"
gpu.module @perforation_check {
  approx.knob @scheme2d range(0, 7) default(0)
  approx.knob @scheme2z range(0, 3) default(0)
  approx.knob @scheme1d range(0, 4) default(0)
  approx.knob @output range(0, 4) default(0)

  // Each block dumps its whole 10x34 buffer (tile 8 x 32, halo 1, 1,
  // border(clamp)) to dump[block] after the tile load.
  gpu.func @dump2d(%in: memref<?x?xf32>, %dump: memref<?x340xf32>)
      workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel {
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %cbx = arith.constant 34 : index
    %cn = arith.constant 340 : index
    %bxi = gpu.block_id x
    %byi = gpu.block_id y
    %gx = gpu.grid_dim x
    %r = arith.muli %byi, %c8 : index
    %c = arith.muli %bxi, %c32 : index
    approx.perforation.tile_load %in[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows>,
                 #approx.perforation<rows, recon = linear>,
                 #approx.perforation<rows, skip = 2, recon = linear>,
                 #approx.perforation<rows, skip = 3>,
                 #approx.perforation<cols>,
                 #approx.perforation<cols, skip = 2, recon = linear>,
                 #approx.perforation<stencil>])
        knob(@scheme2d) : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    %row = arith.muli %byi, %gx : index
    %blk = arith.addi %row, %bxi : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tyx = arith.muli %ty, %c32 : index
    %tid = arith.addi %tyx, %tx : index
    %c256 = arith.constant 256 : index
    scf.for %k = %tid to %cn step %c256 {
      %i = arith.divui %k, %cbx : index
      %j = arith.remui %k, %cbx : index
      %v = memref.load %t[%i, %j] : memref<10x34xf32, #gpu.address_space<workgroup>>
      memref.store %v, %dump[%blk, %k] : memref<?x340xf32>
    }
    gpu.return
  }

  // Each block dumps its whole 12x38 buffer (tile 8 x 32, halo 2, 3,
  // border(zero)) to dump[block] after the tile load.
  gpu.func @dump2z(%in: memref<?x?xf32>, %dump: memref<?x456xf32>)
      workgroup(%t: memref<12x38xf32, #gpu.address_space<workgroup>>) kernel {
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %cbx = arith.constant 38 : index
    %cn = arith.constant 456 : index
    %bxi = gpu.block_id x
    %byi = gpu.block_id y
    %gx = gpu.grid_dim x
    %r = arith.muli %byi, %c8 : index
    %c = arith.muli %bxi, %c32 : index
    approx.perforation.tile_load %in[%r, %c] into %t halo(2, 3) border(zero)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, recon = linear>,
                 #approx.perforation<cols>,
                 #approx.perforation<stencil, recon = linear>])
        knob(@scheme2z) : memref<?x?xf32> to memref<12x38xf32, #gpu.address_space<workgroup>>
    %row = arith.muli %byi, %gx : index
    %blk = arith.addi %row, %bxi : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tyx = arith.muli %ty, %c32 : index
    %tid = arith.addi %tyx, %tx : index
    %c256 = arith.constant 256 : index
    scf.for %k = %tid to %cn step %c256 {
      %i = arith.divui %k, %cbx : index
      %j = arith.remui %k, %cbx : index
      %v = memref.load %t[%i, %j] : memref<12x38xf32, #gpu.address_space<workgroup>>
      memref.store %v, %dump[%blk, %k] : memref<?x456xf32>
    }
    gpu.return
  }

  // 1-D: 128 threads, tile 256, halo 3: dump[block] is the 262-element buffer.
  gpu.func @dump1d(%in: memref<?xf32>, %dump: memref<?x262xf32>)
      workgroup(%t: memref<262xf32, #gpu.address_space<workgroup>>) kernel {
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c262 = arith.constant 262 : index
    %b = gpu.block_id x
    %s = arith.muli %b, %c256 : index
    approx.perforation.load_1d %in[%s] into %t halo(3) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows>,
                 #approx.perforation<rows, recon = linear>,
                 #approx.perforation<rows, skip = 2, recon = linear>,
                 #approx.perforation<stencil>])
        knob(@scheme1d) : memref<?xf32> to memref<262xf32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x
    scf.for %k = %tid to %c262 step %c128 {
      %v = memref.load %t[%k] : memref<262xf32, #gpu.address_space<workgroup>>
      memref.store %v, %dump[%b, %k] : memref<?x262xf32>
    }
    gpu.return
  }

  // Output perforation: out[y][x] = 2 in[r][c] + 1 at the computed (r, c).
  gpu.func @paraprox(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %y0 = arith.muli %by, %c8 : index
    %x0 = arith.muli %bx, %c32 : index
    %y = arith.addi %y0, %ty : index
    %x = arith.addi %x0, %tx : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %iy = arith.cmpi slt, %y, %h : index
    %ix = arith.cmpi slt, %x, %w : index
    %in_range = arith.andi %iy, %ix : i1
    scf.if %in_range {
      approx.perforation.output %out[%y, %x]
          schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows>,
                 #approx.perforation<rows, skip = 2>,
                 #approx.perforation<cols>,
                 #approx.perforation<center>])
          knob(@output) : memref<?x?xf32> {
      ^bb0(%r: index, %c: index):
        %v = memref.load %in[%r, %c] : memref<?x?xf32>
        %two = arith.constant 2.0 : f32
        %one = arith.constant 1.0 : f32
        %d = arith.mulf %v, %two : f32
        %e = arith.addf %d, %one : f32
        approx.perforation.yield %e : f32
      }
    }
    gpu.return
  }
}
