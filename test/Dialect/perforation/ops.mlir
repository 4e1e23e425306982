// Round trip of every perforation op and scheme form.
// RUN: approx-opt %s | approx-opt | FileCheck %s

gpu.module @kernels {
  approx.knob @scheme range(0, 4) default(0)
  approx.knob @one range(0, 1) default(0)

  // CHECK-LABEL: gpu.func @tile
  // CHECK: approx.perforation.tile_load %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}} halo(1, 2) border(clamp)
  // CHECK-SAME: schemes([#approx.perforation<accurate>, #approx.perforation<rows>, #approx.perforation<rows, skip = 2, recon = linear>, #approx.perforation<cols, skip = 3>, #approx.perforation<stencil>])
  // CHECK-SAME: knob(@scheme) : memref<?x?xf32> to memref<18x36xf32, #gpu.address_space<workgroup>>
  // CHECK: approx.perforation.tile_load {{.*}} halo(0, 0) border(zero) schemes([#approx.perforation<accurate>]) : memref<1024x1024xf16> to memref<8x32xf16, #gpu.address_space<workgroup>>
  gpu.func @tile(%img: memref<?x?xf32>, %h: memref<1024x1024xf16>, %r: index, %c: index)
      workgroup(%t: memref<18x36xf32, #gpu.address_space<workgroup>>,
                %u: memref<8x32xf16, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 2) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 1>,
                 #approx.perforation<rows, skip = 2, recon = linear>,
                 #approx.perforation<cols, skip = 3, recon = nn>,
                 #approx.perforation<stencil>])
        knob(@scheme)
        : memref<?x?xf32> to memref<18x36xf32, #gpu.address_space<workgroup>>
    approx.perforation.tile_load %h[%r, %c] into %u halo(0, 0) border(zero)
        schemes([#approx.perforation<accurate>])
        : memref<1024x1024xf16> to memref<8x32xf16, #gpu.address_space<workgroup>>
    gpu.return
  }

  // A padded buffer's view: rows 40 elements apart, the interior's first
  // column (3 + 1) a multiple of four.
  // CHECK-LABEL: gpu.func @padded
  // CHECK: approx.perforation.tile_load {{.*}} : memref<?x?xf32> to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
  gpu.func @padded(%img: memref<?x?xf32>, %r: index, %c: index)
      workgroup(%p: memref<10x40xf32, #gpu.address_space<workgroup>>) kernel {
    %t = memref.subview %p[0, 3] [10, 34] [1, 1]
        : memref<10x40xf32, #gpu.address_space<workgroup>>
          to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
    approx.perforation.tile_load %img[%r, %c] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<10x34xf32, strided<[40, 1], offset: 3>, #gpu.address_space<workgroup>>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @line
  // CHECK: approx.perforation.load_1d %{{.*}}[%{{.*}}] into %{{.*}} halo(2) border(clamp) schemes([#approx.perforation<accurate>, #approx.perforation<rows, recon = linear>]) knob(@one) : memref<?xf32> to memref<260xf32, #gpu.address_space<workgroup>>
  gpu.func @line(%x: memref<?xf32>, %s: index)
      workgroup(%b: memref<260xf32, #gpu.address_space<workgroup>>) kernel {
    approx.perforation.load_1d %x[%s] into %b halo(2) border(clamp)
        schemes([#approx.perforation<accurate>,
                 #approx.perforation<rows, skip = 1, recon = linear>])
        knob(@one) : memref<?xf32> to memref<260xf32, #gpu.address_space<workgroup>>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @paraprox
  // CHECK: approx.perforation.output %{{.*}}[%{{.*}}, %{{.*}}] schemes([#approx.perforation<accurate>, #approx.perforation<center, skip = 2>]) knob(@one) : memref<?x?xf32> {
  // CHECK-NEXT: ^bb0(%[[R:.*]]: index, %[[C:.*]]: index):
  // CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[R]], %[[C]]]
  // CHECK-NEXT: approx.perforation.yield %[[V]] : f32
  gpu.func @paraprox(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %y: index, %x: index) kernel {
    approx.perforation.output %out[%y, %x]
        schemes([#approx.perforation<accurate>, #approx.perforation<center, skip = 2>])
        knob(@one) : memref<?x?xf32> {
    ^bb0(%r: index, %c: index):
      %v = memref.load %in[%r, %c] : memref<?x?xf32>
      approx.perforation.yield %v : f32
    }
    gpu.return
  }
}
