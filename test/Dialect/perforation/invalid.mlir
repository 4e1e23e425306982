// Every verifier error of the perforation op family, one case per split.
// RUN: approx-opt %s -split-input-file -verify-diagnostics

func.func @skip_for_stencil() attributes {
  // expected-error @+1 {{skip = 2 means nothing for stencil: only rows, cols and center skip n of n+1}}
  s = #approx.perforation<stencil, skip = 2>} {
  return
}

// -----

func.func @skip_zero() attributes {
  // expected-error @+1 {{skip = 0 is outside [1, 1024]}}
  s = #approx.perforation<rows, skip = 0>} {
  return
}

// -----

func.func @accurate_linear() attributes {
  // expected-error @+1 {{accurate skips nothing: it takes no reconstruction}}
  s = #approx.perforation<accurate, recon = linear>} {
  return
}

// -----

func.func @center_linear() attributes {
  // expected-error @+1 {{center is output perforation, which copies: recon = linear is not available}}
  s = #approx.perforation<center, recon = linear>} {
  return
}

// -----

gpu.module @m {
  gpu.func @not_shared(%img: memref<?x?xf32>, %r: index, %c: index, %t: memref<10x10xf32>) kernel {
    // expected-error @+1 {{'approx.perforation.tile_load' op tile buffer 'memref<10x10xf32>' must be in #gpu.address_space<workgroup>}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x10xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @dynamic(%img: memref<?x?xf32>, %r: index, %c: index, %t: memref<?x10xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tile buffer 'memref<?x10xf32, #gpu.address_space<workgroup>>' must have a static shape}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<?x10xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @rows_overlap(%img: memref<?x?xf32>, %r: index, %c: index, %t: memref<10x10xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tile buffer 'memref<10x10xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>' must be row-major with static strides and offset (inner stride 1, rows at least its width apart)}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x10xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @column_major(%img: memref<?x?xf32>, %r: index, %c: index, %t: memref<10x10xf32, strided<[1, 10]>, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tile buffer 'memref<10x10xf32, strided<[1, 10]>, #gpu.address_space<workgroup>>' must be row-major}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x10xf32, strided<[1, 10]>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @dynamic_offset(%img: memref<?x?xf32>, %r: index, %c: index, %t: memref<10x10xf32, strided<[12, 1], offset: ?>, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tile buffer 'memref<10x10xf32, strided<[12, 1], offset: ?>, #gpu.address_space<workgroup>>' must be row-major with static strides and offset}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x10xf32, strided<[12, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// The padding counts: 100 rows 124 elements apart, from element 3, span 49,516 bytes.
gpu.module @m {
  gpu.func @padded_too_big(%img: memref<?x?xf32>, %r: index, %c: index, %t: memref<100x100xf32, strided<[124, 1], offset: 3>, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tile plus halo needs 49516 bytes of shared memory}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<100x100xf32, strided<[124, 1], offset: 3>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @element(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x10xf16, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tile element type 'f16' differs from the source's 'f32'}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x10xf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @too_big(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<130x130xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tile plus halo needs 67600 bytes of shared memory; a block's static shared memory is at most 49152 bytes}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<130x130xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @halo_larger(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x34xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{halo of 4 rows is larger than the 2-row tile}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(4, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @no_interior(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x4xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{a tile buffer of 4 cols has no interior inside a halo of 2}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 2) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @negative_halo(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x10xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{halo of -1 rows is negative}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(-1, 1) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?x?xf32> to memref<10x10xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @rows_too_many(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<4x32xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{scheme #approx.perforation<rows, skip = 4> needs 5 buffer rows to keep one loaded row; the buffer has 4}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<rows, skip = 4>]) : memref<?x?xf32> to memref<4x32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @cols_too_many(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<16x4xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{scheme #approx.perforation<cols, skip = 4> needs 5 buffer columns to keep one loaded column; the buffer has 4}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<cols, skip = 4>]) : memref<?x?xf32> to memref<16x4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @center_input(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{scheme #approx.perforation<center> is output perforation; a tile load takes accurate, rows, cols or stencil}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<center>]) : memref<?x?xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @stencil_no_halo(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{scheme #approx.perforation<stencil> skips the halo, and this tile has none}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(0, 0) border(clamp)
        schemes([#approx.perforation<stencil>]) : memref<?x?xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @no_scheme(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{'approx.perforation.tile_load' op needs at least one scheme}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([]) : memref<?x?xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @no_knob(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{has 2 schemes but no knob to choose among them}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>, #approx.perforation<stencil>]) : memref<?x?xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 2) default(0)
  gpu.func @knob_range(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{knob @k has range(0, 2) but indexes 2 schemes: it must lie within [0, 1]}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>, #approx.perforation<stencil>]) knob(@k) : memref<?x?xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @knob_missing(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{knob @nope does not name an approx.knob in the enclosing gpu.module}}
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>, #approx.perforation<stencil>]) knob(@nope) : memref<?x?xf32> to memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @cols_1d(%x: memref<?xf32>, %s: index)
      workgroup(%b: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{scheme #approx.perforation<cols> is not a 1-D input scheme: take accurate, rows (whole 32-byte sectors) or stencil}}
    approx.perforation.load_1d %x[%s] into %b halo(2) border(clamp)
        schemes([#approx.perforation<cols>]) : memref<?xf32> to memref<64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @sectors_1d(%x: memref<?xf32>, %s: index)
      workgroup(%b: memref<20xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{scheme #approx.perforation<rows, skip = 2> skips 2 of every 3 sectors of 8 elements; the 20-element buffer may then hold no loaded element}}
    approx.perforation.load_1d %x[%s] into %b halo(2) border(clamp)
        schemes([#approx.perforation<rows, skip = 2>]) : memref<?xf32> to memref<20xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @halo_1d(%x: memref<?xf32>, %s: index)
      workgroup(%b: memref<20xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{halo of 7 elements is larger than the 6-element tile}}
    approx.perforation.load_1d %x[%s] into %b halo(7) border(clamp)
        schemes([#approx.perforation<accurate>]) : memref<?xf32> to memref<20xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @output_stencil(%out: memref<?x?xf32>, %y: index, %x: index) kernel {
    // expected-error @+1 {{scheme #approx.perforation<stencil> is input perforation; output perforation takes accurate, rows, cols or center}}
    approx.perforation.output %out[%y, %x] schemes([#approx.perforation<stencil>]) : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      %v = arith.constant 0.0 : f32
      approx.perforation.yield %v : f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @output_linear(%out: memref<?x?xf32>, %y: index, %x: index) kernel {
    // expected-error @+1 {{output perforation copies computed elements, recon = linear is not available}}
    approx.perforation.output %out[%y, %x] schemes([#approx.perforation<rows, recon = linear>]) : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      %v = arith.constant 0.0 : f32
      approx.perforation.yield %v : f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @output_args(%out: memref<?x?xf32>, %y: index, %x: index) kernel {
    // expected-error @+1 {{region must take the computed coordinate as two index arguments (row, column)}}
    approx.perforation.output %out[%y, %x] schemes([#approx.perforation<accurate>]) : memref<?x?xf32> {
    ^bb0(%r: index):
      %v = arith.constant 0.0 : f32
      approx.perforation.yield %v : f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @output_type(%out: memref<?x?xf32>, %y: index, %x: index) kernel {
    // expected-error @+1 {{region yields 'f64' but the output holds 'f32'}}
    approx.perforation.output %out[%y, %x] schemes([#approx.perforation<accurate>]) : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      %v = arith.constant 0.0 : f64
      approx.perforation.yield %v : f64
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @output_barrier(%out: memref<?x?xf32>, %y: index, %x: index) kernel {
    approx.perforation.output %out[%y, %x] schemes([#approx.perforation<accurate>]) : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      // expected-error @+1 {{a barrier inside approx.perforation.output: threads whose element is copied skip the region}}
      gpu.barrier
      %v = arith.constant 0.0 : f32
      approx.perforation.yield %v : f32
    }
    gpu.return
  }
}
