// approx-lns-lower's errors, one per split.
// RUN: approx-opt %s -split-input-file -approx-lns-lower -verify-diagnostics

gpu.module @slot_clash {
  approx.knob @lambda range(0, 64) default(0) warp_slot(hw)
  gpu.func @k(%x: f32, %o: memref<1xf32>) kernel {
    // expected-error @+1 {{knob @lambda compares hw warp slots elsewhere, not virtual}}
    %s = approx.lns.sb %x impl(#approx.lns_impl<split, knob = @lambda, slot = virtual>) : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

gpu.module @unexpanded {
  func.func @f(%a: !approx.lns) -> !approx.lns {
    // expected-error @+1 {{holds an !approx.lns value: run approx-lns-expand first}}
    %b = approx.lns.mul %a, %a
    return %b : !approx.lns
  }
}

// -----

gpu.module @unreachable_bound {
  gpu.func @k(%x: f32, %o: memref<1xf32>) kernel {
    // expected-error @+1 {{no segment count up to 1024 per unit meets max_error = 1.000000e-09 for horner on any f32 (give input_bits if the inputs have fewer fractional bits)}}
    %s = approx.lns.sb %x impl(#approx.lns_impl<horner, max_error = 1.0e-9 : f64>) : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

gpu.module @texture3_unreachable_bound {
  gpu.func @k(%x: f32, %o: memref<1xf32>) kernel {
    // expected-error @+1 {{no segment count up to 256 per unit meets max_error = 1.000000e-09 for texture3 on any f32 (give input_bits if the inputs have fewer fractional bits)}}
    %s = approx.lns.sb %x impl(#approx.lns_impl<texture3, max_error = 1.0e-9 : f64>) : f32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xf32>
    gpu.return
  }
}
