//===- SfuOps.td - transcendental function ops (SFU family) -*- tablegen -*-===//
//
// One op per function of the paper's Tables 1-2: each may be computed
// precisely or on the SFU (`.approx` PTX), chosen per warp by a knob.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_SFUOPS_TD
#define APPROX_SFUOPS_TD

include "approx/Dialect/ApproxBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// The interface shared by every function op.
//===----------------------------------------------------------------------===//

def Approx_FunctionOpInterface : OpInterface<"ApproxFunctionOp"> {
  let cppNamespace = "::mlir::approx";
  let description = [{
    A transcendental function with a precise and (possibly) an SFU form,
    governed by a knob. Gives passes one way to read the knob, the pinned
    form and the per-op options of every function op.
  }];
  let methods = [
    InterfaceMethod<"The knob that governs this op.",
      "::mlir::FlatSymbolRefAttr", "getKnobAttr">,
    InterfaceMethod<"The form this op is pinned to, if any.",
      "::std::optional<::mlir::approx::Form>", "getForm">,
    InterfaceMethod<"Pin this op to a form.",
      "void", "setForm", (ins "::std::optional<::mlir::approx::Form>":$form)>,
    InterfaceMethod<"The function's short name (sin, div, ...).",
      "::llvm::StringRef", "getFunctionName", (ins), [{}], [{
        return $_op->getName().stripDialect();
      }]>,
  ];
  let verify = [{ return ::mlir::approx::detail::verifyFunctionOp($_op); }];
}

// Common base: pure, same type in and out, knob checked against the symbol
// table of the enclosing gpu.module.
class Approx_FunctionOp<string mnemonic, list<Trait> traits = []>
    : Approx_Op<mnemonic, traits # [Pure, SameOperandsAndResultType,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        Approx_FunctionOpInterface]> {
  let results = (outs AnyFloat:$result);
}

class Approx_UnaryOp<string mnemonic, string fdesc, dag extraArgs = (ins)>
    : Approx_FunctionOp<mnemonic> {
  let summary = fdesc;
  let arguments = !con((ins AnyFloat:$operand, FlatSymbolRefAttr:$knob,
                            OptionalAttr<Approx_Form>:$form), extraArgs);
  let assemblyFormat = [{
    $operand `knob` `(` $knob `)` (`form` `(` $form^ `)`)? attr-dict
    `:` type($result)
  }];
}

class Approx_BinaryOp<string mnemonic, string fdesc, dag extraArgs = (ins)>
    : Approx_FunctionOp<mnemonic> {
  let summary = fdesc;
  let arguments = !con((ins AnyFloat:$lhs, AnyFloat:$rhs,
                            FlatSymbolRefAttr:$knob,
                            OptionalAttr<Approx_Form>:$form), extraArgs);
  let assemblyFormat = [{
    $lhs `,` $rhs `knob` `(` $knob `)` (`form` `(` $form^ `)`)? attr-dict
    `:` type($result)
  }];
}

// Options by family:
//  - `demote`: f64 operand with no native SFU form; the SFU form computes in
//    f32 (cvt.rn.f32.f64, f32 SFU form, cvt.f64.f32).
//  - `range_reduction`: reduce the argument to [-pi, pi] before sin/cos.approx.
//  - `newton_steps`: Newton refinement steps after the f64 SFU estimate (0-3).
defvar DemoteArg = (ins UnitAttr:$demote);
defvar TrigArgs = (ins UnitAttr:$demote, UnitAttr:$range_reduction);
defvar NewtonArg = (ins OptionalAttr<I32Attr>:$newton_steps);

def Approx_SinOp : Approx_UnaryOp<"sin", "sine", TrigArgs> {
  let description = [{
    Sine. SFU form (f32): `sin.approx.ftz.f32`, accurate only near [-pi, pi]
    (absolute error 2^-20.5 there, growing outside); `range_reduction`
    first maps the argument into [-pi, pi] with a two-constant Cody-Waite
    step. f64 has an SFU form only with `demote`.

    ```mlir
    %y = approx.sin %x knob(@lambda) {range_reduction} : f32
    ```
  }];
}
def Approx_CosOp : Approx_UnaryOp<"cos", "cosine", TrigArgs> {
  let description = [{
    Cosine; as `approx.sin`, with `cos.approx.ftz.f32`.
  }];
}
def Approx_ExpOp : Approx_UnaryOp<"exp", "natural exponential", DemoteArg> {
  let description = [{
    e^x. SFU form (f32): `mul.f32` by log2(e) then `ex2.approx.ftz.f32`.
  }];
}
def Approx_LogOp : Approx_UnaryOp<"log", "natural logarithm", DemoteArg> {
  let description = [{
    ln x. SFU form (f32): `lg2.approx.ftz.f32` then `mul.f32` by ln 2.
  }];
}
def Approx_PowOp : Approx_BinaryOp<"pow", "power x^y", DemoteArg> {
  let description = [{
    x^y. SFU form (f32): `lg2.approx.ftz.f32`, `mul.f32`, `ex2.approx.ftz.f32`
    (the paper's form: defined for x > 0 only; x <= 0 gives NaN or 0).
  }];
}
def Approx_DivOp : Approx_BinaryOp<"div", "division", NewtonArg> {
  let description = [{
    x / y. SFU form: f32 `div.approx.ftz.f32`; f64 `rcp.approx.ftz.f64` of y
    (refined by `newton_steps`) then a multiply, plus one residual correction
    when `newton_steps` > 0.
  }];
}
def Approx_RcpOp : Approx_UnaryOp<"rcp", "reciprocal 1/x", NewtonArg> {
  let description = [{
    1 / x. SFU form: `rcp.approx.ftz.f32` / `rcp.approx.ftz.f64`; f64 may
    add `newton_steps` Newton steps y' = y + y(1 - xy).
  }];
}
def Approx_SqrtOp : Approx_UnaryOp<"sqrt", "square root", NewtonArg> {
  let description = [{
    sqrt x. SFU form: f32 `sqrt.approx.ftz.f32`; f64 `rcp.approx.ftz.f64` of
    `rsqrt.approx.ftz.f64` (the paper's form); with `newton_steps` > 0 the
    rsqrt estimate is refined and sqrt is x * rsqrt(x) plus one correction.
  }];
}
def Approx_RsqrtOp : Approx_UnaryOp<"rsqrt", "reciprocal square root", NewtonArg> {
  let description = [{
    1 / sqrt x. SFU form: `rsqrt.approx.ftz.f32` / `rsqrt.approx.ftz.f64`;
    f64 may add `newton_steps` Newton steps y' = y + y/2 (1 - x y^2).
    Precise form: `sqrt.rn` then `rcp.rn` (the paper's accurate column).
  }];
}

#endif // APPROX_SFUOPS_TD
