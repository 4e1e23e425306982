//===- SfuOps.td - transcendental function ops (SFU family) -*- tablegen -*-===//
//
// One op per function with an SFU form (the paper's Tables 1-2 and exp2,
// log2, log10, tan, tanh): each is computed precisely or on the SFU (`.approx`
// PTX), chosen per warp by a knob. Which types and options each function
// supports is the function table's business (FunctionTable.h); the ops here
// only name the functions.
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
    A math function with a precise and an SFU form, governed by a knob. Gives
    passes one typed way to read the function, the knob, the pinned form and
    the per-op options of every function op.
  }];
  let methods = [
    InterfaceMethod<"The function (a row of the function table).",
      "::mlir::approx::Function", "getFunction", (ins), [{}], [{
        return ConcreteOp::kFunction;
      }]>,
    InterfaceMethod<"The knob that governs this op.",
      "::mlir::FlatSymbolRefAttr", "getKnobAttr">,
    InterfaceMethod<"Bind this op to a knob.",
      "void", "setKnobAttr", (ins "::mlir::FlatSymbolRefAttr":$knob)>,
    InterfaceMethod<"The form this op is pinned to, if any.",
      "::std::optional<::mlir::approx::Form>", "getForm">,
    InterfaceMethod<"Pin this op to a form.",
      "void", "setForm", (ins "::std::optional<::mlir::approx::Form>":$form)>,
    InterfaceMethod<"f64 computed through the f32 SFU form.",
      "bool", "getDemote">,
    InterfaceMethod<"Set or clear `demote`.",
      "void", "setDemote", (ins "bool":$value)>,
    InterfaceMethod<"Reduce the argument to [-pi, pi] first.",
      "bool", "getRangeReduction">,
    InterfaceMethod<"Set or clear `range_reduction`.",
      "void", "setRangeReduction", (ins "bool":$value)>,
    InterfaceMethod<"Newton steps after an f64 SFU estimate, if set.",
      "::std::optional<uint32_t>", "getNewtonSteps">,
    InterfaceMethod<"Set (or with std::nullopt clear) `newton_steps`.",
      "void", "setNewtonSteps", (ins "::std::optional<uint32_t>":$steps)>,
    InterfaceMethod<"Newton steps after an f64 SFU estimate (0 if unset).",
      "unsigned", "getNewtonStepCount", (ins), [{}], [{
        std::optional<uint32_t> n = $_op.getNewtonSteps();
        return n ? *n : 0u;
      }]>,
  ];
  let extraSharedClassDeclaration = [{
    /// The function's table row.
    const ::mlir::approx::FunctionInfo &getFunctionInfo() {
      return ::mlir::approx::getFunctionInfo($_op.getFunction());
    }
    /// The scalar element type (the type itself, or a vector's element).
    ::mlir::Type getElementType() {
      return ::mlir::getElementTypeOrSelf($_op->getResult(0).getType());
    }
  }];
  let verify = [{ return ::mlir::approx::detail::verifyFunctionOp($_op); }];
}

/// f16, bf16, f32 or f64, or a fixed-size vector of one of them (computed
/// elementwise).
def Approx_FloatLike : AnyTypeOf<[F16, BF16, F32, F64,
    FixedVectorOfNonZeroRankOf<[F16, BF16, F32, F64]>],
    "f16, bf16, f32 or f64, or a fixed vector of them">;

// Common base: pure, same type in and out, knob checked against the symbol
// table of the enclosing gpu.module, the options every function may carry
// (the function table says which apply; the verifier enforces it).
class Approx_FunctionOp<string mnemonic, string fn, string fdesc,
                        dag operands>
    : Approx_Op<mnemonic, [Pure, SameOperandsAndResultType,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        Approx_FunctionOpInterface]> {
  let summary = fdesc;
  let arguments = !con(operands, (ins FlatSymbolRefAttr:$knob,
      OptionalAttr<Approx_Form>:$form, UnitAttr:$demote,
      UnitAttr:$range_reduction,
      OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<3>]>>
        :$newton_steps));
  let results = (outs Approx_FloatLike:$result);
  let extraClassDeclaration = [{
    static constexpr ::mlir::approx::Function kFunction =
        ::mlir::approx::Function::}] # fn # [{;
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult
    $cppClass::verifySymbolUses(::mlir::SymbolTableCollection &table) {
      return ::mlir::approx::detail::verifyKnobUse(*this, getKnobAttr(),
                                                   table, "approx.knob");
    }
  }];
}

class Approx_UnaryOp<string mnemonic, string fn, string fdesc>
    : Approx_FunctionOp<mnemonic, fn, fdesc, (ins Approx_FloatLike:$operand)> {
  let assemblyFormat = [{
    $operand `knob` `(` $knob `)` (`form` `(` $form^ `)`)? attr-dict
    `:` type($result)
  }];
}

class Approx_BinaryOp<string mnemonic, string fn, string fdesc>
    : Approx_FunctionOp<mnemonic, fn, fdesc,
        (ins Approx_FloatLike:$lhs, Approx_FloatLike:$rhs)> {
  let assemblyFormat = [{
    $lhs `,` $rhs `knob` `(` $knob `)` (`form` `(` $form^ `)`)? attr-dict
    `:` type($result)
  }];
}

