//===- CoreOps.td - ops every approx technique shares -------*- tablegen -*-===//
//
// The core op family: knob declarations, knob reads, and the warp-slot id the
// SFU warp split compares against a knob.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_COREOPS_TD
#define APPROX_COREOPS_TD

include "approx/Dialect/ApproxBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Knobs.
//===----------------------------------------------------------------------===//

def Approx_KnobOp : Approx_Op<"knob", [Symbol,
    HasParent<"::mlir::gpu::GPUModuleOp">]> {
  let summary = "a tunable integer the runtime sets before a launch";
  let description = [{
    Declares a tunable i32 with an inclusive range and a default. It lowers to
    a `.visible .global .u32` variable of the same name in the PTX module,
    which a runtime writes with `cuModuleGetGlobal`; kernel signatures do not
    change. For warp-split knobs the value is λ: warps whose slot id is
    below λ take the SFU form.

    ```mlir
    approx.knob @lambda range(0, 64) default(0)
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$min, I64Attr:$max,
                       I64Attr:$default_value);
  let assemblyFormat = [{
    $sym_name `range` `(` $min `,` $max `)` `default` `(` $default_value `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

def Approx_KnobValueOp : Approx_Op<"knob_value", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead]>]> {
  let summary = "the current value of a knob";
  let description = [{
    Reads the run-time value of a knob (a load of its module global).

    ```mlir
    %l = approx.knob_value @lambda : i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$knob);
  let results = (outs I32:$value);
  let assemblyFormat = "$knob attr-dict `:` type($value)";
}

def Approx_WarpSlotOp : Approx_Op<"warp_slot", [Pure]> {
  let summary = "the id compared against a warp-split knob";
  let description = [{
    `hw`: PTX `%warpid`, the hardware warp slot on the SM (the paper's
    choice; PTX may change it after preemption, harmless when read once, but
    which elements are approximated then depends on the schedule).
    `virtual`: global warp index modulo `%nwarpid` (same granularity,
    bit-reproducible). `software`: linear thread id in the block / 32.
    All are uniform across a warp, so branching on them never diverges.

    ```mlir
    %s = approx.warp_slot hw : i32
    ```
  }];
  let arguments = (ins Approx_SlotKind:$kind);
  let results = (outs I32:$slot);
  let assemblyFormat = "$kind attr-dict `:` type($slot)";
}

#endif // APPROX_COREOPS_TD
