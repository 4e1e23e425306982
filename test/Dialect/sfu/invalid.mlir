// Every verifier error of the approx dialect, one case per split.
// RUN: approx-opt %s -split-input-file -verify-diagnostics

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @f16_operand(%x: f16) {
    // expected-error @+1 {{'approx.sin' op operand type 'f16' is not supported: approx functions take f32 or f64}}
    %0 = approx.sin %x knob(@k) : f16
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @bf16_operand(%x: bf16, %y: bf16) {
    // expected-error @+1 {{'approx.div' op operand type 'bf16' is not supported: approx functions take f32 or f64}}
    %0 = approx.div %x, %y knob(@k) : bf16
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @vector_operand(%x: vector<4xf32>) {
    // expected-error @+1 {{'approx.exp' op operand #0 must be floating-point, but got 'vector<4xf32>'}}
    %0 = "approx.exp"(%x) {knob = @k} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @vector_operand_custom(%x: vector<4xf32>) {
    // expected-error @+1 {{custom op 'approx.exp' invalid kind of type specified}}
    %0 = approx.exp %x knob(@k) : vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @integer_operand(%x: i32) {
    // expected-error @+1 {{'approx.sqrt' op operand #0 must be floating-point, but got 'i32'}}
    %0 = "approx.sqrt"(%x) {knob = @k} : (i32) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @mixed_types(%x: f32, %y: f64) {
    // expected-error @+1 {{'approx.pow' op requires the same type for all operands and results}}
    %0 = "approx.pow"(%x, %y) {knob = @k} : (f32, f64) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @missing_knob(%x: f32) {
    // expected-error @+1 {{'approx.rcp' op requires attribute 'knob'}}
    %0 = "approx.rcp"(%x) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @unknown_knob(%x: f32) {
    // expected-error @+1 {{'approx.cos' op knob @nope does not name an approx.knob in the enclosing gpu.module}}
    %0 = approx.cos %x knob(@nope) : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @helper() {
    gpu.return
  }
  gpu.func @knob_names_function(%x: f32) {
    // expected-error @+1 {{'approx.log' op knob @helper names a 'gpu.func', not an approx.knob}}
    %0 = approx.log %x knob(@helper) : f32
    gpu.return
  }
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
  func.func @not_a_knob() {
    return
  }
  func.func @knob_value_non_knob() -> i32 {
    // expected-error @+1 {{'approx.knob_value' op knob @not_a_knob names a 'func.func', not an approx.knob}}
    %0 = approx.knob_value @not_a_knob : i32
    return %0 : i32
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  func.func @knob_value_i64() -> i64 {
    // expected-error @+1 {{'approx.knob_value' op result #0 must be 32-bit signless integer, but got 'i64'}}
    %0 = approx.knob_value @k : i64
    return %0 : i64
  }
}

// -----

// A knob in another gpu.module is not visible.
gpu.module @other {
  approx.knob @k range(0, 64) default(0)
}
gpu.module @m {
  gpu.func @knob_in_other_module(%x: f32) {
    // expected-error @+1 {{'approx.sin' op knob @k does not name an approx.knob in the enclosing gpu.module}}
    %0 = approx.sin %x knob(@k) : f32
    gpu.return
  }
}

// -----

// expected-error @+1 {{'approx.knob' op expects parent op 'gpu.module'}}
approx.knob @top range(0, 64) default(0)

// -----

gpu.module @m {
  func.func @knob_in_function() {
    // expected-error @+1 {{'approx.knob' op expects parent op 'gpu.module'}}
    approx.knob @k range(0, 64) default(0)
    return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(64, 0) is inverted}}
  approx.knob @k range(64, 0) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(8, 8) is empty: it holds one value, nothing to tune}}
  approx.knob @k range(8, 8) default(8)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(-1, 64) must lie within [0, 2147483647]: knobs are non-negative i32}}
  approx.knob @k range(-1, 64) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op range(0, 2147483648) must lie within [0, 2147483647]: knobs are non-negative i32}}
  approx.knob @k range(0, 2147483648) default(0)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op default(65) lies outside range(0, 64)}}
  approx.knob @k range(0, 64) default(65)
}

// -----

