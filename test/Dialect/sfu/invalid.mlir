// Every verifier error of the SFU function ops, one case per split. The
// options' rules come from the function table (FunctionTable.h).
// RUN: approx-opt %s -split-input-file -verify-diagnostics

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @integer_operand(%x: i32) {
    // expected-error @+1 {{'approx.sqrt' op operand #0 must be f16, bf16, f32 or f64, or a fixed vector of them, but got 'i32'}}
    %0 = "approx.sqrt"(%x) {knob = @k} : (i32) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @f8_operand(%x: f8E4M3FN) {
    // expected-error @+1 {{'approx.exp' op operand #0 must be f16, bf16, f32 or f64, or a fixed vector of them, but got 'f8E4M3FN'}}
    %0 = "approx.exp"(%x) {knob = @k} : (f8E4M3FN) -> f8E4M3FN
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @scalable(%x: vector<[4]xf32>) {
    // expected-error @+1 {{'approx.exp' op operand #0 must be f16, bf16, f32 or f64, or a fixed vector of them, but got 'vector<[4]xf32>'}}
    %0 = "approx.exp"(%x) {knob = @k} : (vector<[4]xf32>) -> vector<[4]xf32>
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
  gpu.func @helper() { gpu.return }
  gpu.func @knob_not_a_knob(%x: f32) {
    // expected-error @+1 {{'approx.log' op knob @helper names a 'gpu.func', not an approx.knob}}
    %0 = approx.log %x knob(@helper) : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.variant_knob @v default(0) dispatch {k = [@a, @b]}
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() kernel { gpu.return }
  gpu.func @variant_as_knob(%x: f32) {
    // expected-error @+1 {{'approx.exp' op knob @v names a 'approx.variant_knob', not an approx.knob}}
    %0 = approx.exp %x knob(@v) : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_not_f64(%x: f32) {
    // expected-error @+1 {{'approx.rcp' op 'newton_steps' applies to f64 operands only: other SFU forms are not refined}}
    %0 = approx.rcp %x knob(@k) {newton_steps = 1 : i32} : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_wrong_function(%x: f64) {
    // expected-error @+1 {{'approx.sin' op 'newton_steps' applies to div, rcp, sqrt and rsqrt only}}
    %0 = approx.sin %x knob(@k) {newton_steps = 1 : i32} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_too_many(%x: f64) {
    // expected-error @+1 {{'approx.rsqrt' op attribute 'newton_steps' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
    %0 = approx.rsqrt %x knob(@k) {newton_steps = 4 : i32} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_negative(%x: f64, %y: f64) {
    // expected-error @+1 {{'approx.div' op attribute 'newton_steps' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
    %0 = approx.div %x, %y knob(@k) {newton_steps = -1 : i32} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @newton_not_i32(%x: f64) {
    // expected-error @+1 {{'approx.sqrt' op attribute 'newton_steps' failed to satisfy constraint: 32-bit signless integer attribute}}
    %0 = approx.sqrt %x knob(@k) {newton_steps = 1 : i64} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @range_reduction_wrong_function(%x: f32) {
    // expected-error @+1 {{'approx.exp' op 'range_reduction' applies to sin, cos and tan only}}
    %0 = approx.exp %x knob(@k) {range_reduction} : f32
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
  gpu.func @demote_native(%x: f64, %y: f64) {
    // expected-error @+1 {{'approx.div' op 'demote' applies to sin, cos, tan, exp, exp2, log, log2, log10, pow and tanh only: f64 div has a native SFU form}}
    %0 = approx.div %x, %y knob(@k) {demote} : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @demote_f32(%x: f32) {
    // expected-error @+1 {{'approx.sin' op 'demote' applies to f64 operands only: other types have an SFU form without it}}
    %0 = approx.sin %x knob(@k) {demote} : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @sfu_without_form(%x: f64) {
    // expected-error @+1 {{'approx.exp' op pinned to form(sfu) but f64 exp has no SFU form; pass f64-demote for the f32-demoted form}}
    %0 = approx.exp %x knob(@k) form(sfu) : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @sfu_without_form_vector(%x: vector<2xf64>) {
    // expected-error @+1 {{'approx.tanh' op pinned to form(sfu) but f64 tanh has no SFU form; pass f64-demote for the f32-demoted form}}
    %0 = approx.tanh %x knob(@k) form(sfu) : vector<2xf64>
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @bad_form(%x: f32) {
    // expected-error @+1 {{custom op 'approx.sin' expected string or keyword containing one of the following enum values for attribute 'form' [precise, sfu, correct]}}
    %0 = approx.sin %x knob(@k) form(fast) : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @bad_form_generic(%x: f32) {
    // expected-error @+1 {{'approx.sin' op attribute 'form' failed to satisfy constraint: implementation of an approx op}}
    %0 = "approx.sin"(%x) {knob = @k, form = 7 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

// form(correct): f32 exp, exp2, log and log2 only.
gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @correct_sin(%x: f32) {
    // expected-error @+1 {{'approx.sin' op pinned to form(correct) but no correctly rounded form for f32 sin: form(correct) covers f32 exp, exp2, log and log2}}
    %0 = approx.sin %x knob(@k) form(correct) : f32
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @correct_f64(%x: vector<2xf64>) {
    // expected-error @+1 {{'approx.log' op pinned to form(correct) but no correctly rounded form for f64 log: form(correct) covers f32 exp, exp2, log and log2}}
    %0 = approx.log %x knob(@k) form(correct) : vector<2xf64>
    gpu.return
  }
}

// -----

gpu.module @m {
  approx.knob @k range(0, 64) default(0)
  gpu.func @correct_f16(%x: f16) {
    // expected-error @+1 {{'approx.exp2' op pinned to form(correct) but no correctly rounded form for f16 exp2: form(correct) covers f32 exp, exp2, log and log2}}
    %0 = approx.exp2 %x knob(@k) form(correct) : f16
    gpu.return
  }
}
