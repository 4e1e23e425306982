// A kernel written at the LLVM level, as a frontend lowering from C might
// emit it: raw pointers (!llvm.ptr<1> global, !llvm.ptr generic), indices
// from nvvm.read.ptx.sreg.*, llvm.getelementptr/llvm.load/llvm.store, and an
// llvm.atomicrmw fadd for a running sum; computes y[i] = a * exp(x[i]) + y[i]
// and sum += log(y[i]). Feature: !llvm.ptr kernel arguments (manifest kind
// "pointer") and NVVM/LLVM ops in a kernel with tunable math.
// LAUNCH: --kernel axpexp --block 256 --grid 16 --element 0=f32 --element 1=f32 --element 2=f32 --shape 0=4096 --shape 1=4096 --shape 2=1 --input 0=uniform:-4:4 --inout 1=uniform:1:2 --inout 2=uniform:0:1 --scalar 3=4096 --scalar 4=0.5
// The float sum depends on the order of the atomic additions:
// NONDETERMINISTIC: 2
// OUTPUT-TYPES: 1=f32 2=f32
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/rawptr.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=llvm_ptr" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/llvm_ptr.ptx -o %t/llvm_ptr.cubin
// RUN: %summary %t/llvm_ptr.manifest.json | FileCheck %s --check-prefix=MAN
// RUN: %summary %t/llvm_ptr.manifest.json | FileCheck %s --check-prefix=SITE
//
// MAN: manifest version=3 module=llvm_ptr gpu_module=rawptr chip=sm_90 kernels=1 sites=2
// MAN-NEXT: knob lambda
// MAN-NEXT: kernel axpexp args=(pointer<1>, pointer<0>, pointer<1>, scalar i32, scalar f32) knobs=[lambda] sites=2
// MAN: params axpexp sizes=[8 | 8 | 8 | 4 | 4]

module attributes {gpu.container_module} {
  gpu.module @rawptr {
    gpu.func @axpexp(%x: !llvm.ptr<1>, %y: !llvm.ptr, %sum: !llvm.ptr<1>, %n: i32,
                     %a: f32) kernel {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %bid = nvvm.read.ptx.sreg.ctaid.x : i32
      %bdim = nvvm.read.ptx.sreg.ntid.x : i32
      %base = arith.muli %bid, %bdim : i32
      %i = arith.addi %base, %tid : i32
      %in = arith.cmpi slt, %i, %n : i32
      scf.if %in {
        %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %py = llvm.getelementptr %y[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
        %xv = llvm.load %px : !llvm.ptr<1> -> f32
        %yv = llvm.load %py : !llvm.ptr -> f32
        // SITE-DAG: site exp f32 form=tunable knob=lambda function=axpexp kernels=[axpexp] loc=llvm-ptr-args.mlir:[[@LINE+1]]:
        %e = math.exp %xv : f32
        %ae = arith.mulf %a, %e : f32
        %r = arith.addf %ae, %yv : f32
        llvm.store %r, %py : f32, !llvm.ptr
        // SITE-DAG: site log f32 form=tunable knob=lambda function=axpexp kernels=[axpexp] loc=llvm-ptr-args.mlir:[[@LINE+1]]:
        %l = math.log %r : f32
        %old = llvm.atomicrmw fadd %sum, %l monotonic : !llvm.ptr<1>, f32
      }
      gpu.return
    }
  }
}
