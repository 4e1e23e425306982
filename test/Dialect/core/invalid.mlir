// Every verifier error of the core ops and of the approx attributes, one
// case per split.
// RUN: approx-opt %s -split-input-file -verify-diagnostics

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op knob name 'a-b' cannot be a PTX symbol: it contains '-'}}
  approx.knob @"a-b" range(0, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op knob name 'a.b' cannot be a PTX symbol: it contains '.'}}
  approx.knob @"a.b" range(0, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op knob name '1abc' cannot be a PTX symbol: it starts with a digit}}
  approx.knob @"1abc" range(0, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op knob name '%tid' cannot be a PTX symbol: it starts with '%'}}
  approx.knob @"%tid" range(0, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op knob name 'a\x1bb' cannot be a PTX symbol: it contains '\x1b'}}
  approx.knob @"a\1Bb" range(0, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op knob name '_' cannot be a PTX symbol: it is a lone '_'}}
  approx.knob @_ range(0, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op knob name 'WARP_SZ' cannot be a PTX symbol: it is PTX's predefined WARP_SZ}}
  approx.knob @WARP_SZ range(0, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(-1, 64) must lie within [0, 2147483647]: knobs are non-negative i32}}
  approx.knob @k range(-1, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(0, 4294967296) must lie within [0, 2147483647]: knobs are non-negative i32}}
  approx.knob @k range(0, 4294967296) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(9, 3) is inverted}}
  approx.knob @k range(9, 3) default(5)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(4, 4) is empty: it holds one value, nothing to tune}}
  approx.knob @k range(4, 4) default(4)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op default(65) lies outside range(0, 64)}}
  approx.knob @k range(0, 64) default(65)
}

// -----

func.func @outside() {
  // expected-error @+1 {{'approx.knob' op expects parent op 'gpu.module'}}
  approx.knob @k range(0, 64) default(0)
  return
}

// -----

gpu.module @m {
  // expected-error @+1 {{custom op 'approx.knob' expected string or keyword containing one of the following enum values for attribute 'warp_slot' [hw, virtual, software]}}
  approx.knob @k range(0, 64) default(0) warp_slot(lane)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op dispatch is empty: name at least one kernel}}
  approx.variant_knob @v default(0) dispatch {}
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op dispatch of 'k' has 1 variant(s): a choice needs at least 2}}
  approx.variant_knob @v default(0) dispatch {k = [@a]}
  gpu.func @a() kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op dispatch of 'k' must be a list of kernel symbols, got ["a", "b"]}}
  approx.variant_knob @v default(0) dispatch {k = ["a", "b"]}
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op dispatch of 'l' has 3 variants where the others have 2: one knob value must pick one variant of each}}
  approx.variant_knob @v default(0) dispatch {k = [@a, @b], l = [@a, @b, @a]}
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op dispatched name 'x-y' cannot be a kernel name: it contains '-'}}
  approx.variant_knob @v default(0) dispatch {"x-y" = [@a, @b]}
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op default(2) lies outside [0, 1]: there are 2 variants}}
  approx.variant_knob @v default(2) dispatch {k = [@a, @b]}
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op variant @b of 'k' is not a gpu.func kernel of the enclosing gpu.module}}
  approx.variant_knob @v default(0) dispatch {k = [@a, @b]}
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op variant @missing of 'k' is not a gpu.func kernel of the enclosing gpu.module}}
  approx.variant_knob @v default(0) dispatch {k = [@a, @missing]}
  gpu.func @a() kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op tables is empty: give at least one table}}
  approx.resource_knob @t default(0) texture_2d filter(linear) address(clamp) tables([])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op table #0 has type 'tensor<2x4xf32>'; expected tensor<H x W x C x f32>}}
  approx.resource_knob @t default(0) texture_2d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x4xf32>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op table #0 has type 'tensor<1x2x4xf64>'; expected tensor<H x W x C x f32>}}
  approx.resource_knob @t default(0) texture_2d filter(linear) address(clamp) tables([dense<1.0> : tensor<1x2x4xf64>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op table #1 has 3 channels; a texel holds 1, 2 or 4}}
  approx.resource_knob @t default(0) texture_2d filter(linear) address(clamp) tables([dense<1.0> : tensor<1x2x4xf32>, dense<1.0> : tensor<1x2x3xf32>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op table #0 is 1 x 65537 texels; each side must be in [1, 65536]}}
  approx.resource_knob @t default(0) texture_2d filter(point) address(clamp) tables([dense<1.0> : tensor<1x65537x1xf32>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op table #0 has type 'tensor<2x8x4xf32>'; expected tensor<D x H x W x C x f32> for a texture_3d}}
  approx.resource_knob @t default(0) texture_3d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x8x4xf32>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op table #0 is 2 x 2 x 16385 texels; each side of a 3-D texture must be in [1, 16384]}}
  approx.resource_knob @t default(0) texture_3d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x2x16385x1xf32>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op table #0 has 3 channels; a texel holds 1, 2 or 4}}
  approx.resource_knob @t default(0) texture_3d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x2x2x3xf32>])
}

// -----

gpu.module @m {
  approx.resource_knob @t default(0) texture_3d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x2x2x4xf32>])
  gpu.func @two_coordinates_of_3d(%x: f32) kernel {
    %h = approx.resource_handle @t : i64
    // expected-error @+1 {{'approx.texture_fetch' op fetches 2 coordinates from knob @t, a texture_3d (give x, y, z)}}
    %v = approx.texture_fetch %h[%x, %x] : vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.resource_knob @t default(0) texture_2d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x2x4xf32>])
  gpu.func @three_coordinates_of_2d(%x: f32) kernel {
    %h = approx.resource_handle @t : i64
    // expected-error @+1 {{'approx.texture_fetch' op fetches 3 coordinates from knob @t, a texture_2d (give x, y)}}
    %v = approx.texture_fetch %h[%x, %x, %x] : vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op default(1) lies outside [0, 0]: there are 1 tables}}
  approx.resource_knob @t default(1) texture_2d filter(point) address(clamp) tables([dense<1.0> : tensor<1x1x1xf32>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op knob name 't-1' cannot be a PTX symbol: it contains '-'}}
  approx.resource_knob @"t-1" default(0) texture_2d filter(point) address(clamp) tables([dense<1.0> : tensor<1x1x1xf32>])
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  func.func @knob_value_unknown() -> i32 {
    // expected-error @+1 {{'approx.knob_value' op knob @lambda does not name an approx.knob in the enclosing gpu.module}}
    %0 = approx.knob_value @lambda : i32
    return %0 : i32
  }
}

