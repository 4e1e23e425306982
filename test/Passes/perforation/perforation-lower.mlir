// approx-perforation-lower: tile loads become a fetch switch, a barrier, a
// rebuild switch and a barrier (both barriers outside the switches); output
// perforation computes once per group and stores the group.
// RUN: approx-opt %s --pass-pipeline='builtin.module(gpu.module(approx-perforation-lower,canonicalize))' | FileCheck %s

// CHECK: gpu.module @m attributes {approx.sites = [
// CHECK-SAME: #approx.site<technique = "perforation", function = "tile", op = "tile_load", type = f32, knob = @scheme, form = tunable, {{.*}} data = {halo = [1, 2], schemes = [{reconstruction = "nn", scheme = "accurate", skip = 1 : i64, type = "perforation_scheme"}, {reconstruction = "linear", scheme = "rows", skip = 2 : i64, type = "perforation_scheme"}, {reconstruction = "nn", scheme = "stencil", skip = 1 : i64, type = "perforation_scheme"}]}>
// CHECK-SAME: #approx.site<technique = "perforation", function = "line", op = "load_1d", type = f32, knob = @one, form = tunable, {{.*}} data = {schemes = [{reconstruction = "nn", scheme = "accurate", skip = 1 : i64, type = "perforation_scheme"}, {reconstruction = "linear", scheme = "rows", skip = 1 : i64, type = "perforation_scheme"}]}>
// CHECK-SAME: #approx.site<technique = "perforation", function = "paraprox", op = "output", type = f32, form = approximate, reason = "one scheme, pinned by the input IR", {{.*}} data = {schemes = [{reconstruction = "nn", scheme = "rows", skip = 2 : i64, type = "perforation_scheme"}]}>
gpu.module @m {
  approx.knob @scheme range(0, 2) default(0)
  approx.knob @one range(0, 1) default(0)

  // CHECK-LABEL: gpu.func @tile
  // CHECK-DAG: %[[THIRD:.*]] = arith.constant 0.333333343 : f32
  // CHECK-DAG: %[[TWOTHIRDS:.*]] = arith.constant 0.666666686 : f32
  // CHECK: %[[H:.*]] = memref.dim %{{.*}}, %c0
  // CHECK: %[[W:.*]] = memref.dim %{{.*}}, %c1
  // CHECK: %[[K:.*]] = approx.knob_value @scheme : i32
  // CHECK: %[[SEL:.*]] = arith.index_castui %[[K]]
  // CHECK: scf.index_switch %[[SEL]]
  // rows, skip 2: the first loaded row, then rows 3 apart.
  // CHECK: case 1 {
  // CHECK: arith.ceildivsi
  // CHECK: scf.for
  // CHECK: arith.muli %{{.*}}, %c3
  // CHECK: memref.load
  // CHECK: memref.store
  // stencil: the 8 x 32 interior only; nn, so an element on the tile's
  // edge also fills the halo beyond it (fused: no rebuild case).
  // CHECK: case 2 {
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c256 step
  // CHECK-DAG: arith.cmpi eq, %{{.*}}, %c1 :
  // CHECK-DAG: arith.cmpi eq, %{{.*}}, %c8 :
  // CHECK-DAG: arith.cmpi eq, %{{.*}}, %c2 :
  // CHECK-DAG: arith.cmpi eq, %{{.*}}, %c33 :
  // CHECK: scf.if
  // CHECK: memref.store
  // accurate (the default): all 10 x 36.
  // CHECK: default {
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c360 step
  // The barriers sit at the function body's level, outside the switches.
  // CHECK-NOT: gpu.barrier
  // CHECK: {{^      }}gpu.barrier
  // CHECK-NEXT: scf.index_switch %[[SEL]]
  // CHECK: case 1 {
  // CHECK: scf.if
  // CHECK: arith.select %{{.*}}, %[[TWOTHIRDS]], %[[THIRD]] : f32
  // CHECK: math.fma
  // CHECK: memref.store
  // CHECK-NOT: case 2
  // CHECK: default {
  // CHECK-NEXT: }
  // CHECK-NEXT: {{^      }}gpu.barrier
  // CHECK-NOT: approx.perforation
  // CHECK: gpu.return
  gpu.func @tile(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%t: memref<10x36xf32, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 2) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 2, recon = linear>,
                 #approx.perforation<stencil>])
        knob(@scheme) : memref<?x?xf32> to memref<10x36xf32, #gpu.address_space<workgroup>>
    gpu.return
  }

  // 1-D, border(zero): loads are guarded; whole 8-element sectors skipped;
  // linear weights k/9 across the 8-element gap.
  // CHECK-LABEL: gpu.func @line
  // CHECK-DAG: arith.constant 0.888888895 : f32
  // CHECK-DAG: arith.constant 0.111111112 : f32
  // CHECK: scf.index_switch
  // CHECK: case 1 {
  // CHECK: arith.floordivsi %{{.*}}, %c8
  // CHECK: scf.if
  // CHECK: scf.if %{{.*}} -> (f32) {
  // CHECK: memref.load
  // CHECK: } else {
  // CHECK: default {
  // CHECK: gpu.barrier
  // CHECK: scf.index_switch
  // CHECK: math.fma
  // CHECK: gpu.barrier
  gpu.func @line(%x: memref<?xf32>, %s: index)
      workgroup(%b: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.load_1d %x[%s] into %b halo(2) border(zero)
        schemes([#approx.perforation<accurate>, #approx.perforation<rows, skip = 1, recon = linear>])
        knob(@one) : memref<?xf32> to memref<64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }

  // rows, skip 2: the middle row of each group of 3 (clamped to the last
  // row) computes and stores the group's rows.
  // CHECK-LABEL: gpu.func @paraprox
  // CHECK-SAME: (%[[IN:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?x?xf32>, %[[Y:.*]]: index, %[[X:.*]]: index)
  // CHECK: %[[HT:.*]] = memref.dim %[[OUT]], %c0
  // CHECK: %[[G:.*]] = arith.divui %[[Y]], %c3
  // CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %c3
  // CHECK: %[[MID:.*]] = arith.addi %[[FIRST]], %c1
  // CHECK: %[[LAST:.*]] = arith.subi %[[HT]], %c1
  // CHECK: %[[R:.*]] = arith.minsi %[[MID]], %[[LAST]]
  // CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %[[HT]]
  // CHECK: %[[MINE:.*]] = arith.cmpi eq, %[[R]], %[[Y]]
  // CHECK: scf.if %[[MINE]] {
  // CHECK: %[[V:.*]] = memref.load %[[IN]][%[[R]], %[[X]]]
  // CHECK: scf.for %[[YY:.*]] = %[[FIRST]] to %[[END]]
  // CHECK: memref.store %[[V]], %[[OUT]][%[[YY]],
  // CHECK-NOT: approx.perforation
  gpu.func @paraprox(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %y: index, %x: index) kernel {
    approx.perforation.output %out[%y, %x]
        schemes([#approx.perforation<rows, skip = 2>]) : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      %v = memref.load %in[%r, %c] : memref<?x?xf32>
      approx.perforation.yield %v : f32
    }
    gpu.return
  }
}
