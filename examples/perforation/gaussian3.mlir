// A 3x3 Gaussian blur (weights 1 2 1 / 2 4 2 / 1 2 1, over 16), one output
// per thread, 32 x 8 threads per block. The block's 8 x 32 tile plus a
// one-element halo is loaded by a perforated tile load whose scheme the
// knob @scheme picks at run time (docs/perforation.md):
//   0 accurate, 1 rows1:nn, 2 rows1:linear, 3 rows2:nn, 4 stencil:nn.
// Borders are clamped, so any image size is correct at its edges.
//
//   approx-opt gaussian3.mlir --approx-to-ptx="chip=sm_90 output-dir=DIR"
gpu.module @gaussian3 {
  approx.knob @scheme range(0, 4) default(0)

  gpu.func @gaussian3(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
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
                 #approx.perforation<rows, skip = 1>,
                 #approx.perforation<rows, skip = 1, recon = linear>,
                 #approx.perforation<rows, skip = 2>,
                 #approx.perforation<stencil>])
        knob(@scheme)
        : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    %y = arith.addi %row0, %ty : index
    %x = arith.addi %col0, %tx : index
    %h = memref.dim %out, %c0 : memref<?x?xf32>
    %w = memref.dim %out, %c1 : memref<?x?xf32>
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      // Buffer position of (y, x) is (ty + 1, tx + 1).
      %i0 = arith.addi %ty, %c0 : index
      %i1 = arith.addi %ty, %c1 : index
      %i2 = arith.addi %ty, %c2 : index
      %j0 = arith.addi %tx, %c0 : index
      %j1 = arith.addi %tx, %c1 : index
      %j2 = arith.addi %tx, %c2 : index
      %a00 = memref.load %tile[%i0, %j0] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a01 = memref.load %tile[%i0, %j1] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a02 = memref.load %tile[%i0, %j2] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a10 = memref.load %tile[%i1, %j0] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a11 = memref.load %tile[%i1, %j1] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a12 = memref.load %tile[%i1, %j2] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a20 = memref.load %tile[%i2, %j0] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a21 = memref.load %tile[%i2, %j1] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %a22 = memref.load %tile[%i2, %j2] : memref<10x34xf32, #gpu.address_space<workgroup>>
      %two = arith.constant 2.0 : f32
      %four = arith.constant 4.0 : f32
      %sixteenth = arith.constant 0.0625 : f32
      %corners0 = arith.addf %a00, %a02 : f32
      %corners1 = arith.addf %a20, %a22 : f32
      %corners = arith.addf %corners0, %corners1 : f32
      %edges0 = arith.addf %a01, %a21 : f32
      %edges1 = arith.addf %a10, %a12 : f32
      %edges = arith.addf %edges0, %edges1 : f32
      %e2 = arith.mulf %edges, %two : f32
      %c4 = arith.mulf %a11, %four : f32
      %s0 = arith.addf %corners, %e2 : f32
      %s1 = arith.addf %s0, %c4 : f32
      %v = arith.mulf %s1, %sixteenth : f32
      memref.store %v, %out[%y, %x] : memref<?x?xf32>
    }
    gpu.return
  }
}