// -----

gpu.module @m {
  approx.resource_knob @t default(0) texture_2d filter(point) address(clamp) tables([dense<1.0> : tensor<1x1x1xf32>])
  func.func @knob_value_of_resource() -> i32 {
    // expected-error @+1 {{'approx.knob_value' op knob @t names a 'approx.resource_knob', not an approx.knob}}
    %0 = approx.knob_value @t : i32
    return %0 : i32
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  func.func @handle_of_knob() -> i64 {
    // expected-error @+1 {{'approx.resource_handle' op knob @k names a 'approx.knob', not an approx.resource_knob}}
    %0 = approx.resource_handle @k : i64
    return %0 : i64
  }
}

// -----

gpu.module @m {
  func.func @bad_slot_type() {
    // expected-error @+1 {{'approx.warp_slot' op result #0 must be 32-bit signless integer, but got 'i64'}}
    %0 = "approx.warp_slot"() {kind = 0 : i32} : () -> i64
    return
  }
}

// -----

// expected-error @+1 {{'approx.sites' entry #1 is not an #approx.site: 42 : i64}}
gpu.module @m attributes {approx.sites = [#approx.site<technique = "sfu", function = "k", op = "exp", type = f32, form = tunable>, 42]} {
}

// -----

// expected-error @+1 {{'approx.sites' must be an array of #approx.site, got "sites"}}
gpu.module @m attributes {approx.sites = "sites"} {
}

// -----

// expected-error @+1 {{'approx.sites' belongs on a gpu.module}}
func.func @f() attributes {approx.sites = []} {
  return
}

// -----

// expected-error @+1 {{unknown approx attribute 'approx.slot'}}
gpu.module @m attributes {approx.slot = "hw"} {
}

// -----

gpu.module @m {
  // expected-error @+1 {{argument #0: 'approx.knob' must name a knob, got 1 : i32}}
  gpu.func @k(%l: i32 {approx.knob = 1 : i32}) kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{unknown approx argument attribute 'approx.nope'}}
  gpu.func @k(%l: i32 {approx.nope = @x}) kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{argument #0: 'approx.object' must be the memory object's name (a non-empty string), got 1 : i64}}
  gpu.func @k(%a: memref<?xf64> {approx.object = 1 : i64}) kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{argument #0: 'approx.object' must be the memory object's name (a non-empty string), got ""}}
  gpu.func @k(%a: memref<?xf64> {approx.object = ""}) kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.variant_knob' op dispatched name 'k' is also dispatched by 'w'}}
  approx.variant_knob @v default(0) dispatch {k = [@a, @b]}
  approx.variant_knob @w default(0) dispatch {k = [@a, @b]}
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() kernel { gpu.return }
}

// -----

gpu.module @m {
  approx.variant_knob @v default(0) dispatch {k = [@a, @b]}
  // expected-error @+1 {{'approx.variant_knob' op dispatched name 'a' is a variant of 'k': dispatch does not chain}}
  approx.variant_knob @w default(0) dispatch {a = [@b, @c]}
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() kernel { gpu.return }
  gpu.func @c() kernel { gpu.return }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.resource_knob' op address(wrap) needs normalized_coords: CUDA wraps and mirrors normalized coordinates only}}
  approx.resource_knob @t default(0) texture_2d filter(point) address(wrap) tables([dense<1.0> : tensor<1x1x1xf32>])
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.cfg' is "structured" or "blocks: <reason>" on a kernel function}}
  gpu.func @k() kernel attributes {approx.cfg = "maybe"} {
    gpu.return
  }
}

// -----

// expected-error @+1 {{'approx.cfg' is "structured" or "blocks: <reason>" on a kernel function}}
gpu.module @m attributes {approx.cfg = "structured"} {
}

// -----

gpu.module @m {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'texture_type' [texture_2d, texture_3d]}}
  approx.resource_knob @t default(0) texture_4d filter(linear) address(clamp) tables([dense<1.0> : tensor<2x2x4xf32>])
}
