// A technique registered from outside passes/ (approx-toy-opt.cpp: one
// registerTechnique call with one phase step and one populate call) takes
// part in approx-to-ptx and convert-approx-to-nvvm (docs/adding-a-technique.md).
// REQUIRES: libdevice
// RUN: rm -rf %t && mkdir -p %t

// Its Transform step runs when its option asks, and the PTX is written; its
// option spelled technique=toy.level=3 or, grouped, toy.level=3.
// RUN: approx-toy-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=toy technique=toy.level=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON
// RUN: approx-toy-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=toy toy.level=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON
// ON: remark: toy: marked @k at level 3
// RUN: FileCheck %s --check-prefix=PTX < %t/toy.ptx
// PTX: .entry k(

// Off unless asked.
// RUN: approx-toy-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t name=off" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// OFF-NOT: toy

// Its lowering pattern is one of convert-approx-to-nvvm's: the mark goes.
// Without the toy registered (approx-opt) it stays.
// RUN: approx-toy-opt %s --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm{chip=sm_90}))' | FileCheck %s --check-prefix=LOWER
// LOWER-LABEL: gpu.func @k
// LOWER-NOT: toy.mark
// RUN: approx-opt %s --pass-pipeline='builtin.module(gpu.module(convert-approx-to-nvvm{chip=sm_90}))' | FileCheck %s --check-prefix=PLAIN
// PLAIN: gpu.func @k{{.*}}toy.mark = 7

// Its options are its own; an unknown technique is named.
// RUN: not approx-toy-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t technique=toy.speed=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: approx-to-ptx: technique toy has no option 'speed' (it has: level)
// RUN: not approx-toy-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t technique=toy.level=x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: error: approx-to-ptx: technique toy: level='x' is not an integer
// RUN: not approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t technique=toy.level=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: approx-to-ptx: technique='toy.level=2': no technique 'toy' is registered (registered: sfu, lns, perforation, precision, correct)
// RUN: not approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t technique=sfu.knob-max=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: error: approx-to-ptx: technique=sfu.knob-max: sfu.knob-max is approx-to-ptx's knob-max; write sfu.knob-max=V or knob-max=V
// RUN: not approx-opt %s --approx-to-ptx="chip=sm_90 output-dir=%t technique=toy" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORM
// FORM: error: approx-to-ptx: technique='toy' is not NAME.KEY=VALUE

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?xf32>) kernel attributes {toy.mark = 7 : i64} {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<?xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
