// End to end: the precision variants of an f64 and an f16 kernel compile
// through approx-to-ptx; each conversion is one PTX cvt (f64 -> f16/bf16 in
// one rounding, cvt.rn), the f16 <-> bf16 ones go through f32, and the
// manifest lists the variant knob with its dispatch and each variant's
// argument types. Configuration 0 (keep everywhere) is each kernel's own
// types: its variant is the kernel itself, under its own name.
// REQUIRES: libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: approx-opt %s --pass-pipeline='builtin.module(gpu.module(approx-precision-variants{configs=keep:keep:keep:keep,f32:f32:f32:bf16,f16:keep:f16:f32}))' | approx-opt --approx-to-ptx="chip=sm_90 output-dir=%t name=prec" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/prec.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/prec.manifest.json
// RUN: %summary %t/prec.manifest.json | FileCheck %s --check-prefix=SUM
// approx-to-ptx's precision= option runs the same pass in the pipeline:
// the same PTX and manifest.
// RUN: mkdir -p %t/option && approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t/option name=prec precision=keep:keep:keep:keep,f32:f32:f32:bf16,f16:keep:f16:f32" -o /dev/null
// RUN: diff %t/prec.ptx %t/option/prec.ptx
// RUN: diff %t/prec.manifest.json %t/option/prec.manifest.json
// A bad configuration is a one-line error and writes nothing.
// RUN: mkdir -p %t/bad && not approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t/bad name=prec precision=keep:keep:keep:keep,f12:keep:keep:keep" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: ls %t/bad | count 0
// BAD: error: {{.*}}f12
// ptxas accepts the PTX where the build found one.
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/prec.ptx -o %t/prec.cubin %}

// PTX-LABEL: .visible .entry axpy(
// PTX-NOT: cvt.{{.*}}f16
// PTX-NOT: cvt.{{.*}}f32
// PTX: ld.global.b64
// PTX: st.global.b64
// PTX-LABEL: .visible .entry axpy__p1(
// PTX: ld.global.b32
// PTX-NEXT: cvt.f64.f32
// PTX: ld.global.b32
// PTX-NEXT: cvt.f64.f32
// PTX: cvt.rn.f32.f64
// PTX: st.global.b32
// PTX-LABEL: .visible .entry axpy__p2(
// PTX: ld.global.b16
// PTX-NEXT: cvt.f64.f16
// PTX: ld.global.b64
// PTX: cvt.rn.f16.f64
// PTX: st.global.b16
// PTX-LABEL: .visible .entry half(
// PTX-NOT: cvt.{{.*}}f32
// PTX: fma.rn.f16
// PTX-LABEL: .visible .entry half__p1(
// PTX: ld.global.b32
// PTX-NEXT: cvt.rn.f16.f32
// PTX: ld.global.b16
// PTX-NEXT: cvt.f32.bf16
// PTX-NEXT: cvt.rn.f16.f32
// PTX-NEXT: fma.rn.f16
// PTX-NEXT: cvt.f32.f16
// PTX-NEXT: cvt.rn.bf16.f32
// PTX-NEXT: st.global.b16
// PTX-LABEL: .visible .entry half__p2(
// PTX: ld.global.b32
// PTX-NEXT: cvt.rn.f16.f32
// PTX-NEXT: fma.rn.f16
// PTX-NEXT: cvt.f32.f16
// PTX-NEXT: st.global.b32

// JSON: "knobs": [
// JSON: "default": 0,
// JSON-NEXT: "dispatch": [
// JSON-NEXT: {
// JSON-NEXT: "kernel": "axpy",
// JSON-NEXT: "variants": [
// JSON-NEXT: "axpy",
// JSON-NEXT: "axpy__p1",
// JSON-NEXT: "axpy__p2"
// JSON: "kernel": "half",
// JSON-NEXT: "variants": [
// JSON-NEXT: "half",
// JSON-NEXT: "half__p1",
// JSON-NEXT: "half__p2"
// JSON: "kind": "variant",
// JSON-NEXT: "max": 2,
// JSON-NEXT: "min": 0,
// JSON-NEXT: "name": "precision"

// SUM: knob precision kind=variant type=- range=0..2 default=0
// SUM: kernel axpy args=(scalar f64, memref<?xf64> read, memref<?xf64> read, memref<?xf64> write, memref<?xf64> none) knobs=[precision]
// SUM: kernel axpy__p1 args=(scalar f64, memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xbf16> none) knobs=[precision]
// SUM: kernel axpy__p2 args=(scalar f64, memref<?xf16> read, memref<?xf64> read, memref<?xf16> write, memref<?xf32> none) knobs=[precision]
// SUM: kernel half args=(memref<?xf16> read, memref<?xf16> read, memref<?xf16> write, memref<?xf16> readwrite) knobs=[precision]
// SUM: kernel half__p1 args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, memref<?xbf16> readwrite) knobs=[precision]
// SUM: kernel half__p2 args=(memref<?xf16> read, memref<?xf16> read, memref<?xf16> write, memref<?xf32> readwrite) knobs=[precision]

gpu.module @m {
  // out = a * x + y (+ the unused w, only to give both kernels 4 arrays).
  gpu.func @axpy(%a: f64, %x: memref<?xf64>, %y: memref<?xf64>, %out: memref<?xf64>, %w: memref<?xf64>) kernel {
    %i = gpu.global_id x
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf64>
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %xv = memref.load %x[%i] : memref<?xf64>
      %yv = memref.load %y[%i] : memref<?xf64>
      %p = arith.mulf %a, %xv : f64
      %s = arith.addf %p, %yv : f64
      memref.store %s, %out[%i] : memref<?xf64>
    }
    gpu.return
  }
  // acc[i] += x[i] * y[i] in f16; out[i] = x[i].
  gpu.func @half(%x: memref<?xf16>, %y: memref<?xf16>, %out: memref<?xf16>, %acc: memref<?xf16>) kernel {
    %i = gpu.global_id x
    %xv = memref.load %x[%i] : memref<?xf16>
    %yv = memref.load %y[%i] : memref<?xf16>
    %av = memref.load %acc[%i] : memref<?xf16>
    %p = arith.mulf %xv, %yv : f16
    %s = arith.addf %av, %p : f16
    memref.store %s, %acc[%i] : memref<?xf16>
    memref.store %xv, %out[%i] : memref<?xf16>
    gpu.return
  }
}
