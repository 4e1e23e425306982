// approx-record-manifest: what a launcher needs (manifest v2), recorded
// before kernel signatures are lowered away. Dictionaries print with sorted
// keys.
// RUN: approx-opt %s -split-input-file --approx-record-manifest | FileCheck %s
// bare-ptr rejects the dynamic shapes of the other cases: run it on the case
// between BEGIN-BARE and END-BARE only.
// RUN: sed -n '/^\/\/ BEGIN-BARE/,/^\/\/ END-BARE/p' %s | approx-opt --approx-record-manifest=bare-ptr=true | FileCheck %s --check-prefix=BARE

// Memref descriptors expand to allocated, aligned, offset, sizes, strides;
// index scalars are "index" (an i64 parameter); scalars of every width,
// bf16, vectors (by value and as memref elements), !llvm.ptr, 0-d memrefs and
// strided layouts.
// CHECK-LABEL: module attributes {approx.manifest = {abi = {
// CHECK-SAME: gpu_module = "abi",
// CHECK-SAME: kernels = [{args = [
// CHECK-SAME: {abi = "descriptor", access = "none", element = "f32", first_param = 0 : i64, kind = "memref", num_params = 7 : i64, rank = 2 : i64, shape = [-1, 4]},
// CHECK-SAME: {first_param = 7 : i64, kind = "scalar", num_params = 1 : i64, type = "index"},
// CHECK-SAME: {first_param = 8 : i64, kind = "scalar", num_params = 1 : i64, type = "f32"},
// CHECK-SAME: {abi = "descriptor", access = "none", element = "f64", first_param = 9 : i64, kind = "memref", num_params = 5 : i64, rank = 1 : i64, shape = [8]},
// CHECK-SAME: {first_param = 14 : i64, kind = "scalar", num_params = 1 : i64, type = "i32"},
// CHECK-SAME: {abi = "descriptor", access = "none", element = "f32", first_param = 15 : i64, kind = "memref", num_params = 3 : i64, rank = 0 : i64, shape = []},
// CHECK-SAME: {first_param = 18 : i64, kind = "scalar", num_params = 1 : i64, type = "i1"},
// CHECK-SAME: {first_param = 19 : i64, kind = "scalar", num_params = 1 : i64, type = "i8"},
// CHECK-SAME: {first_param = 20 : i64, kind = "scalar", num_params = 1 : i64, type = "i16"},
// CHECK-SAME: {first_param = 21 : i64, kind = "scalar", num_params = 1 : i64, type = "f16"},
// CHECK-SAME: {first_param = 22 : i64, kind = "scalar", num_params = 1 : i64, type = "bf16"},
// CHECK-SAME: {first_param = 23 : i64, kind = "scalar", num_params = 1 : i64, type = "vector<4xf32>"},
// CHECK-SAME: {address_space = 1 : i64, first_param = 24 : i64, kind = "pointer", num_params = 1 : i64},
// CHECK-SAME: {abi = "descriptor", access = "none", element = "vector<2xf16>", first_param = 25 : i64, kind = "memref", num_params = 5 : i64, rank = 1 : i64, shape = [-1]},
// CHECK-SAME: {abi = "descriptor", access = "none", element = "bf16", first_param = 30 : i64, kind = "memref", num_params = 5 : i64, offset = -1 : i64, rank = 1 : i64, shape = [-1], strides = [2]}],
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
// CHECK-SAME: {arg = 5 : i64, field = "offset", size = 8 : i64, type = "i64"},
// CHECK-SAME: {arg = 6 : i64, field = "value", size = 1 : i64, type = "i1"},
// CHECK-SAME: {arg = 7 : i64, field = "value", size = 1 : i64, type = "i8"},
// CHECK-SAME: {arg = 8 : i64, field = "value", size = 2 : i64, type = "i16"},
// CHECK-SAME: {arg = 9 : i64, field = "value", size = 2 : i64, type = "f16"},
// CHECK-SAME: {arg = 10 : i64, field = "value", size = 2 : i64, type = "bf16"},
// CHECK-SAME: {arg = 11 : i64, field = "value", size = 16 : i64, type = "vector<4xf32>"},
// CHECK-SAME: {arg = 12 : i64, field = "value", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 13 : i64, field = "allocated", size = 8 : i64, type = "ptr"},
// CHECK-SAME: {arg = 14 : i64, field = "stride0", size = 8 : i64, type = "i64"}]
// CHECK-SAME: sites = []}]
// CHECK-SAME: knobs = [], sites = []}}
// CHECK-LABEL: gpu.func @abi
gpu.module @abi {
  gpu.func @abi(%a: memref<?x4xf32>, %n: index, %x: f32, %b: memref<8xf64>,
                %i: i32, %s: memref<f32>, %p: i1, %q: i8, %r: i16, %h: f16,
                %bf: bf16, %v: vector<4xf32>, %ptr: !llvm.ptr<1>,
                %vm: memref<?xvector<2xf16>>,
                %st: memref<?xbf16, strided<[2], offset: ?>>) kernel {
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
// BARE-SAME: {abi = "bare", access = "none", element = "f32", first_param = 0 : i64, kind = "memref", num_params = 1 : i64, rank = 2 : i64, shape = [2, 4]},
// BARE-SAME: {first_param = 1 : i64, kind = "scalar", num_params = 1 : i64, type = "index"},
// BARE-SAME: {abi = "bare", access = "none", element = "f64", first_param = 2 : i64, kind = "memref", num_params = 1 : i64, rank = 1 : i64, shape = [8]}],
// BARE-SAME: params = [
// BARE-SAME: {arg = 0 : i64, field = "aligned", size = 8 : i64, type = "ptr"},
// BARE-SAME: {arg = 1 : i64, field = "value", size = 8 : i64, type = "i64"},
// BARE-SAME: {arg = 2 : i64, field = "aligned", size = 8 : i64, type = "ptr"}]
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

// Knobs of every kind; the sites the techniques recorded with the kernels
// that reach them; each kernel's knobs and sites through its call graph (a
// helper called at the top level of k1 reads @mu), and the variant knob that
// dispatches to it.
// CHECK-LABEL: module attributes {approx.manifest = {
// CHECK-SAME: first = {gpu_module = "first",
// CHECK-SAME: kernels = [{args = [{first_param = 0 : i64, kind = "scalar", num_params = 1 : i64, type = "f32"}],
// CHECK-SAME: knobs = ["lambda", "mu"], name = "k1", params = [{arg = 0 : i64, field = "value", size = 4 : i64, type = "f32"}], sites = [0, 1]},
// CHECK-SAME: {args = [], knobs = ["precision"], name = "k2", params = [], sites = []},
// CHECK-SAME: {args = [], knobs = ["table", "precision"], name = "k3", params = [], sites = []}],
// CHECK-SAME: knobs = [
// CHECK-SAME: {default = 0 : i64, domain = {kind = "ordinal"}, governs = {kernels = ["k1"], sites = [0]}, kind = "global", max = 64 : i64, min = 0 : i64, name = "lambda", path = "global", symbol = "lambda", technique = "sfu", type = "i32", warp_slot = "virtual"},
// CHECK-SAME: {default = 5 : i64, domain = {kind = "ordinal"}, governs = {kernels = ["k1"], sites = [1]}, kind = "global", max = 32 : i64, min = 2 : i64, name = "mu", path = "global", symbol = "mu", technique = "sfu", type = "i32"},
// CHECK-SAME: {default = 1 : i64, dispatch = [{kernel = "k", variants = ["k2", "k3"]}], domain = {kind = "categorical", values = [{id = "0"}, {id = "1"}]}, governs = {kernels = ["k2", "k3"], sites = []}, kind = "variant", max = 1 : i64, min = 0 : i64, name = "precision"},
// CHECK-SAME: {default = 0 : i64, domain = {kind = "categorical", values = [{id = "table0", payload = {channels = 2 : i64, height = 1 : i64, type = "texture_table", width = 2 : i64}}]}, governs = {kernels = ["k3"], sites = []}, kind = "resource", max = 0 : i64, min = 0 : i64, name = "table", path = "global", resource = {address = "clamp", filter = "linear", normalized_coords = false, options = [{channels = 2 : i64, data = "AACAPwAAAEAAAEBAAACAQA==", element = "f32", height = 1 : i64, width = 2 : i64}], type = "texture_2d"}, symbol = "table", technique = "lns", type = "i64"}],
// CHECK-SAME: sites = [
// CHECK-SAME: {data = {versioning = "region"}, form = "tunable", function = "k1", kernels = ["k1"], knob = "lambda", loc = "here", op = "sin", technique = "sfu", type = "f32"},
// CHECK-SAME: {form = "precise", function = "helper", kernels = ["k1"], knob = "mu", loc = "there", op = "exp", reason = "because", technique = "sfu", type = "vector<2xf64>"}]},
// CHECK-SAME: second = {gpu_module = "second", kernels = [{args = [], knobs = [], name = "k4", params = [], sites = []}], knobs = [], sites = []}}
// CHECK-LABEL: gpu.module @first
// CHECK-LABEL: gpu.module @second
gpu.module @first attributes {
  approx.sites = [
    #approx.site<technique = "sfu", function = "k1", op = "sin", type = f32, knob = @lambda, form = tunable, loc = "here", data = {versioning = "region"}>,
    #approx.site<technique = "sfu", function = "helper", op = "exp", type = vector<2xf64>, knob = @mu, form = precise, reason = "because", loc = "there">]} {
  approx.knob @lambda range(0, 64) default(0) warp_slot(virtual)
  approx.knob @mu range(2, 32) default(5)
  approx.variant_knob @precision default(1) dispatch {k = [@k2, @k3]}
  approx.resource_knob @table default(0) texture_2d filter(linear) address(clamp) tables([dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>])
  func.func @helper() -> i32 {
    %m = approx.knob_value @mu : i32
    return %m : i32
  }
  gpu.func @k1(%x: f32) kernel {
    %m = func.call @helper() : () -> i32
    %l = approx.knob_value @lambda : i32
    gpu.return
  }
  gpu.func @k2() kernel {
    gpu.return
  }
  gpu.func @k3() kernel {
    %t = approx.resource_handle @table : i64
    gpu.return
  }
}
gpu.module @second {
  gpu.func @k4() kernel {
    gpu.return
  }
}

// -----

// End to end with approx-warp-split: its sites and slot reach the manifest.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-warp-split{slot=software}),approx-record-manifest)' | FileCheck %s --check-prefix=E2E
// E2E-LABEL: module attributes {approx.manifest = {e2e = {
// E2E-SAME: knobs = ["lambda"], name = "e2e"
// E2E-SAME: knobs = [{default = 0 : i64, domain = {kind = "ordinal"}, governs = {kernels = ["e2e"], sites = [0]}, kind = "global", max = 64 : i64, min = 0 : i64, name = "lambda", path = "global", symbol = "lambda", technique = "sfu", type = "i32", warp_slot = "software"}]
// E2E-SAME: sites = [{data = {demote_to_f32 = false, newton_steps = 1 : i64, range_reduction = false, sfu = "rcp.approx.ftz.f64 + 1 Newton step(s)", versioning = "region"}, form = "tunable", function = "e2e", kernels = ["e2e"], knob = "lambda", loc = "{{.*}}record-manifest.mlir:[[@LINE+11]]:10", op = "rcp", technique = "sfu", type = "f64"}]
// E2E-LABEL: gpu.func @e2e
// E2E: approx.warp_slot software
// Without approx-warp-split the op is still tunable (its knob counts) but
// there are no sites.
// CHECK-LABEL: module attributes {approx.manifest = {e2e = {
// CHECK-SAME: knobs = ["lambda"], name = "e2e"
// CHECK-SAME: sites = []}}
gpu.module @e2e {
  approx.knob @lambda range(0, 64) default(0)
  gpu.func @e2e(%x: f64) kernel {
    %r = approx.rcp %x knob(@lambda) {newton_steps = 1 : i32} : f64
    gpu.return
  }
}

// -----

// Memref access: loads read, stores write, both (or an atomic) read-write,
// through views, selects, scf.if results and loop-carried values; an op with
// no declared effects (a call) or a pointer taken from the memref counts as
// both.
// CHECK-LABEL: module attributes {approx.manifest = {access = {
// CHECK-SAME: kernels = [{args = [
// CHECK-SAME: {abi = "descriptor", access = "read", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "write", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "readwrite", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "write", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "readwrite", element = "i32"
// CHECK-SAME: {abi = "descriptor", access = "readwrite", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "none", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "write", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "write", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "write", element = "f32"
// CHECK-SAME: {abi = "descriptor", access = "readwrite", element = "f32"
gpu.module @access {
  func.func private @opaque(memref<?xf32>)
  gpu.func @access(%in: memref<?xf32>, %out: memref<?xf32>,
                   %both: memref<?xf32>, %viewed: memref<?x4xf32>,
                   %atomic: memref<?xi32>, %called: memref<?xf32>,
                   %unused: memref<?xf32>, %sel: memref<?xf32>,
                   %chosen: memref<?xf32>, %carried: memref<?xf32>,
                   %escaped: memref<?xf32>, %c: i1, %n: index) kernel {
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
    %d = memref.dim %unused, %c0 : memref<?xf32>
    %s = arith.select %c, %sel, %out : memref<?xf32>
    memref.store %x, %s[%c0] : memref<?xf32>
    %r = scf.if %c -> (memref<?xf32>) {
      scf.yield %chosen : memref<?xf32>
    } else {
      scf.yield %out : memref<?xf32>
    }
    memref.store %x, %r[%c0] : memref<?xf32>
    %last = scf.for %k = %c0 to %n step %c1 iter_args(%m = %carried) -> (memref<?xf32>) {
      memref.store %x, %m[%k] : memref<?xf32>
      scf.yield %m : memref<?xf32>
    }
    %p = memref.extract_aligned_pointer_as_index %escaped : memref<?xf32> -> index
    gpu.return
  }
}

// -----

// Knob parameters (approx-knobs-to-params) trail the arguments.
// CHECK-LABEL: module attributes {approx.manifest = {params = {
// CHECK-SAME: name = "k",
// CHECK-SAME: params = [{arg = 0 : i64, field = "value", size = 4 : i64, type = "f32"},
// CHECK-SAME: {field = "knob", knob = "lambda", size = 4 : i64, type = "i32"},
// CHECK-SAME: {field = "knob", knob = "table", size = 8 : i64, type = "i64"}]
// CHECK-SAME: path = "param"
gpu.module @params {
  approx.knob @lambda range(0, 64) default(0) param_path
  approx.resource_knob @table default(0) texture_2d filter(point) address(clamp) tables([dense<1.0> : tensor<1x1x1xf32>]) param_path
  gpu.func @k(%x: f32, %l: i32 {approx.knob = @lambda}, %t: i64 {approx.knob = @table}) kernel {
    gpu.return
  }
}

// -----

// A texture_3d resource knob: each table gets its depth next to width,
// height and channels; the data are W x H x D x C little-endian f32, x
// fastest, then y, then z (1.0 .. 8.0 here: AACAPw.. is 1.0).
// CHECK-LABEL: module attributes {approx.manifest = {volume = {
// CHECK-SAME: kind = "resource"
// CHECK-SAME: resource = {address = "clamp", filter = "linear", normalized_coords = false, options = [{channels = 1 : i64, data = "AACAPwAAAEAAAEBAAACAQAAAoEAAAMBAAADgQAAAAEE=", depth = 2 : i64, element = "f32", height = 2 : i64, width = 2 : i64}], type = "texture_3d"}
gpu.module @volume {
  approx.resource_knob @vol default(0) texture_3d filter(linear) address(clamp) tables([dense<[[[[1.0], [2.0]], [[3.0], [4.0]]], [[[5.0], [6.0]], [[7.0], [8.0]]]]> : tensor<2x2x2x1xf32>])
  gpu.func @k(%x: f32) kernel {
    %h = approx.resource_handle @vol : i64
    %v = approx.texture_fetch %h[%x, %x, %x] : vector<4xf32>
    gpu.return
  }
}

// -----

// A site in a function no kernel reaches (a helper's copy left after
// inlining) is not recorded: the manifest's sites are code that runs.
// CHECK-LABEL: module attributes {approx.manifest = {orphans = {
// CHECK-SAME: kernels = [{args = [], knobs = [], name = "k", params = [], sites = [0]}]
// CHECK-SAME: sites = [{form = "precise", function = "k", kernels = ["k"], loc = "kept", op = "exp", technique = "sfu", type = "f32"}]}}
gpu.module @orphans attributes {
  approx.sites = [
    #approx.site<technique = "sfu", function = "unused_copy", op = "sin", type = f32, form = precise, loc = "dropped">,
    #approx.site<technique = "sfu", function = "k", op = "exp", type = f32, form = precise, loc = "kept">]} {
  func.func @unused_copy() {
    return
  }
  gpu.func @k() kernel {
    gpu.return
  }
}
