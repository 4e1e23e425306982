// approx-record-manifest: what a launcher needs, recorded before kernel
// signatures are lowered away.
// RUN: approx-opt %s -split-input-file --approx-record-manifest | FileCheck %s
// bare-ptr rejects the dynamic shapes of the other cases: run it on the case
// between BEGIN-BARE and END-BARE only.
// RUN: sed -n '/^\/\/ BEGIN-BARE/,/^\/\/ END-BARE/p' %s | approx-opt --approx-record-manifest=bare-ptr=true | FileCheck %s --check-prefix=BARE

// Memref descriptors expand to allocated, aligned, offset, sizes, strides;
// index is i64; scalars keep their type; a 0-d memref has no sizes/strides.
// CHECK-LABEL: module attributes {approx.manifest = {abi = {
// CHECK-SAME: gpu_module = "abi",
// CHECK-SAME: kernels = [{args = [
// CHECK-SAME: {access = "none", element = "f32", first_param = 0 : i64, kind = "memref", num_params = 7 : i64, rank = 2 : i64, shape = [-1, 4]},
// CHECK-SAME: {first_param = 7 : i64, kind = "scalar", num_params = 1 : i64, type = "i64"},
// CHECK-SAME: {first_param = 8 : i64, kind = "scalar", num_params = 1 : i64, type = "f32"},
// CHECK-SAME: {access = "none", element = "f64", first_param = 9 : i64, kind = "memref", num_params = 5 : i64, rank = 1 : i64, shape = [8]},
// CHECK-SAME: {first_param = 14 : i64, kind = "scalar", num_params = 1 : i64, type = "i32"},
// CHECK-SAME: {access = "none", element = "f32", first_param = 15 : i64, kind = "memref", num_params = 3 : i64, rank = 0 : i64, shape = []},
// CHECK-SAME: {first_param = 18 : i64, kind = "scalar", num_params = 1 : i64, type = "i1"},
// CHECK-SAME: {first_param = 19 : i64, kind = "scalar", num_params = 1 : i64, type = "i8"},
// CHECK-SAME: {first_param = 20 : i64, kind = "scalar", num_params = 1 : i64, type = "i16"},
// CHECK-SAME: {first_param = 21 : i64, kind = "scalar", num_params = 1 : i64, type = "f16"},
// CHECK-SAME: {first_param = 22 : i64, kind = "scalar", num_params = 1 : i64, type = "f64"},
// CHECK-SAME: {access = "none", element = "i64", first_param = 23 : i64, kind = "memref", num_params = 5 : i64, rank = 1 : i64, shape = [-1]}],
// CHECK-SAME: knobs = [], name = "abi",
// CHECK-SAME: params = [
// CHECK-SAME: {arg = 0 : i64, field = "allocated", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 0 : i64, field = "aligned", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 0 : i64, field = "offset", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 0 : i64, field = "size0", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 0 : i64, field = "size1", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 0 : i64, field = "stride0", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 0 : i64, field = "stride1", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 1 : i64, field = "value", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 2 : i64, field = "value", size = 4 : i64, type = "f32"},
// CHECK-SAME: {arg = 3 : i64, field = "allocated", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 3 : i64, field = "aligned", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 3 : i64, field = "offset", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 3 : i64, field = "size0", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 3 : i64, field = "stride0", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 4 : i64, field = "value", size = 4 : i64, type = "i32"},
// CHECK-SAME: {arg = 5 : i64, field = "allocated", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 5 : i64, field = "aligned", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 5 : i64, field = "offset", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 6 : i64, field = "value", size = 1 : i64, type = "i1"},
// CHECK-SAME: {arg = 7 : i64, field = "value", size = 1 : i64, type = "i8"},
// CHECK-SAME: {arg = 8 : i64, field = "value", size = 2 : i64, type = "i16"},
// CHECK-SAME: {arg = 9 : i64, field = "value", size = 2 : i64, type = "f16"},
// CHECK-SAME: {arg = 10 : i64, field = "value", size = 8 : i64, type = "f64"},
// CHECK-SAME: {arg = 11 : i64, field = "allocated", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 11 : i64, field = "aligned", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 11 : i64, field = "offset", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 11 : i64, field = "size0", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 11 : i64, field = "stride0", size = 8 : i64, type = "i64"}]}],
// CHECK-SAME: knobs = [], sites = [], slot = "none"}}
// CHECK-LABEL: gpu.func @abi
gpu.module @abi {
  gpu.func @abi(%a: memref<?x4xf32>, %n: index, %x: f32, %b: memref<8xf64>,
                %i: i32, %s: memref<f32>, %p: i1, %q: i8, %r: i16, %h: f16,
                %d: f64, %e: memref<?xindex>) kernel {
    gpu.return
  }
  // Not a kernel: not in the manifest.
  gpu.func @helper(%x: f32) {
    gpu.return
  }
}

