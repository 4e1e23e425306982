// Run-length boundaries and a xorshift32 random stream, integers only:
// flags[i] = 1 where keys[i] differs from keys[i-1] (i8 flags), and each
// thread advances its xorshift32 state `rounds` times. Nothing to
// approximate: the manifest lists the kernels with no knob and no site, and
// the PTX has no knob global and no %warpid read. Feature: an integer-only
// gpu.module.
// LAUNCH: --kernel boundaries --block 256 --grid 16 --size 4096 --input 0=uniform:0:8 --scalar 2=size
// LAUNCH: --kernel xorshift --block 256 --grid 16 --size 4096 --inout 0=uniform:1:2000000000 --scalar 1=size --scalar 2=16
//
// REQUIRES: ptxas, libdevice
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream %s -o %t/upstream.mlir
// RUN: %extract_ptx %t/upstream.mlir %t/upstream
// RUN: %ptxas -arch=sm_90 %t/upstream/ints.ptx -o %t/upstream.cubin
// RUN: approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=integer_only" -o %t/final.mlir
// RUN: %ptxas -arch=sm_90 %t/integer_only.ptx -o %t/integer_only.cubin
// RUN: not grep -E '%%warpid|\.global .*lambda' %t/integer_only.ptx
// RUN: %summary %t/integer_only.manifest.json | FileCheck %s --check-prefix=MAN
//
// MAN: manifest version=3 module=integer_only gpu_module=ints chip=sm_90 kernels=2 sites=0
// MAN-NOT: knob
// MAN: kernel boundaries args=(memref<?xi32> read, memref<?xi8> write, scalar {{index|i64}}) knobs=[] sites=0
// MAN-NEXT: kernel xorshift args=(memref<?xi32> readwrite, scalar {{index|i64}}, scalar i32) knobs=[] sites=0

module attributes {gpu.container_module} {
  gpu.module @ints {
    gpu.func @boundaries(%keys: memref<?xi32>, %flags: memref<?xi8>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %k = memref.load %keys[%i] : memref<?xi32>
        %first = arith.cmpi eq, %i, %c0 : index
        %f = scf.if %first -> i1 {
          %true = arith.constant true
          scf.yield %true : i1
        } else {
          %im1 = arith.subi %i, %c1 : index
          %kp = memref.load %keys[%im1] : memref<?xi32>
          %d = arith.cmpi ne, %k, %kp : i32
          scf.yield %d : i1
        }
        %f8 = arith.extui %f : i1 to i8
        memref.store %f8, %flags[%i] : memref<?xi8>
      }
      gpu.return
    }

    gpu.func @xorshift(%state: memref<?xi32>, %n: index, %rounds: i32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %c0 = arith.constant 0 : i32
        %c1 = arith.constant 1 : i32
        %c13 = arith.constant 13 : i32
        %c17 = arith.constant 17 : i32
        %c5 = arith.constant 5 : i32
        %s0 = memref.load %state[%i] : memref<?xi32>
        %s = scf.for %r = %c0 to %rounds step %c1 iter_args(%x = %s0) -> (i32) : i32 {
          %a = arith.shli %x, %c13 : i32
          %x1 = arith.xori %x, %a : i32
          %b = arith.shrui %x1, %c17 : i32
          %x2 = arith.xori %x1, %b : i32
          %c = arith.shli %x2, %c5 : i32
          %x3 = arith.xori %x2, %c : i32
          scf.yield %x3 : i32
        }
        memref.store %s, %state[%i] : memref<?xi32>
      }
      gpu.return
    }
  }
}
