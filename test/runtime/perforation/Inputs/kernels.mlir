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
  approx.knob @blurscheme range(0, 1) default(0)

  // Each block dumps its whole 10x34 buffer (tile 8 x 32, halo 1, 1,
  // border(clamp)) to dump[block] after the tile load. Its block size is
  // known (the lowering's unrolled fetch); dump2z's is not (the loop).
  gpu.func @dump2d(%in: memref<?x?xf32>, %dump: memref<?x340xf32>)
      workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
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

  // dump2d on a padded buffer, as approx-perforation-raise builds it: rows
  // 40 elements apart, each row's interior from a multiple of four on, so
  // the vector fetch stores 16 bytes at a time (nn copies included).
  gpu.func @dump2p(%in: memref<?x?xf32>, %dump: memref<?x340xf32>)
      workgroup(%p: memref<10x40xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %cbx = arith.constant 34 : index
    %cn = arith.constant 340 : index
    %bxi = gpu.block_id x
    %byi = gpu.block_id y
    %gx = gpu.grid_dim x
    %r = arith.muli %byi, %c8 : index
    %c = arith.muli %bxi, %c32 : index
    %t = memref.subview %p[0, 3] [10, 34] [1, 1]
        : memref<10x40xf32, #gpu.address_space<workgroup>>
          to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
    approx.perforation.tile_load %in[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows>,
                 #approx.perforation<rows, recon = linear>,
                 #approx.perforation<rows, skip = 2, recon = linear>,
                 #approx.perforation<rows, skip = 3>,
                 #approx.perforation<cols>,
                 #approx.perforation<cols, skip = 2, recon = linear>,
                 #approx.perforation<stencil>])
        knob(@scheme2d) : memref<?x?xf32> to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
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
      %v = memref.load %t[%i, %j] : memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
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

  // For the guard: a 3x3 box sum over a clamped tile load (accurate or
  // rows1:nn), one output per thread, 32 x 8 threads.
  gpu.func @blur(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
      workgroup(%tile: memref<10x34xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %row0 = arith.muli %by, %c8 : index
    %col0 = arith.muli %bx, %c32 : index
    approx.perforation.tile_load %in[%row0, %col0] into %tile halo(1, 1)
        border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 1>])
        knob(@blurscheme)
        : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    %y = arith.addi %row0, %ty : index
    %x = arith.addi %col0, %tx : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zero) -> (f32) {
        %r = arith.addi %ty, %i : index
        %s0 = memref.load %tile[%r, %tx] : memref<10x34xf32, #gpu.address_space<workgroup>>
        %tx1 = arith.addi %tx, %c1 : index
        %s1 = memref.load %tile[%r, %tx1] : memref<10x34xf32, #gpu.address_space<workgroup>>
        %tx2 = arith.addi %tx, %c2 : index
        %s2 = memref.load %tile[%r, %tx2] : memref<10x34xf32, #gpu.address_space<workgroup>>
        %a1 = arith.addf %a, %s0 : f32
        %a2 = arith.addf %a1, %s1 : f32
        %a3 = arith.addf %a2, %s2 : f32
        scf.yield %a3 : f32
      }
      %r2 = arith.addi %ty, %c2 : index
      %t0 = memref.load %tile[%r2, %tx] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %tx1b = arith.addi %tx, %c1 : index
      %t1 = memref.load %tile[%r2, %tx1b] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %tx2b = arith.addi %tx, %c2 : index
      %t2 = memref.load %tile[%r2, %tx2b] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %b1 = arith.addf %sum, %t0 : f32
      %b2 = arith.addf %b1, %t1 : f32
      %b3 = arith.addf %b2, %t2 : f32
      memref.store %b3, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
