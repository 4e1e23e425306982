// Double-precision densities, one sample per thread: the Gaussian density
// exp(-(x-mu)^2 / (2 s^2)) / sqrt(2 pi s^2), the Student-t kernel
// (1 + t^2/nu)^(-(nu+1)/2), a periodic kernel sin(pi |x - mu| / 1.7)^2 plus
// the log-density, and the standardised residual (x - mu) * rsqrt(s^2). Feature:
// f64 math: sin/exp/log/pow have no SFU form (precise sites with a reason),
// div/sqrt/rsqrt do (tunable).
// LAUNCH: --kernel densities --block 128 --grid 32 --size 4096 --input 0=normal:0:2 --scalar 5=size --scalar 6=0.25 --scalar 7=1.5 --scalar 8=5.0
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/dens.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=f64_math" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/f64_math.ptx -o %t/f64_math.cubin
// RUN: %summary %t/f64_math.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/f64_math.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=f64_math gpu_module=dens chip=sm_90 kernels=1 sites=9
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel densities args=(memref<?xf64> read, memref<?xf64> write, memref<?xf64> write, memref<?xf64> write, memref<?xf64> write, scalar {{index|i64}}, scalar f64, scalar f64, scalar f64) knobs=[lambda] sites=9

module attributes {gpu.container_module} {
  gpu.module @dens {
    gpu.func @densities(%x: memref<?xf64>, %gauss: memref<?xf64>, %student: memref<?xf64>,
                        %periodic: memref<?xf64>, %resid: memref<?xf64>, %n: index,
                        %mu: f64, %s: f64, %nu: f64) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %half = arith.constant 0.5 : f64
        %one = arith.constant 1.0 : f64
        %twopi = arith.constant 6.2831853071795862 : f64
        %pi = arith.constant 3.1415926535897931 : f64
        %v = memref.load %x[%i] : memref<?xf64>
        %d = arith.subf %v, %mu : f64
        %d2 = arith.mulf %d, %d : f64
        %s2 = arith.mulf %s, %s : f64
        %two_s2 = arith.addf %s2, %s2 : f64
        // SITE-DAG: site div f64 form=tunable knob=lambda function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:
        %q = arith.divf %d2, %two_s2 : f64
        %nq = arith.negf %q : f64
        // SITE-DAG: site exp f64 form=precise knob={{.*}} function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:{{.*}} reason={{.*}}no SFU form
        %g0 = math.exp %nq : f64
        %var2pi = arith.mulf %twopi, %s2 : f64
        // SITE-DAG: site sqrt f64 form=tunable knob=lambda function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:
        %norm = math.sqrt %var2pi : f64
        // SITE-DAG: site div f64 form=tunable knob=lambda function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:
        %g = arith.divf %g0, %norm : f64
        memref.store %g, %gauss[%i] : memref<?xf64>
        // SITE-DAG: site div f64 form=tunable knob=lambda function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:
        %t2n = arith.divf %d2, %nu : f64
        %b = arith.addf %one, %t2n : f64
        %nu1 = arith.addf %nu, %one : f64
        %ex0 = arith.mulf %nu1, %half : f64
        %ex = arith.negf %ex0 : f64
        // SITE-DAG: site pow f64 form=precise knob={{.*}} function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:{{.*}} reason={{.*}}no SFU form
        %t = math.powf %b, %ex : f64
        memref.store %t, %student[%i] : memref<?xf64>
        %ad = math.absf %d : f64
        %pa = arith.mulf %pi, %ad : f64
        %invp = arith.constant 0.58823529411764708 : f64
        %arg = arith.mulf %pa, %invp : f64
        // SITE-DAG: site sin f64 form=precise knob={{.*}} function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:{{.*}} reason={{.*}}no SFU form
        %sn = math.sin %arg : f64
        %p2 = arith.mulf %sn, %sn : f64
        // SITE-DAG: site log f64 form=precise knob={{.*}} function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:{{.*}} reason={{.*}}no SFU form
        %lg = math.log %g : f64
        %pl = arith.addf %p2, %lg : f64
        memref.store %pl, %periodic[%i] : memref<?xf64>
        // SITE-DAG: site rsqrt f64 form=tunable knob=lambda function=densities kernels=[densities] loc=f64-math.mlir:[[@LINE+1]]:
        %is = math.rsqrt %s2 : f64
        %r = arith.mulf %d, %is : f64
        memref.store %r, %resid[%i] : memref<?xf64>
      }
      gpu.return
    }
  }
}
