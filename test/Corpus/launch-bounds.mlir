// Launch-bound attributes must survive: three kernels computing the same
// Gaussian window w[i] = exp(-0.5 ((i - c) / s)^2) carry
// gpu.known_block_size (PTX .maxntid), nvvm.maxntid + nvvm.minctasm
// (.maxntid, .minnctapersm) and nvvm.reqntid + gpu.known_grid_size. The PTX
// of each kernel keeps the directives upstream writes. Feature: kernels with
// gpu.known_block_size / launch bounds.
// LAUNCH: --kernel window_known --block 128 --grid 32 --size 4096 --scalar 1=size --scalar 2=2048 --scalar 3=300
// LAUNCH: --kernel window_maxntid --block 256 --grid 16 --size 4096 --scalar 1=size --scalar 2=2048 --scalar 3=300
// LAUNCH: --kernel window_reqntid --block 64 --grid 64 --size 4096 --scalar 1=size --scalar 2=2048 --scalar 3=300
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/bounds.ptx -o %t/upstream.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/upstream/bounds.ptx
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=launch_bounds" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/launch_bounds.ptx -o %t/launch_bounds.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/launch_bounds.ptx
// RUN: %summary %t/launch_bounds.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/launch_bounds.manifest.json | FileCheck %s --check-prefix=SITE
//
// PTX-LABEL: .entry window_known(
// PTX: .maxntid 128, 1, 1
// PTX-LABEL: .entry window_maxntid(
// PTX: .maxntid 256, 1, 1
// PTX-NEXT: .minnctapersm 2
// PTX-LABEL: .entry window_reqntid(
// PTX: .reqntid 64, 1, 1
// MAN: manifest version=3 module=launch_bounds gpu_module=bounds chip=sm_90 kernels=3 sites=6
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel window_known args=(memref<?xf32> write, scalar {{index|i64}}, scalar f32, scalar f32) knobs=[lambda] sites=2
// MAN-NEXT: kernel window_maxntid args=(memref<?xf32> write, scalar {{index|i64}}, scalar f32, scalar f32) knobs=[lambda] sites=2
// MAN-NEXT: kernel window_reqntid args=(memref<?xf32> write, scalar {{index|i64}}, scalar f32, scalar f32) knobs=[lambda] sites=2
// SITE-DAG: site exp f32 form=tunable knob=lambda function=window_known kernels=[window_known]
// SITE-DAG: site exp f32 form=tunable knob=lambda function=window_maxntid kernels=[window_maxntid]
// SITE-DAG: site exp f32 form=tunable knob=lambda function=window_reqntid kernels=[window_reqntid]
// SITE-DAG: site div f32 form=tunable knob=lambda function=window_known kernels=[window_known]
// SITE-DAG: site div f32 form=tunable knob=lambda function=window_maxntid kernels=[window_maxntid]
// SITE-DAG: site div f32 form=tunable knob=lambda function=window_reqntid kernels=[window_reqntid]

module attributes {gpu.container_module} {
  gpu.module @bounds {
    func.func private @gauss(%i: index, %c: f32, %s: f32) -> f32 {
      %mhalf = arith.constant -0.5 : f32
      %ii = arith.index_cast %i : index to i32
      %x = arith.sitofp %ii : i32 to f32
      %d = arith.subf %x, %c : f32
      %z = arith.divf %d, %s : f32
      %z2 = arith.mulf %z, %z : f32
      %a = arith.mulf %mhalf, %z2 : f32
      %w = math.exp %a : f32
      return %w : f32
    }

    gpu.func @window_known(%w: memref<?xf32>, %n: index, %c: f32, %s: f32) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c128 = arith.constant 128 : index
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = func.call @gauss(%i, %c, %s) : (index, f32, f32) -> f32
        memref.store %v, %w[%i] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @window_maxntid(%w: memref<?xf32>, %n: index, %c: f32, %s: f32) kernel
        attributes {nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 2 : i32} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = func.call @gauss(%i, %c, %s) : (index, f32, f32) -> f32
        memref.store %v, %w[%i] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @window_reqntid(%w: memref<?xf32>, %n: index, %c: f32, %s: f32) kernel
        attributes {nvvm.reqntid = array<i32: 64, 1, 1>,
                    known_grid_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = func.call @gauss(%i, %c, %s) : (index, f32, f32) -> f32
        memref.store %v, %w[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
