// Dequantise-and-activate: int8 codes q become (q - zero_point) * scale +
// bias, clamped to +-clamp, then (when `elu` is set) passed through
// ELU(v) = v > 0 ? v : exp(v) - 1. The scalars have every narrow type: n
// (index), elu (i1), zero_point (i8), clamp (i16), scale (f16), bias (bf16),
// alpha (f64, ELU's slope). Feature: index/i1/i8/i16/f16/bf16/f64 scalar
// kernel arguments (their PTX parameters and manifest sizes).
// LAUNCH: --kernel dequant_elu --block 128 --grid 32 --size 4096 --input 0=uniform:-128:127 --scalar 2=size --scalar 3=1 --scalar 4=3 --scalar 5=100 --scalar 6=0.05 --scalar 7=-0.25 --scalar 8=1.0
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/quant.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=scalar_args" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/scalar_args.ptx -o %t/scalar_args.cubin
// RUN: %summary %t/scalar_args.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/scalar_args.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=scalar_args gpu_module=quant chip=sm_90 kernels=1 sites=1
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel dequant_elu args=(memref<?xi8> read, memref<?xf32> write, scalar {{index|i64}}, scalar i1, scalar i8, scalar i16, scalar f16, scalar bf16, scalar f64) knobs=[lambda] sites=1
// Parameter sizes: i1 is passed as one byte, i8 1, i16 2, f16 2, bf16 2, f64 8.
// MAN: params dequant_elu sizes=[8,8,8,8,8 | 8,8,8,8,8 | 8 | 1 | 1 | 2 | 2 | 2 | 8]

module attributes {gpu.container_module} {
  gpu.module @quant {
    gpu.func @dequant_elu(%q: memref<?xi8>, %out: memref<?xf32>, %n: index, %elu: i1,
                          %zero_point: i8, %clamp: i16, %scale: f16, %bias: bf16,
                          %alpha: f64) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %zero = arith.constant 0.0 : f32
        %one = arith.constant 1.0 : f32
        %qv = memref.load %q[%i] : memref<?xi8>
        %qi = arith.extsi %qv : i8 to i32
        %zi = arith.extsi %zero_point : i8 to i32
        %d = arith.subi %qi, %zi : i32
        %df = arith.sitofp %d : i32 to f32
        %sf = arith.extf %scale : f16 to f32
        %bf = arith.extf %bias : bf16 to f32
        %ci = arith.sitofp %clamp : i16 to f32
        %nci = arith.negf %ci : f32
        %v0 = arith.mulf %df, %sf : f32
        %v1 = arith.addf %v0, %bf : f32
        %v2 = arith.minimumf %v1, %ci : f32
        %v = arith.maximumf %v2, %nci : f32
        %r = scf.if %elu -> f32 {
          %pos = arith.cmpf ogt, %v, %zero : f32
          // SITE-DAG: site exp f32 form=tunable knob=lambda function=dequant_elu kernels=[dequant_elu] loc=scalar-args.mlir:[[@LINE+1]]:
          %e = math.exp %v : f32
          %em1 = arith.subf %e, %one : f32
          %af = arith.truncf %alpha : f64 to f32
          %neg = arith.mulf %af, %em1 : f32
          %s = arith.select %pos, %v, %neg : f32
          scf.yield %s : f32
        } else {
          scf.yield %v : f32
        }
        memref.store %r, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
