// approx-precision-variants space=: one build knob per float memref
// argument (its own type, then each narrower listed type), no clones; the
// kernel is built for the values configuration= names (default: its own
// types). docs/configurations.md.
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f32,f16}))' | FileCheck %s --check-prefix=DEF
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f32,f16 configuration=precision__axpy__a0=f16,precision__axpy__a1=f16,other=x}))' | FileCheck %s --check-prefix=CFG
// Round trip.
// RUN: approx-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f32,f16 configuration=precision__axpy__a0=f32}))' | approx-opt -split-input-file | FileCheck %s --check-prefix=CFG32

// DEF-LABEL: gpu.module @m
// DEF-DAG: approx.build_knob @precision__axpy__a0 default(0) value(0) values([#approx.storage<f64>, #approx.storage<f32>, #approx.storage<f16>]) object(@axpy, 0)
// DEF-DAG: approx.build_knob @precision__axpy__a1 default(0) value(0) values([#approx.storage<f32>, #approx.storage<f16>]) object(@axpy, 1)
// DEF-DAG: approx.build_knob @precision__gather__a1 default(0) value(0) values([#approx.storage<f64>, #approx.storage<f32>, #approx.storage<f16>]) object(@gather, 1)
// DEF-NOT: approx.variant_knob
// DEF-LABEL: gpu.func @axpy(%{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf32>, %{{.*}}: f64)
// DEF-NOT: arith.extf %{{.*}} : f16
// DEF-NOT: gpu.func @axpy__p
// DEF-LABEL: gpu.func @gather(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xf64>)

// CFG-LABEL: gpu.module @m
// CFG-DAG: approx.build_knob @precision__axpy__a0 default(0) value(2) {{.*}} object(@axpy, 0)
// CFG-DAG: approx.build_knob @precision__axpy__a1 default(0) value(1) {{.*}} object(@axpy, 1)
// CFG-DAG: approx.build_knob @precision__gather__a1 default(0) value(0) {{.*}} object(@gather, 1)
// CFG-LABEL: gpu.func @axpy
// CFG-SAME: (%[[X:.*]]: memref<?xf16>, %[[Y:.*]]: memref<?xf16>, %{{.*}}: f64)
// CFG: %[[LX:.*]] = memref.load %[[X]][%{{.*}}] : memref<?xf16>
// CFG-NEXT: arith.extf %[[LX]] : f16 to f64
// CFG: %[[LY:.*]] = memref.load %[[Y]][%{{.*}}] : memref<?xf16>
// CFG-NEXT: arith.extf %[[LY]] : f16 to f32
// CFG: arith.truncf %{{.*}} : f32 to f16
// CFG-LABEL: gpu.func @gather(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xf64>)

// CFG32-LABEL: gpu.module @m
// CFG32: approx.build_knob @precision__axpy__a0 default(0) value(1)
// CFG32-LABEL: gpu.func @axpy(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: f64)
gpu.module @m {
  gpu.func @axpy(%x: memref<?xf64>, %y: memref<?xf32>, %a: f64) kernel {
    %i = gpu.global_id x
    %v = memref.load %x[%i] : memref<?xf64>
    %w = memref.load %y[%i] : memref<?xf32>
    %p = arith.mulf %v, %a : f64
    %q = arith.truncf %p : f64 to f32
    %r = arith.addf %q, %w : f32
    memref.store %r, %y[%i] : memref<?xf32>
    gpu.return
  }
  gpu.func @gather(%idx: memref<?xi32>, %v: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %k = memref.load %idx[%i] : memref<?xi32>
    %j = arith.index_cast %k : i32 to index
    %x = memref.load %v[%j] : memref<?xf64>
    memref.store %x, %v[%i] : memref<?xf64>
    gpu.return
  }
}

// -----

// An argument no listed type narrows gets no knob.
// DEF-LABEL: gpu.module @narrowest
// DEF-NOT: approx.build_knob
// DEF: gpu.func @half(
// CFG-LABEL: gpu.module @narrowest
gpu.module @narrowest {
  gpu.func @half(%x: memref<?xf16>) kernel {
    %i = gpu.global_id x
    %v = memref.load %x[%i] : memref<?xf16>
    memref.store %v, %x[%i] : memref<?xf16>
    gpu.return
  }
}

// -----

// Arguments a frontend names as one memory object (approx.object) share one
// knob, named after the object; the configuration types all of them.
// DEF-LABEL: gpu.module @objects
// DEF: approx.build_knob @precision__A default(0) value(0) values([#approx.storage<f64>, #approx.storage<f32>, #approx.storage<f16>]) object(@scale, 0) also {{\[\[}}@sum, 1]] named "A"
// DEF: approx.build_knob @precision__sum__a0 default(0) value(0) {{.*}} object(@sum, 0){{$}}
// DEF-NOT: approx.build_knob
// CFG-LABEL: gpu.module @objects
// CFG: gpu.func @scale(%{{.*}}: memref<?xf64>
// CFG: gpu.func @sum(%{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>
// RUN: approx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{space=f32,f16 configuration=precision__A=f16}))' | FileCheck %s --check-prefix=OBJ
// OBJ-LABEL: gpu.module @objects
// OBJ: approx.build_knob @precision__A default(0) value(2)
// OBJ: gpu.func @scale(%{{.*}}: memref<?xf16>
// OBJ: gpu.func @sum(%{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf16>
gpu.module @objects {
  gpu.func @scale(%a: memref<?xf64> {approx.object = "A"}) kernel {
    %i = gpu.global_id x
    %v = memref.load %a[%i] : memref<?xf64>
    %w = arith.mulf %v, %v : f64
    memref.store %w, %a[%i] : memref<?xf64>
    gpu.return
  }
  gpu.func @sum(%s: memref<?xf64>, %a: memref<?xf64> {approx.object = "A"}) kernel {
    %i = gpu.global_id x
    %v = memref.load %a[%i] : memref<?xf64>
    memref.store %v, %s[%i] : memref<?xf64>
    gpu.return
  }
}
