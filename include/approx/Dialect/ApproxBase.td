//===- ApproxBase.td - the approx dialect, enums, op base class -*- tablegen -*-===//
//
// The `approx` dialect: transcendental functions that a GPU kernel may compute
// either precisely (libdevice / IEEE-rounded PTX) or on the SFU
// (`.approx.ftz` PTX), plus the tunable knobs that decide which warps take
// which form at run time.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_BASE_TD
#define APPROX_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Approx_Dialect : Dialect {
  let name = "approx";
  let cppNamespace = "::mlir::approx";
  let summary = "Tunable SFU approximation of transcendental functions on NVIDIA GPUs";
  let description = [{
    The `approx` dialect names each transcendental function of Tables 1 and 2
    of "SFU-driven transparent approximation acceleration on GPUs" (ICS'16)
    as an op: f32 `sin cos exp log pow div rcp sqrt rsqrt` and f64
    `div rcp sqrt rsqrt`. Every op names the `approx.knob` that governs it.

    An op with no `form` is *tunable*: `approx-warp-split` versions the code
    around it so that warps whose warp-slot id is below the knob's run-time
    value take the SFU form and the others the precise form. An op with a
    `form` is pinned to that form; `convert-approx-to-nvvm` lowers pinned ops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

/// Which implementation of a function an op is pinned to.
def Approx_Form : I32EnumAttr<"Form", "implementation of an approx op", [
    I32EnumAttrCase<"precise", 0>,
    I32EnumAttrCase<"sfu", 1>
  ]> {
  let cppNamespace = "::mlir::approx";
}

/// Where the warp-slot id compared against a knob comes from.
def Approx_SlotKind : I32EnumAttr<"SlotKind", "source of the warp-slot id", [
    // PTX %warpid: the hardware warp slot on the SM (the paper's choice).
    I32EnumAttrCase<"hw", 0>,
    // (global warp index) mod %nwarpid: same granularity, deterministic.
    I32EnumAttrCase<"Virtual", 1, "virtual">,
    // (linear thread id in the block) / 32: the paper's software warp id.
    I32EnumAttrCase<"software", 2>
  ]> {
  let cppNamespace = "::mlir::approx";
}

class Approx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Approx_Dialect, mnemonic, traits>;

#endif // APPROX_BASE_TD
