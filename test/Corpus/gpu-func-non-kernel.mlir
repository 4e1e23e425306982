// A device library beside its kernels: @gamma_correct (a non-kernel gpu.func,
// exported from the module as a .func, called by nobody inside it) applies
// x^(1/2.2) with math.powf; the kernels @srgb_encode and @srgb_decode apply
// the sRGB transfer curve and its inverse (powf with constant exponents) to
// pixel values in [0, 1]. Feature: a non-kernel gpu.func next to kernels.
// LAUNCH: --kernel srgb_encode --block 256 --grid 32 --size 8192 --input 0=uniform:0:1 --scalar 2=size
// LAUNCH: --kernel srgb_decode --block 256 --grid 32 --size 8192 --input 0=uniform:0:1 --scalar 2=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/color.ptx -o %t/upstream.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/upstream/color.ptx
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=non_kernel" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/non_kernel.ptx -o %t/non_kernel.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/non_kernel.ptx
// RUN: %summary %t/non_kernel.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/non_kernel.manifest.json | FileCheck %s --check-prefix=SITE
//
// PTX-DAG: .visible .func {{.*}}gamma_correct(
// PTX-DAG: .visible .entry srgb_encode(
// PTX-DAG: .visible .entry srgb_decode(
// MAN: manifest version=3 module=non_kernel gpu_module=color chip=sm_90 kernels=2
// MAN-NEXT: knob lambda
// MAN-NOT: gamma_correct
// MAN: kernel srgb_encode args=(memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=1
// MAN-NEXT: kernel srgb_decode args=(memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=1
// MAN-NOT: {{^}}kernel

module attributes {gpu.container_module} {
  gpu.module @color {
    gpu.func @gamma_correct(%x: f32) -> f32 {
      %g = arith.constant 0.454545468 : f32
      %y = math.powf %x, %g : f32
      gpu.return %y : f32
    }

    // Linear -> sRGB: 12.92 x below 0.0031308, else 1.055 x^(1/2.4) - 0.055.
    gpu.func @srgb_encode(%lin: memref<?xf32>, %enc: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %x = memref.load %lin[%i] : memref<?xf32>
        %knee = arith.constant 0.0031308 : f32
        %low = arith.cmpf olt, %x, %knee : f32
        %y = scf.if %low -> f32 {
          %s = arith.constant 12.92 : f32
          %l = arith.mulf %s, %x : f32
          scf.yield %l : f32
        } else {
          %p = arith.constant 0.416666657 : f32
          // SITE-DAG: site pow f32 form=tunable knob=lambda function=srgb_encode kernels=[srgb_encode] loc=gpu-func-non-kernel.mlir:[[@LINE+1]]:
          %e = math.powf %x, %p : f32
          %a = arith.constant 1.055 : f32
          %b = arith.constant 0.055 : f32
          %m = arith.mulf %a, %e : f32
          %h = arith.subf %m, %b : f32
          scf.yield %h : f32
        }
        memref.store %y, %enc[%i] : memref<?xf32>
      }
      gpu.return
    }

    // sRGB -> linear: x / 12.92 below 0.04045, else ((x + 0.055) / 1.055)^2.4.
    gpu.func @srgb_decode(%enc: memref<?xf32>, %lin: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %x = memref.load %enc[%i] : memref<?xf32>
        %knee = arith.constant 0.04045 : f32
        %low = arith.cmpf olt, %x, %knee : f32
        %y = scf.if %low -> f32 {
          %s = arith.constant 0.0773993805 : f32
          %l = arith.mulf %s, %x : f32
          scf.yield %l : f32
        } else {
          %a = arith.constant 0.055 : f32
          %b = arith.constant 0.947867274 : f32
          %t = arith.addf %x, %a : f32
          %u = arith.mulf %t, %b : f32
          %p = arith.constant 2.4 : f32
          // SITE-DAG: site pow f32 form=tunable knob=lambda function=srgb_decode kernels=[srgb_decode] loc=gpu-func-non-kernel.mlir:[[@LINE+1]]:
          %e = math.powf %u, %p : f32
          scf.yield %e : f32
        }
        memref.store %y, %lin[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