// -----

// BEGIN-BARE
// bare-ptr: one aligned pointer per (static-shaped) memref.
// BARE-LABEL: module attributes {approx.manifest = {bare = {
// BARE-SAME: kernels = [{args = [
// BARE-SAME: {access = "none", element = "f32", first_param = 0 : i64, kind = "memref", num_params = 1 : i64, rank = 2 : i64, shape = [2, 4]},
// BARE-SAME: {first_param = 1 : i64, kind = "scalar", num_params = 1 : i64, type = "i64"},
// BARE-SAME: {access = "none", element = "f64", first_param = 2 : i64, kind = "memref", num_params = 1 : i64, rank = 1 : i64, shape = [8]}],
// BARE-SAME: params = [
// BARE-SAME: {arg = 0 : i64, field = "aligned", size = 8 : i64, type = "ptr"},
// BARE-SAME: {arg = 1 : i64, field = "value", size = 8 : i64, type = "i64"},
// BARE-SAME: {arg = 2 : i64, field = "aligned", size = 8 : i64, type = "ptr"}]}]
// BARE-NOT: "allocated"
// BARE-LABEL: gpu.func @bare
// CHECK-LABEL: module attributes {approx.manifest = {bare = {
// CHECK-SAME: num_params = 7 : i64
// CHECK-LABEL: gpu.func @bare
gpu.module @bare {
  gpu.func @bare(%a: memref<2x4xf32>, %n: index, %b: memref<8xf64>) kernel {
    gpu.return
  }
}
// END-BARE

// -----

// Knobs (symbol, type, range, default), the sites approx-warp-split recorded
// (types as strings), which knobs each kernel uses, and the slot source;
// one entry per gpu.module.
// CHECK-LABEL: module attributes {approx.manifest = {
// CHECK-SAME: first = {gpu_module = "first",
// CHECK-SAME: kernels = [{args = [{first_param = 0 : i64, kind = "scalar", num_params = 1 : i64, type = "f32"}],
// CHECK-SAME: knobs = ["lambda", "mu"], name = "k1",
// CHECK-SAME: {args = [], knobs = [], name = "k2", params = []}],
// CHECK-SAME: knobs = [
// CHECK-SAME: {default = 0 : i64, max = 64 : i64, min = 0 : i64, name = "lambda", symbol = "lambda", type = "i32"},
// CHECK-SAME: {default = 5 : i64, max = 32 : i64, min = 2 : i64, name = "mu", symbol = "mu", type = "i32"}],
// CHECK-SAME: sites = [
// CHECK-SAME: {demote_to_f32 = false, function = "k1", knob = "lambda", loc = "here", newton_steps = 0 : i64, op = "sin", range_reduction = false, sfu_form = true, type = "f32"},
// CHECK-SAME: {demote_to_f32 = true, function = "k1", knob = "mu", loc = "there", newton_steps = 0 : i64, op = "exp", range_reduction = false, sfu_form = true, type = "f64"}],
// CHECK-SAME: slot = "virtual"},
// CHECK-SAME: second = {gpu_module = "second", kernels = [{args = [], knobs = [], name = "k3", params = []}], knobs = [], sites = [], slot = "none"}}
// CHECK-LABEL: gpu.module @first
// CHECK-LABEL: gpu.module @second
gpu.module @first attributes {
  approx.slot = "virtual",
  approx.sites = [
    {demote_to_f32 = false, function = "k1", knob = "lambda", loc = "here", newton_steps = 0 : i64, op = "sin", range_reduction = false, sfu_form = true, type = f32},
    {demote_to_f32 = true, function = "k1", knob = "mu", loc = "there", newton_steps = 0 : i64, op = "exp", range_reduction = false, sfu_form = true, type = f64}]} {
  approx.knob @lambda range(0, 64) default(0)
  approx.knob @mu range(2, 32) default(5)
  gpu.func @k1(%x: f32) kernel {
    gpu.return
  }
  gpu.func @k2() kernel {
    gpu.return
  }
}
gpu.module @second {
  gpu.func @k3() kernel {
    gpu.return
  }
}

