// Debug tracing beside real work: every thread writes the entropy term
// -p log(p) of its probability, and threads whose term is not finite or
// whose p lies outside [0, 1] report it with gpu.printf (vprintf in PTX).
// Feature: gpu.printf in a kernel with tunable math (the printf sits in a
// branch after the approximated op; with the LAUNCH inputs nothing prints).
// LAUNCH: --kernel entropy --block 128 --grid 32 --size 4096 --input 0=uniform:0.001:1 --scalar 2=size
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/trace.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=printf" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/printf.ptx -o %t/printf.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/printf.ptx
// RUN: %summary %t/printf.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/printf.manifest.json | FileCheck %s --check-prefix=SITE
//
// PTX: .extern .func {{.*}}vprintf
// MAN: manifest version=3 module=printf gpu_module=trace chip=sm_90 kernels=1 sites=1
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel entropy args=(memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}) knobs=[lambda] sites=1

module attributes {gpu.container_module} {
  gpu.module @trace {
    gpu.func @entropy(%p: memref<?xf32>, %h: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %zero = arith.constant 0.0 : f32
        %one = arith.constant 1.0 : f32
        %inf = arith.constant 0x7F800000 : f32
        %true = arith.constant true
        %pv = memref.load %p[%i] : memref<?xf32>
        // SITE-DAG: site log f32 form=tunable knob=lambda function=entropy kernels=[entropy] loc=printf.mlir:[[@LINE+1]]:
        %l = math.log %pv : f32
        %pl = arith.mulf %pv, %l : f32
        %t = arith.negf %pl : f32
        memref.store %t, %h[%i] : memref<?xf32>
        %at = math.absf %t : f32
        %finite = arith.cmpf olt, %at, %inf : f32
        %lo = arith.cmpf oge, %pv, %zero : f32
        %hi = arith.cmpf ole, %pv, %one : f32
        %inrange = arith.andi %lo, %hi : i1
        %good = arith.andi %finite, %inrange : i1
        %bad = arith.xori %good, %true : i1
        scf.if %bad {
          %pd = arith.extf %pv : f32 to f64
          gpu.printf "entropy: thread %lld: p = %f gives a bad term\n", %i, %pd : index, f64
        }
      }
      gpu.return
    }
  }
}
