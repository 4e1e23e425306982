// approx-from-math: bad options and names are one-line errors at the module
// (nothing is changed); a non-kernel gpu.func gets a warning. Pass options
// apply to a whole input, so each RUN line takes one split-file part.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: approx-opt %t/a.mlir -verify-diagnostics --approx-from-math="functions=sin,sinc"
// RUN: approx-opt %t/b.mlir -verify-diagnostics --approx-from-math="functions=expm1"
// RUN: approx-opt %t/c.mlir -verify-diagnostics --approx-from-math="kernels=k,nope"
// RUN: approx-opt %t/d.mlir -verify-diagnostics --approx-from-math="kernels=helper"
// RUN: approx-opt %t/e.mlir -verify-diagnostics --approx-from-math="newton-steps=4"
// RUN: approx-opt %t/f.mlir -verify-diagnostics --approx-from-math="knob=k"
// RUN: approx-opt %t/g.mlir -verify-diagnostics --approx-from-math="knob-max=0"
// RUN: approx-opt %t/h.mlir -verify-diagnostics --approx-from-math="knob-max=2147483648"
// RUN: approx-opt %t/i.mlir -verify-diagnostics --approx-from-math="knob="
// RUN: approx-opt %t/j.mlir -verify-diagnostics --approx-from-math="knob=a-b"
// RUN: approx-opt %t/k.mlir -verify-diagnostics --approx-from-math="knob=1abc"
// RUN: approx-opt %t/l.mlir -verify-diagnostics --approx-from-math="chip=gfx90a"
// RUN: approx-opt %t/m.mlir -verify-diagnostics --approx-from-math
// RUN: approx-opt %t/n.mlir -verify-diagnostics --approx-from-math="kernels=m::k"
// RUN: approx-opt %t/o.mlir -verify-diagnostics --approx-from-math="correct=exp,sin"
// RUN: approx-opt %t/p.mlir -verify-diagnostics --approx-from-math="functions=exp,log correct=log"

//--- a.mlir
// expected-error @+1 {{approx-from-math: unknown function 'sinc' in functions=; expected one of sin, cos, tan, exp, exp2, log, log2, log10, pow, div, rcp, sqrt, rsqrt, tanh}}
module {
}

//--- b.mlir
// expected-error @+1 {{approx-from-math: functions= names 'expm1', which has no SFU form: ex2.approx(x) - 1 cancels near 0 and loses all relative accuracy there}}
module {
}

//--- c.mlir
// expected-error @+1 {{approx-from-math: kernels= names 'nope', which is not a kernel of any gpu.module (kernels: 'm::k')}}
module {
  gpu.module @m {
    gpu.func @k(%x: f32) kernel {
      %0 = math.sin %x : f32
      gpu.return
    }
  }
}

//--- d.mlir
// A non-kernel function is not a kernel either.
// expected-error @+1 {{approx-from-math: kernels= names 'helper', which is not a kernel of any gpu.module (kernels: none)}}
module {
  gpu.module @m {
    gpu.func @helper(%x: f32) {
      gpu.return
    }
  }
}

//--- e.mlir
// expected-error @+1 {{approx-from-math: newton-steps=4 is out of range [0, 3]}}
module {
}

//--- f.mlir
module {
  gpu.module @m {
    // expected-error @+1 {{approx-from-math: knob name 'k' is already taken by a 'gpu.func'}}
    gpu.func @k(%x: f32) kernel {
      %0 = math.sin %x : f32
      gpu.return
    }
  }
}

//--- g.mlir
// expected-error @+1 {{approx-from-math: knob-max=0 is out of range [1, 2147483647]}}
module {
}

//--- h.mlir
// expected-error @+1 {{approx-from-math: knob-max=2147483648 is out of range [1, 2147483647]}}
module {
}

//--- i.mlir
// expected-error @+1 {{approx-from-math: knob='' cannot be a PTX symbol: it is empty}}
module {
}

//--- j.mlir
// expected-error @+1 {{approx-from-math: knob='a-b' cannot be a PTX symbol: it contains '-'}}
module {
}

//--- k.mlir
// expected-error @+1 {{approx-from-math: knob='1abc' cannot be a PTX symbol: it starts with a digit}}
module {
}

//--- l.mlir
// expected-error @+1 {{approx-from-math: chip='gfx90a' is not of the form sm_XY}}
module {
}

//--- m.mlir
module {
  gpu.module @m {
    // expected-warning @+1 {{approx-from-math: gpu.func 'dev' is not a kernel and no kernel calls it: it is compiled as a device function, not approximated and not in the manifest (add `kernel` to launch it)}}
    gpu.func @dev(%x: f32) {
      %0 = math.sin %x : f32
      gpu.return
    }
  }
}

//--- n.mlir
// A qualified name must match its module.
// expected-error @+1 {{approx-from-math: kernels= names 'm::k', which is not a kernel of any gpu.module (kernels: 'other::k')}}
module {
  gpu.module @other {
    gpu.func @k(%x: f32) kernel {
      gpu.return
    }
  }
}

//--- o.mlir
// expected-error @+1 {{approx-from-math: correct= names 'sin'; form(correct) exists for exp, exp2, log and log2}}
module {
}

//--- p.mlir
// expected-error @+1 {{approx-from-math: 'log' is named in both functions= and correct=: choose one}}
module {
}