gpu.module @m {
  // expected-error @+1 {{'approx.knob' op default(1) lies outside range(2, 64)}}
  approx.knob @k range(2, 64) default(1)
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  // expected-error @+2 {{redefinition of symbol named 'k'}}
  // expected-note @-2 {{see existing symbol definition here}}
  approx.knob @k range(0, 32) default(0)
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @demote_f32(%x: f32) {
    // expected-error @+1 {{'approx.sin' op 'demote' applies to f64 operands only: f32 already has an SFU form}}
    %0 = approx.sin %x knob(@k) {demote} : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_f32(%x: f32) {
    // expected-error @+1 {{'approx.rcp' op 'newton_steps' applies to f64 operands only: f32 SFU forms are not refined}}
    %0 = approx.rcp %x knob(@k) {newton_steps = 1 : i32} : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_too_many(%x: f64) {
    // expected-error @+1 {{'approx.rsqrt' op 'newton_steps' must be in [0, 3], got 4}}
    %0 = approx.rsqrt %x knob(@k) {newton_steps = 4 : i32} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_negative(%x: f64, %y: f64) {
    // expected-error @+1 {{'approx.div' op 'newton_steps' must be in [0, 3], got -1}}
    %0 = approx.div %x, %y knob(@k) {newton_steps = -1 : i32} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_wrong_type(%x: f64) {
    // expected-error @+1 {{'approx.sqrt' op attribute 'newton_steps' failed to satisfy constraint: 32-bit signless integer attribute}}
    %0 = approx.sqrt %x knob(@k) {newton_steps = 1 : i64} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @range_reduction_f64(%x: f64) {
    // expected-error @+1 {{'approx.sin' op 'range_reduction' on f64 needs 'demote': f64 sin has no SFU form to reduce for}}
    %0 = approx.sin %x knob(@k) {range_reduction} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @sfu_f64_sin(%x: f64) {
    // expected-error @+1 {{'approx.sin' op pinned to form(sfu) but f64 sin has no SFU form; add 'demote' for the f32-demoted form}}
    %0 = approx.sin %x knob(@k) form(sfu) : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @sfu_f64_cos(%x: f64) {
    // expected-error @+1 {{'approx.cos' op pinned to form(sfu) but f64 cos has no SFU form; add 'demote' for the f32-demoted form}}
    %0 = approx.cos %x knob(@k) form(sfu) : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @sfu_f64_exp(%x: f64) {
    // expected-error @+1 {{'approx.exp' op pinned to form(sfu) but f64 exp has no SFU form; add 'demote' for the f32-demoted form}}
    %0 = approx.exp %x knob(@k) form(sfu) : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @sfu_f64_log(%x: f64) {
    // expected-error @+1 {{'approx.log' op pinned to form(sfu) but f64 log has no SFU form; add 'demote' for the f32-demoted form}}
    %0 = approx.log %x knob(@k) form(sfu) : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @sfu_f64_pow(%x: f64, %y: f64) {
    // expected-error @+1 {{'approx.pow' op pinned to form(sfu) but f64 pow has no SFU form; add 'demote' for the f32-demoted form}}
    %0 = approx.pow %x, %y knob(@k) form(sfu) : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @unknown_form(%x: f32) {
    // expected-error @+1 {{custom op 'approx.sin' expected string or keyword containing one of the following enum values for attribute 'form' [precise, sfu]}}
    %0 = approx.sin %x knob(@k) form(fast) : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @form_out_of_range(%x: f32) {
    // expected-error @+1 {{'approx.sin' op attribute 'form' failed to satisfy constraint: implementation of an approx op}}
    %0 = "approx.sin"(%x) {knob = @k, form = 7 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  func.func @unknown_slot() -> i32 {
    // expected-error @+1 {{custom op 'approx.warp_slot' expected string or keyword containing one of the following enum values for attribute 'kind' [hw, virtual, software]}}
    %0 = approx.warp_slot lane : i32
    return %0 : i32
  }
}

// -----

gpu.module @m {
  func.func @warp_slot_i64() -> i64 {
    // expected-error @+1 {{'approx.warp_slot' op result #0 must be 32-bit signless integer, but got 'i64'}}
    %0 = approx.warp_slot hw : i64
    return %0 : i64
  }
}

// -----

// Options of another family are not silently ignored.
gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_on_sin(%x: f64) {
    // expected-error @+1 {{'approx.sin' op 'newton_steps' applies to div, rcp, sqrt and rsqrt only}}
    %0 = approx.sin %x knob(@k) {demote, newton_steps = 1 : i32} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @range_reduction_on_exp(%x: f32) {
    // expected-error @+1 {{'approx.exp' op 'range_reduction' applies to sin and cos only}}
    %0 = approx.exp %x knob(@k) {range_reduction} : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @demote_on_div(%x: f64, %y: f64) {
    // expected-error @+1 {{'approx.div' op 'demote' applies to sin, cos, exp, log and pow only: f64 div has a native SFU form}}
    %0 = approx.div %x, %y knob(@k) {demote} : f64
    gpu.return
  }
}