// -----

// End to end with approx-warp-split: its sites and slot reach the manifest.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=software}),approx-record-manifest)' | FileCheck %s --check-prefix=E2E
// E2E-LABEL: module attributes {approx.manifest = {e2e = {
// E2E-SAME: knobs = ["lambda"], name = "e2e"
// E2E-SAME: sites = [{demote_to_f32 = false, function = "e2e", knob = "lambda", loc = "{{.*}}record-manifest.mlir:[[@LINE+12]]:10", newton_steps = 1 : i64, op = "rcp", range_reduction = false, sfu_form = true, type = "f64"}]
// E2E-SAME: slot = "software"
// E2E-LABEL: gpu.func @e2e
// E2E: approx.warp_slot software
// Without approx-warp-split there are no sites and no slot.
// CHECK-LABEL: module attributes {approx.manifest = {e2e = {
// CHECK-SAME: knobs = [], name = "e2e"
// CHECK-SAME: sites = [], slot = "none"
// CHECK-LABEL: gpu.func @e2e
gpu.module @e2e {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @e2e(%x: f64) kernel {
    %r = approx.rcp %x knob(@lambda) {newton_steps = 1 : i32} : f64
    gpu.return
  }
}

// -----

// Memref access: loads read, stores write, both (or an atomic) read-write,
// through views; an op with no declared effects (a call) counts as both.
// CHECK-LABEL: module attributes {approx.manifest = {access = {
// CHECK-SAME: kernels = [{args = [
// CHECK-SAME: {access = "read", element = "f32"
// CHECK-SAME: {access = "write", element = "f32"
// CHECK-SAME: {access = "readwrite", element = "f32"
// CHECK-SAME: {access = "write", element = "f32"
// CHECK-SAME: {access = "readwrite", element = "i32"
// CHECK-SAME: {access = "readwrite", element = "f32"
// CHECK-SAME: {access = "none", element = "f32"
gpu.module @access {
  func.func private @opaque(memref<?xf32>)
  gpu.func @access(%in: memref<?xf32>, %out: memref<?xf32>,
                   %both: memref<?xf32>, %viewed: memref<?x4xf32>,
                   %atomic: memref<?xi32>, %called: memref<?xf32>,
                   %unused: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = memref.load %in[%c0] : memref<?xf32>
    memref.store %x, %out[%c0] : memref<?xf32>
    %y = memref.load %both[%c0] : memref<?xf32>
    memref.store %y, %both[%c1] : memref<?xf32>
    %sub = memref.subview %viewed[0, 0] [1, 4] [1, 1] : memref<?x4xf32> to memref<4xf32, strided<[1]>>
    memref.store %x, %sub[%c0] : memref<4xf32, strided<[1]>>
    %i = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %i, %atomic[%c0] : (i32, memref<?xi32>) -> i32
    func.call @opaque(%called) : (memref<?xf32>) -> ()
    %n = memref.dim %unused, %c0 : memref<?xf32>
    gpu.return
  }
}
