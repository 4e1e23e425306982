// approx-perforation-output leaves what it cannot prove alone, with a remark
// naming the cause; bad options fail the pass with one line.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-perforation-output))' | FileCheck %s
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-output{schemes=accurate,stencil:nn}))' 2>&1 | FileCheck %s --check-prefix=STENCIL
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-output{schemes=accurate,rows1:linear}))' 2>&1 | FileCheck %s --check-prefix=RECON
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-output{schemes=rows1,rows1}))' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-perforation-output{knob=1x}))' 2>&1 | FileCheck %s --check-prefix=KNOB
// STENCIL: error: scheme 'stencil:nn' is input perforation; output perforation takes accurate, rows, cols or center
// RECON: error: scheme 'rows1:linear' is not accurate, rowsN, colsN or centerN
// TWICE: error: scheme 'rows1' is listed twice
// KNOB: error: knob name '1x' is not an identifier

// A kernel left alone keeps its stores.
// CHECK-LABEL: gpu.func @twice
// CHECK-COUNT-2: memref.store
gpu.module @m {
  gpu.func @twice(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    // expected-remark @+1 {{not output-perforated: the kernel stores to its output at the thread's coordinate more than once}}
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-remark @+1 {{not output-perforated: no store of one value per thread to out[y][x] (y, x the thread's global coordinate) in kernel 'transpose'}}
  gpu.func @transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    memref.store %v, %out[%x, %y] : memref<?x?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @inplace(%io: memref<?x?xf32>) kernel {
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %io[%y, %x] : memref<?x?xf32>
    // expected-remark @+1 {{not output-perforated: the stored value reads the output it is stored to}}
    memref.store %v, %io[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @other(%in: memref<?x?xf32>, %out: memref<?x?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    // expected-remark @+1 {{not output-perforated: the output is written by another op too}}
    memref.store %v, %out[%c0, %c0] : memref<?x?xf32>
    memref.store %v, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @atomic(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %acc: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %y = gpu.global_id y
    %x = gpu.global_id x
    %v = memref.load %in[%y, %x] : memref<?x?xf32>
    %old = memref.atomic_rmw addf %v, %acc[%y] : (f32, memref<?xf32>) -> f32
    // expected-remark @+1 {{not output-perforated: the stored value is computed by 'memref.atomic_rmw', which has side effects other than reads}}
    memref.store %old, %out[%y, %x] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// A tiled kernel (it holds a tile load) whose result is not stored as a
// float to a 2-D argument: nothing to perforate, said so.
gpu.module @m {
  // expected-remark @+1 {{not output-perforated: no store of a float to a 2-D argument in tiled kernel 'tiled1d'}}
  gpu.func @tiled1d(%img: memref<?x?xf32>, %out: memref<?xf32>)
      workgroup(%t : memref<10x34xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    approx.perforation.tile_load %img[%c0, %c0] into %t halo(1, 1) border(clamp)
        schemes([#approx.perforation<accurate>])
        : memref<?x?xf32> to memref<10x34xf32, #gpu.address_space<workgroup>>
    %x = gpu.global_id x
    %v = memref.load %t[%c1, %c1] : memref<10x34xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%x] : memref<?xf32>
    gpu.return
  }
}
