// An HDR image pipeline in two kernels of one gpu.module, each technique on
// the part it suits, so that one manifest holds every knob a joint tuner
// needs (examples/combined/README.md lists them):
//   blur:     a 3x3 Gaussian (1 2 1 / 2 4 2 / 1 2 1, over 16) of an f64
//             radiance image, 32 x 8 threads per block, one output each.
//             The block's 8 x 32 tile plus a one-element halo comes from a
//             perforated tile load (docs/perforation.md) whose scheme the
//             knob @scheme picks at run time:
//               0 accurate, 1 rows1:nn, 2 rows1:linear, 3 rows2:nn,
//               4 cols1:nn, 5 stencil:nn.
//             Borders are clamped: any H x W is correct at its edges.
//   tonemap:  the blurred radiance to display values, one pixel per thread
//             (any 2-D block):
//               l  = exposure * max(b, 0)
//               t  = log(1 + l) / log(1 + exposure * white)   (log curve)
//               v  = exp(-vignette * r^2),  r = distance to the centre
//                    over the half diagonal                  (vignette)
//               out = pow(t * v, inv_gamma)                   (gamma)
//             computed in f32 (a display value needs no more): the two
//             log, the two divisions, the exp and the pow are SFU sites on
//             the knob @lambda (approx-from-math, docs/sfu.md).
//   blur_tonemap: both in one kernel (no intermediate image), as a DSL
//             that fuses them would emit it: the three techniques in one
//             kernel, which is what `approx tune` tunes together; its tile
//             load has its own knob, @fused_scheme.
// Every image is f64 (memref<?x?xf64>, any size; src, tmp and dst of one
// H x W). Each kernel argument names its memory object (approx.object), so
// precision.space= gives one storage knob per object (docs/configurations.md):
// tmp (the blurred image, written by blur and read by tonemap) and dst. src
// gets none: the tile load is lowered before the precision pass runs, and
// the pointer arithmetic it leaves on src is not a use that pass retypes
// (a remark says so; examples/combined/README.md, "Known gaps").
//
//   approx-opt examples/combined/image_pipeline.mlir -o /dev/null --approx-to-ptx="chip=sm_90 output-dir=DIR name=image_pipeline precision.space=f32,f16,bf16"
//
// writes DIR/image_pipeline.{ptx,manifest.json}: knobs scheme and
// fused_scheme (perforation, global, categorical), lambda (sfu, global,
// ordinal), precision__tmp and precision__dst (precision, build, storage).
gpu.module @image_pipeline {
  approx.knob @scheme range(0, 5) default(0)
  approx.knob @fused_scheme range(0, 5) default(0)

  gpu.func @blur(%in: memref<?x?xf64> {approx.object = "src"},
                 %out: memref<?x?xf64> {approx.object = "tmp"})
      workgroup(%tile: memref<10x34xf64, #gpu.address_space<workgroup>>)
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
                 #approx.perforation<cols, skip = 1>,
                 #approx.perforation<stencil>])
        knob(@scheme)
        : memref<?x?xf64> to memref<10x34xf64, #gpu.address_space<workgroup>>
    %y = arith.addi %row0, %ty : index
    %x = arith.addi %col0, %tx : index
    %h = memref.dim %out, %c0 : memref<?x?xf64>
    %w = memref.dim %out, %c1 : memref<?x?xf64>
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      // Buffer position of (y, x) is (ty + 1, tx + 1).
      %i1 = arith.addi %ty, %c1 : index
      %i2 = arith.addi %ty, %c2 : index
      %j1 = arith.addi %tx, %c1 : index
      %j2 = arith.addi %tx, %c2 : index
      %a00 = memref.load %tile[%ty, %tx] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a01 = memref.load %tile[%ty, %j1] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a02 = memref.load %tile[%ty, %j2] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a10 = memref.load %tile[%i1, %tx] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a11 = memref.load %tile[%i1, %j1] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a12 = memref.load %tile[%i1, %j2] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a20 = memref.load %tile[%i2, %tx] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a21 = memref.load %tile[%i2, %j1] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a22 = memref.load %tile[%i2, %j2] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %two = arith.constant 2.0 : f64
      %four = arith.constant 4.0 : f64
      %sixteenth = arith.constant 0.0625 : f64
      %corners0 = arith.addf %a00, %a02 : f64
      %corners1 = arith.addf %a20, %a22 : f64
      %corners = arith.addf %corners0, %corners1 : f64
      %edges0 = arith.addf %a01, %a21 : f64
      %edges1 = arith.addf %a10, %a12 : f64
      %edges = arith.addf %edges0, %edges1 : f64
      %e2 = arith.mulf %edges, %two : f64
      %c4 = arith.mulf %a11, %four : f64
      %s0 = arith.addf %corners, %e2 : f64
      %s1 = arith.addf %s0, %c4 : f64
      %v = arith.mulf %s1, %sixteenth : f64
      memref.store %v, %out[%y, %x] : memref<?x?xf64>
    }
    gpu.return
  }

  // exposure > 0 scales radiance; white is the radiance mapped to 1;
  // vignette >= 0 is the falloff at the corners (0: none); inv_gamma is
  // 1/2.2 for sRGB-like output.
  gpu.func @tonemap(%in: memref<?x?xf64> {approx.object = "tmp"},
                    %out: memref<?x?xf64> {approx.object = "dst"},
                    %exposure: f32, %white: f32, %vignette: f32,
                    %inv_gamma: f32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = gpu.global_id x
    %y = gpu.global_id y
    %h = memref.dim %out, %c0 : memref<?x?xf64>
    %w = memref.dim %out, %c1 : memref<?x?xf64>
    %iny = arith.cmpi ult, %y, %h : index
    %inx = arith.cmpi ult, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %half = arith.constant 0.5 : f32
      %b64 = memref.load %in[%y, %x] : memref<?x?xf64>
      %b = arith.truncf %b64 : f64 to f32
      %bp = arith.maximumf %b, %zero : f32
      // Logarithmic compression, white -> 1.
      %l = arith.mulf %exposure, %bp : f32
      %l1 = arith.addf %one, %l : f32
      %num = math.log %l1 : f32
      %lw = arith.mulf %exposure, %white : f32
      %lw1 = arith.addf %one, %lw : f32
      %den = math.log %lw1 : f32
      %t = arith.divf %num, %den : f32
      // Vignette: r^2 over the squared half diagonal.
      %yi = arith.index_cast %y : index to i64
      %xi = arith.index_cast %x : index to i64
      %hi = arith.index_cast %h : index to i64
      %wi = arith.index_cast %w : index to i64
      %yf = arith.sitofp %yi : i64 to f32
      %xf = arith.sitofp %xi : i64 to f32
      %hf = arith.sitofp %hi : i64 to f32
      %wf = arith.sitofp %wi : i64 to f32
      %cy = arith.mulf %hf, %half : f32
      %cx = arith.mulf %wf, %half : f32
      %dy = arith.subf %yf, %cy : f32
      %dx = arith.subf %xf, %cx : f32
      %dy2 = arith.mulf %dy, %dy : f32
      %dx2 = arith.mulf %dx, %dx : f32
      %r2 = arith.addf %dy2, %dx2 : f32
      %cy2 = arith.mulf %cy, %cy : f32
      %cx2 = arith.mulf %cx, %cx : f32
      %d2 = arith.addf %cy2, %cx2 : f32
      %rn = arith.divf %r2, %d2 : f32
      %nv = arith.mulf %vignette, %rn : f32
      %arg = arith.subf %zero, %nv : f32
      %v = math.exp %arg : f32
      %tv = arith.mulf %t, %v : f32
      // Gamma encoding; t >= 0, so pow is defined.
      %g = math.powf %tv, %inv_gamma : f32
      %g64 = arith.extf %g : f32 to f64
      memref.store %g64, %out[%y, %x] : memref<?x?xf64>
    }
    gpu.return
  }

  // blur then tonemap in one kernel, as a DSL fusing the two would emit
  // it: the perforated tile load, the 3x3 blur and the tone map of the
  // blurred value, with no intermediate image (its own scheme knob
  // @fused_scheme; the SFU sites share @lambda).
  gpu.func @blur_tonemap(%in: memref<?x?xf64> {approx.object = "src"},
                         %out: memref<?x?xf64> {approx.object = "dst"},
                         %exposure: f32, %white: f32, %vignette: f32,
                         %inv_gamma: f32)
      workgroup(%tile: memref<10x34xf64, #gpu.address_space<workgroup>>)
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
                 #approx.perforation<cols, skip = 1>,
                 #approx.perforation<stencil>])
        knob(@fused_scheme)
        : memref<?x?xf64> to memref<10x34xf64, #gpu.address_space<workgroup>>
    %y = arith.addi %row0, %ty : index
    %x = arith.addi %col0, %tx : index
    %h = memref.dim %out, %c0 : memref<?x?xf64>
    %w = memref.dim %out, %c1 : memref<?x?xf64>
    %iny = arith.cmpi slt, %y, %h : index
    %inx = arith.cmpi slt, %x, %w : index
    %inside = arith.andi %iny, %inx : i1
    scf.if %inside {
      // Buffer position of (y, x) is (ty + 1, tx + 1).
      %i1 = arith.addi %ty, %c1 : index
      %i2 = arith.addi %ty, %c2 : index
      %j1 = arith.addi %tx, %c1 : index
      %j2 = arith.addi %tx, %c2 : index
      %a00 = memref.load %tile[%ty, %tx] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a01 = memref.load %tile[%ty, %j1] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a02 = memref.load %tile[%ty, %j2] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a10 = memref.load %tile[%i1, %tx] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a11 = memref.load %tile[%i1, %j1] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a12 = memref.load %tile[%i1, %j2] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a20 = memref.load %tile[%i2, %tx] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a21 = memref.load %tile[%i2, %j1] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %a22 = memref.load %tile[%i2, %j2] : memref<10x34xf64, #gpu.address_space<workgroup>>
      %two = arith.constant 2.0 : f64
      %four = arith.constant 4.0 : f64
      %sixteenth = arith.constant 0.0625 : f64
      %corners0 = arith.addf %a00, %a02 : f64
      %corners1 = arith.addf %a20, %a22 : f64
      %corners = arith.addf %corners0, %corners1 : f64
      %edges0 = arith.addf %a01, %a21 : f64
      %edges1 = arith.addf %a10, %a12 : f64
      %edges = arith.addf %edges0, %edges1 : f64
      %e2 = arith.mulf %edges, %two : f64
      %c4 = arith.mulf %a11, %four : f64
      %s0 = arith.addf %corners, %e2 : f64
      %s1 = arith.addf %s0, %c4 : f64
      %v = arith.mulf %s1, %sixteenth : f64
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %half = arith.constant 0.5 : f32
      %b = arith.truncf %v : f64 to f32
      %bp = arith.maximumf %b, %zero : f32
      // Logarithmic compression, white -> 1.
      %l = arith.mulf %exposure, %bp : f32
      %l1 = arith.addf %one, %l : f32
      %num = math.log %l1 : f32
      %lw = arith.mulf %exposure, %white : f32
      %lw1 = arith.addf %one, %lw : f32
      %den = math.log %lw1 : f32
      %t = arith.divf %num, %den : f32
      // Vignette: r^2 over the squared half diagonal.
      %yi = arith.index_cast %y : index to i64
      %xi = arith.index_cast %x : index to i64
      %hi = arith.index_cast %h : index to i64
      %wi = arith.index_cast %w : index to i64
      %yf = arith.sitofp %yi : i64 to f32
      %xf = arith.sitofp %xi : i64 to f32
      %hf = arith.sitofp %hi : i64 to f32
      %wf = arith.sitofp %wi : i64 to f32
      %cy = arith.mulf %hf, %half : f32
      %cx = arith.mulf %wf, %half : f32
      %dy = arith.subf %yf, %cy : f32
      %dx = arith.subf %xf, %cx : f32
      %dy2 = arith.mulf %dy, %dy : f32
      %dx2 = arith.mulf %dx, %dx : f32
      %r2 = arith.addf %dy2, %dx2 : f32
      %cy2 = arith.mulf %cy, %cy : f32
      %cx2 = arith.mulf %cx, %cx : f32
      %d2 = arith.addf %cy2, %cx2 : f32
      %rn = arith.divf %r2, %d2 : f32
      %nv = arith.mulf %vignette, %rn : f32
      %arg = arith.subf %zero, %nv : f32
      %vg = math.exp %arg : f32
      %tv = arith.mulf %t, %vg : f32
      // Gamma encoding; t >= 0, so pow is defined.
      %g = math.powf %tv, %inv_gamma : f32
      %g64 = arith.extf %g : f32 to f64
      memref.store %g64, %out[%y, %x] : memref<?x?xf64>
    }
    gpu.return
  }

}
