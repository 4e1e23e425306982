// Every verifier error of the lns op family, one case per split.
// RUN: approx-opt %s -split-input-file -verify-diagnostics

func.func @not_lns(%x: f32) {
  // expected-error @+1 {{'approx.lns.mul' op operand #0 must be a real number in the logarithmic number system, but got 'f32'}}
  %0 = "approx.lns.mul"(%x, %x) : (f32, f32) -> !approx.lns
  return
}

// -----

func.func @sb_of_lns(%x: !approx.lns) {
  // expected-error @+1 {{'approx.lns.sb' op operand #0 must be 32-bit float, but got '!approx.lns'}}
  %0 = "approx.lns.sb"(%x) {impl = #approx.lns_impl<sfu>} : (!approx.lns) -> f32
  return
}

// -----

func.func @segments_not_power_of_two(%x: f32) {
  // expected-error @+1 {{segments = 48 is not a power of two}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture2, segments = 48>) : f32
  return
}

// -----

func.func @segments_too_many(%x: f32) {
  // expected-error @+1 {{segments = 2048 needs a texture 131072 texels wide; at most 1024 segments per unit fit the 65536-texel limit}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture2, segments = 2048>) : f32
  return
}

// -----

func.func @texture3_segments_too_many(%x: f32) {
  // expected-error @+1 {{segments = 512 needs a 3-D texture 32768 texels wide; texture3 fits at most 256 segments per unit in CUDA's 16384-texel limit of a 3-D texture}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture3, segments = 512>) : f32
  return
}

// -----

func.func @texture3_segments_far_too_many(%x: f32) {
  // The 3-D limit is named even beyond the 2-D one.
  // expected-error @+1 {{segments = 2048 needs a 3-D texture 131072 texels wide; texture3 fits at most 256 segments per unit}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture3, segments = 2048>) : f32
  return
}

// -----

func.func @texture3_input_bits(%x: f32) {
  // expected-error @+1 {{input_bits = 17 derives 512 segments per unit; texture3 fits at most 256 (input_bits <= 16) in CUDA's 16384-texel limit of a 3-D texture: give segments or max_error}}
  %0 = approx.lns.db %x impl(#approx.lns_impl<texture3, input_bits = 17>) : f32
  return
}

// -----

func.func @segments_zero(%x: f32) {
  // expected-error @+1 {{segments = -4 is not a power of two}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture1, segments = -4>) : f32
  return
}

// -----

func.func @degree(%x: f32) {
  // expected-error @+1 {{degree = 6 is outside horner's range [1, 5]}}
  %0 = approx.lns.db %x impl(#approx.lns_impl<horner, degree = 6>) : f32
  return
}

// -----

func.func @split_without_knob(%x: f32) {
  // expected-error @+1 {{split needs a knob}}
  %0 = approx.lns.db %x impl(#approx.lns_impl<split>) : f32
  return
}

// -----

func.func @knob_without_split(%x: f32) {
  // expected-error @+1 {{texture2 takes no knob; only split does}}
  %0 = approx.lns.db %x impl(#approx.lns_impl<texture2, knob = @k>) : f32
  return
}

// -----

gpu.module @m {
  gpu.func @unknown_knob(%a: !approx.lns) {
    // expected-error @+1 {{'approx.lns.add' op knob @lambda does not name an approx.knob in the enclosing gpu.module}}
    %0 = approx.lns.add %a, %a impl(#approx.lns_impl<split, knob = @lambda>)
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.resource_knob @lambda default(0) texture_2d filter(linear) address(clamp) tables([dense<0.0> : tensor<1x1x4xf32>])
  gpu.func @wrong_knob_kind(%x: f32) {
    // expected-error @+1 {{'approx.lns.sb' op knob @lambda names a 'approx.resource_knob', not an approx.knob}}
    %0 = approx.lns.sb %x impl(#approx.lns_impl<split, knob = @lambda>) : f32
    gpu.return
  }
}

// -----

func.func @unknown_kind(%x: f32) {
  // expected-error @+2 {{expected ::mlir::approx::LnsImplKind to be one of: precise, sfu, horner, texture1, texture2, split, texture3}}
  // expected-error @+1 {{failed to parse Approx_LnsImplAttr parameter 'kind'}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<order3>) : f32
  return
}

// -----

func.func @input_bits_range(%x: f32) {
  // expected-error @+1 {{input_bits = 20 is outside [8, 18] (2^(input_bits - 8) segments per unit, at most 1024)}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture2, input_bits = 20>) : f32
  return
}

// -----

func.func @max_error_not_positive(%x: f32) {
  // expected-error @+1 {{max_error = 0.000000e+00 is not a positive error bound}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture2, max_error = 0.0 : f64>) : f32
  return
}

// -----

func.func @segments_and_max_error(%x: f32) {
  // expected-error @+1 {{segments and max_error both given: the segment count is either chosen or derived}}
  %0 = approx.lns.sb %x impl(#approx.lns_impl<texture2, segments = 16, max_error = 1.0e-6 : f64>) : f32
  return
}