// Options (attributes every function op may carry; the function table
// decides where they apply):
//  - `demote`: f64 through the f32 SFU form (cvt.rn.f32.f64, the f32 form,
//    cvt.f64.f32), for functions with no native f64 SFU form;
//  - `range_reduction`: reduce the argument to [-pi, pi] first (sin, cos,
//    tan);
//  - `newton_steps`: Newton refinement after an f64 SFU estimate (div, rcp,
//    sqrt, rsqrt), 0-3.
// f16/bf16 use a native half SFU form where PTX has one for the target
// (ex2.approx.f16 on sm_75+, ex2.approx.ftz.bf16 on sm_90+, tanh.approx.f16 /
// .bf16 likewise, with the x2 forms for vector pairs), otherwise the f32 form
// between conversions.

def Approx_SinOp : Approx_UnaryOp<"sin", "Sin", "sine"> {
  let description = [{
    Sine. SFU form (f32): `sin.approx.ftz.f32`, accurate only near [-pi, pi]
    (absolute error 2^-20.5 there, growing outside); `range_reduction`
    first maps the argument into [-pi, pi] with a two-constant Cody-Waite
    step.

    ```mlir
    %y = approx.sin %x knob(@lambda) {range_reduction} : f32
    ```
  }];
}
def Approx_CosOp : Approx_UnaryOp<"cos", "Cos", "cosine"> {
  let description = [{ Cosine; as `approx.sin`, with `cos.approx.ftz.f32`. }];
}
def Approx_TanOp : Approx_UnaryOp<"tan", "Tan", "tangent"> {
  let description = [{
    Tangent. SFU form (f32): `sin.approx.ftz.f32` over `cos.approx.ftz.f32`
    with `div.approx.ftz.f32` (CUDA's `__tanf`); same range as sin/cos.
  }];
}
def Approx_ExpOp : Approx_UnaryOp<"exp", "Exp", "natural exponential"> {
  let description = [{
    e^x. SFU form (f32): `mul.f32` by log2(e) then `ex2.approx.ftz.f32`.
  }];
}
def Approx_Exp2Op : Approx_UnaryOp<"exp2", "Exp2", "base-2 exponential"> {
  let description = [{
    2^x. SFU form: `ex2.approx.ftz.f32`; f16 `ex2.approx.f16` (sm_75+), bf16
    `ex2.approx.ftz.bf16` (sm_90+), and their x2 forms on vector pairs.
  }];
}
def Approx_LogOp : Approx_UnaryOp<"log", "Log", "natural logarithm"> {
  let description = [{
    ln x. SFU form (f32): `lg2.approx.ftz.f32` then `mul.f32` by ln 2.
  }];
}
def Approx_Log2Op : Approx_UnaryOp<"log2", "Log2", "base-2 logarithm"> {
  let description = [{ log2 x. SFU form (f32): `lg2.approx.ftz.f32`. }];
}
def Approx_Log10Op : Approx_UnaryOp<"log10", "Log10", "base-10 logarithm"> {
  let description = [{
    log10 x. SFU form (f32): `lg2.approx.ftz.f32` then `mul.f32` by
    log10(2) (CUDA's `__log10f`).
  }];
}
def Approx_PowOp : Approx_BinaryOp<"pow", "Pow", "power x^y"> {
  let description = [{
    x^y. SFU form (f32): `lg2.approx.ftz.f32` of |x|, `mul.f32` by y,
    `ex2.approx.ftz.f32` (the paper's form), with powf's special cases kept:
    the sign for negative x and odd integer y, NaN for negative x and
    non-integer y, pow(x, ±0) = 1, pow(1, y) = 1, zeros and infinities.
  }];
}
def Approx_DivOp : Approx_BinaryOp<"div", "Div", "division"> {
  let description = [{
    x / y. SFU form: f32 `div.approx.ftz.f32`; f64 `rcp.approx.ftz.f64` of y
    (refined by `newton_steps`) then a multiply, plus one residual correction
    when `newton_steps` > 0.
  }];
}
def Approx_RcpOp : Approx_UnaryOp<"rcp", "Rcp", "reciprocal 1/x"> {
  let description = [{
    1 / x. SFU form: `rcp.approx.ftz.f32` / `rcp.approx.ftz.f64`; f64 may
    add `newton_steps` Newton steps y' = y + y(1 - xy).
  }];
}
def Approx_SqrtOp : Approx_UnaryOp<"sqrt", "Sqrt", "square root"> {
  let description = [{
    sqrt x. SFU form: f32 `sqrt.approx.ftz.f32`; f64 `rcp.approx.ftz.f64` of
    `rsqrt.approx.ftz.f64` (the paper's form); with `newton_steps` > 0 the
    rsqrt estimate is refined and sqrt is x * rsqrt(x) plus one correction.
  }];
}
def Approx_RsqrtOp : Approx_UnaryOp<"rsqrt", "Rsqrt", "reciprocal square root"> {
  let description = [{
    1 / sqrt x. SFU form: `rsqrt.approx.ftz.f32` / `rsqrt.approx.ftz.f64`;
    f64 may add `newton_steps` Newton steps y' = y + y/2 (1 - x y^2).
    Precise form: `sqrt.rn` then `rcp.rn` (the paper's accurate column).
  }];
}
def Approx_TanhOp : Approx_UnaryOp<"tanh", "Tanh", "hyperbolic tangent"> {
  let description = [{
    tanh x. SFU form: `tanh.approx.f32` (sm_75+); f16 `tanh.approx.f16`
    (sm_75+), bf16 `tanh.approx.bf16` (sm_90+), and their x2 forms.
  }];
}

#endif // APPROX_SFUOPS_TD
