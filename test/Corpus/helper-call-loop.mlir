// Log-normal path sampling: @lognormal_step (a func.func helper) maps a
// normal variate to exp(mu + sigma z); the kernel calls it once at its top
// level for the starting price and again inside a time-step loop for the
// path, averaging the path. Feature: a func.func helper called at the top
// level of a kernel and from inside an scf.for loop.
// LAUNCH: --kernel paths --block 128 --grid 32 --size 4096 --input 0=normal:0:1 --shape 1=131072 --input 1=normal:0:1 --scalar 3=size --scalar 4=32
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/finance.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=helper_loop" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/helper_loop.ptx -o %t/helper_loop.cubin
// RUN: %summary %t/helper_loop.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/helper_loop.manifest.json | FileCheck %s --check-prefix=SITE
//
// The helper is inlined at both calls: two exp sites, both in @paths.
// MAN: manifest version=3 module=helper_loop gpu_module=finance chip=sm_90 kernels=1 sites=3
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel paths args=(memref<?xf32> read, memref<?xf32> read, memref<?xf32> write, scalar {{index|i64}}, scalar {{index|i64}}) knobs=[lambda] sites=3
// SITE-DAG: site exp f32 form=tunable knob=lambda function=paths kernels=[paths] loc=helper-call-loop.mlir:[[# @LINE + 10]]:{{[0-9]+}} (inlined at helper-call-loop.mlir:[[# @LINE + 28]]:
// SITE-DAG: site exp f32 form=tunable knob=lambda function=paths kernels=[paths] loc=helper-call-loop.mlir:[[# @LINE + 9]]:{{[0-9]+}} (inlined at helper-call-loop.mlir:[[# @LINE + 34]]:

module attributes {gpu.container_module} {
  gpu.module @finance {
    func.func private @lognormal_step(%z: f32) -> f32 {
      %mu = arith.constant 0.0005 : f32
      %sigma = arith.constant 0.02 : f32
      %s = arith.mulf %sigma, %z : f32
      %a = arith.addf %mu, %s : f32
      %e = math.exp %a : f32
      return %e : f32
    }

    // z0: one normal per path; zs: steps normals per path, path-major.
    gpu.func @paths(%z0: memref<?xf32>, %zs: memref<?xf32>, %avg: memref<?xf32>,
                    %npaths: index, %steps: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %p = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %p, %npaths : index
      scf.if %in {
        %hundred = arith.constant 100.0 : f32
        %z = memref.load %z0[%p] : memref<?xf32>
        %g0 = func.call @lognormal_step(%z) : (f32) -> f32
        %s0 = arith.mulf %hundred, %g0 : f32
        %zero = arith.constant 0.0 : f32
        %row = arith.muli %p, %steps : index
        %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%s = %s0, %sum = %zero) -> (f32, f32) {
          %k = arith.addi %row, %t : index
          %zk = memref.load %zs[%k] : memref<?xf32>
          %g = func.call @lognormal_step(%zk) : (f32) -> f32
          %s1 = arith.mulf %s, %g : f32
          %sum1 = arith.addf %sum, %s1 : f32
          scf.yield %s1, %sum1 : f32, f32
        }
        %si = arith.index_cast %steps : index to i32
        %sf = arith.sitofp %si : i32 to f32
        // SITE-DAG: site div f32 form=tunable knob=lambda function=paths kernels=[paths] loc=helper-call-loop.mlir:[[@LINE+1]]:
        %mean = arith.divf %r#1, %sf : f32
        memref.store %mean, %avg[%p] : memref<?xf32>
      }
      gpu.return
    }
  }
}
