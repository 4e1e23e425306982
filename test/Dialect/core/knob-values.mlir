// Typed knob values (manifest v3 domains): a knob or variant knob lists one
// value attribute per value, each a KnobValueAttrInterface (a perforation
// scheme, a block shape, an LNS impl, a storage type or storage config).
// Round trip.
// RUN: approx-opt %s | approx-opt | FileCheck %s

// CHECK-LABEL: gpu.module @schemes
gpu.module @schemes {
  // CHECK: approx.knob @perforation range(0, 2) default(0) values([#approx.perforation<accurate>, #approx.perforation<rows>, #approx.perforation<stencil, recon = linear>])
  approx.knob @perforation range(0, 2) default(0)
      values([#approx.perforation<accurate>, #approx.perforation<rows>,
              #approx.perforation<stencil, recon = linear>])
  // CHECK: approx.knob @lambda range(0, 64) default(0){{$}}
  approx.knob @lambda range(0, 64) default(0)
}

// CHECK-LABEL: gpu.module @blocks
gpu.module @blocks {
  // CHECK: approx.variant_knob @blk default(1) dispatch {k = [@k1, @k2]} values([#approx.block_shape<x = 32, y = 8>, #approx.block_shape<x = 16, y = 16, rows = 4>])
  approx.variant_knob @blk default(1) dispatch {k = [@k1, @k2]}
      values([#approx.block_shape<x = 32, y = 8>,
              #approx.block_shape<x = 16, y = 16, rows = 4>])
  gpu.func @k1() kernel { gpu.return }
  gpu.func @k2() kernel { gpu.return }
}

// CHECK-LABEL: gpu.module @impls
gpu.module @impls {
  // CHECK: values([#approx.lns_impl<precise>, #approx.lns_impl<horner, segments = 4, degree = 3>])
  approx.variant_knob @lns_impl default(0) dispatch {k = [@k1, @k2]}
      values([#approx.lns_impl<precise>,
              #approx.lns_impl<horner, segments = 4, degree = 3>])
  gpu.func @k1() kernel { gpu.return }
  gpu.func @k2() kernel { gpu.return }
}

// CHECK-LABEL: gpu.module @storage
gpu.module @storage {
  // CHECK: values([#approx.storage_config<args = [0, 2], types = [f64, f64]>, #approx.storage_config<args = [0, 2], types = [f32, bf16]>])
  approx.variant_knob @precision default(0) dispatch {k = [@k1, @k2]}
      values([#approx.storage_config<args = [0, 2], types = [f64, f64]>,
              #approx.storage_config<args = [0, 2], types = [f32, bf16]>])
  // CHECK: values([#approx.storage<f64>, #approx.storage<f16>])
  approx.knob @one range(0, 1) default(0)
      values([#approx.storage<f64>, #approx.storage<f16>])
  gpu.func @k1() kernel { gpu.return }
  gpu.func @k2() kernel { gpu.return }
}
