//===- LnsOps.td - logarithmic number system ops --------------*- tablegen -*-===//
//
// The lns op family: "Implementing LNS using filtering units of GPUs"
// (ICASSP'10). A value of type !approx.lns is a real X held as log2|X| (f32)
// and a sign; products are sums of logs, sums need sb(x) = log2(1 + 2^x)
// and db(x) = log2|1 - 2^x|, whose evaluation (`impl`) is the tunable part:
// texture filtering units, the SFU, FMA polynomials, or a warp split of the
// texture units and the SFU. docs/lns.md has the numerics.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_LNSOPS_TD
#define APPROX_LNSOPS_TD

include "approx/Dialect/ApproxBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type.
//===----------------------------------------------------------------------===//

def Approx_LnsType : TypeDef<Approx_Dialect, "Lns"> {
  let mnemonic = "lns";
  let summary = "a real number in the logarithmic number system";
  let description = [{
    A real X held as `log2|X|` in f32 plus a sign bit. Zero is exact: its
    log is -inf (and its sign is ignored). `approx-lns-expand` turns each
    value into the pair (f32 log, i1 negative); memory holds the pair's
    parts, read and written with `approx.lns.pack` / `approx.lns.unpack`.
  }];
}

//===----------------------------------------------------------------------===//
// How sb/db are evaluated.
//===----------------------------------------------------------------------===//

def Approx_LnsImplKind : I32EnumAttr<"LnsImplKind",
    "how the LNS functions sb and db are evaluated", [
    // libdevice log1p/exp2/expm1/log2 (what nvcc gives without fast math).
    I32EnumAttrCase<"precise", 0>,
    // ex2.approx + lg2.approx on the SFU; 2^x shared by sb and db.
    I32EnumAttrCase<"sfu", 1>,
    // Piecewise minimax polynomials of degree <= 5 on the FMA units.
    I32EnumAttrCase<"horner", 2>,
    // Linear filtering of a table of node values (one fetch).
    I32EnumAttrCase<"texture1", 3>,
    // The paper's order-2 method: one bilinear fetch evaluates a0+a1g+a2g^2.
    I32EnumAttrCase<"texture2", 4>,
    // Warps whose slot id is below the knob take texture2, the others sfu.
    I32EnumAttrCase<"split", 5>,
    // The paper's order-3 row: one trilinear fetch of a 2N x 2 x 2 3-D
    // texture evaluates a cubic stored as partial sums of its coefficients.
    I32EnumAttrCase<"texture3", 6>
  ]> {
  let cppNamespace = "::mlir::approx";
}

def Approx_LnsImplAttr : Approx_Attr<"LnsImpl", "lns_impl",
    [DeclareAttrInterfaceMethods<Approx_KnobValueAttrInterface>]> {
  let summary = "how an LNS op evaluates sb and db";
  let description = [{
    `kind` picks the implementation. The table implementations (`horner`,
    `texture1`, `texture2`, `texture3`, `split`) cut x in [-32, 0] into
    segments; how many per unit of x (a power of two, 1 to 1024; 1 to 256
    for `texture3`, whose 3-D texture is 64 texels wide per segment per unit
    and CUDA's 3-D textures at most 16384) is, in this order:
    - `segments`, when given;
    - else the fewest whose error, as the compiler's model of the GPU
      predicts it, is at most `max_error` (absolute for sb; for db absolute
      where |db| <= 1 and relative beyond) on inputs of `input_bits`
      fractional bits (multiples of 2^-input_bits), or on any f32 without
      `input_bits`;
    - else 2^(input_bits - 8), the paper's choice: the texture filter's
      8-bit fraction is then exact;
    - else 64.
    `texture3` is the paper's order-3 row: per segment a cubic whose
    coefficients' partial sums fill a 2 x 2 x 2 cell of a 3-D texture, so
    that one trilinear fetch with the fraction g in all three coordinates
    returns it through the hardware's rounded weights (docs/lns.md).
    `degree` is the polynomial degree of `horner` (1 to 5). `split` needs
    `knob`, an `approx.knob` holding λ: warps whose `slot` id is below λ use
    the texture units, the others the SFU.

    ```mlir
    #approx.lns_impl<texture2, segments = 64>
    #approx.lns_impl<texture2, input_bits = 14>
    #approx.lns_impl<texture3, segments = 16>
    #approx.lns_impl<texture1, input_bits = 16, max_error = 1.0e-6 : f64>
    #approx.lns_impl<horner, segments = 1, degree = 5>
    #approx.lns_impl<split, segments = 64, knob = @lambda, slot = hw>
    ```
  }];
  let parameters = (ins
    EnumParameter<Approx_LnsImplKind>:$kind,
    DefaultValuedParameter<"int64_t", "0",
      "segments per unit of x (0: derived)">:$segments,
    DefaultValuedParameter<"int64_t", "0",
      "fractional bits of the inputs (0: any f32)">:$input_bits,
    OptionalParameter<"::mlir::FloatAttr", "the largest error wanted">
      :$max_error,
    DefaultValuedParameter<"int64_t", "5", "horner's degree">:$degree,
    OptionalParameter<"::mlir::FlatSymbolRefAttr", "split's λ knob">:$knob,
    DefaultValuedParameter<"::mlir::approx::SlotKind",
      "::mlir::approx::SlotKind::hw", "split's warp-slot id">:$slot
  );
  let assemblyFormat = [{
    `<` $kind (`,` struct($segments, $input_bits, $max_error, $degree, $knob,
                          $slot)^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True when the implementation reads a table (a texture or a global).
    bool usesTable() const {
      return getKind() != LnsImplKind::precise &&
             getKind() != LnsImplKind::sfu;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Ops.
//===----------------------------------------------------------------------===//

class Approx_LnsOp<string mnemonic, list<Trait> traits = []>
    : Approx_Op<"lns." # mnemonic, traits>;

def Approx_LnsFromFloatOp : Approx_LnsOp<"from_float", [Pure]> {
  let summary = "an f32 as an LNS value (log2|x| computed precisely)";
  let description = [{
    `approx.lns.from_float %x : f32` is log2|x| with the sign of x; 0 gives
    the exact LNS zero (log -inf), NaN a NaN log.
  }];
  let arguments = (ins F32:$input);
  let results = (outs Approx_LnsType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Approx_LnsToFloatOp : Approx_LnsOp<"to_float", [Pure]> {
  let summary = "an LNS value as an f32 (2^log with the sign)";
  let arguments = (ins Approx_LnsType:$input);
  let results = (outs F32:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Approx_LnsPackOp : Approx_LnsOp<"pack", [Pure]> {
  let summary = "an LNS value from its log2 magnitude and its sign";
  let description = [{
    `approx.lns.pack %log, %negative` is the value whose log2|X| is `%log`
    and which is negative when `%negative` is true: how LNS data is read
    from memory (a log array, and a sign array or a constant `false` for
    data known to be positive).
  }];
  let arguments = (ins F32:$log, I1:$negative);
  let results = (outs Approx_LnsType:$result);
  let assemblyFormat = "$log `,` $negative attr-dict";
}

def Approx_LnsUnpackOp : Approx_LnsOp<"unpack", [Pure]> {
  let summary = "the log2 magnitude and the sign of an LNS value";
  let arguments = (ins Approx_LnsType:$input);
  let results = (outs F32:$log, I1:$negative);
  let assemblyFormat = "$input attr-dict";
}

class Approx_LnsBinaryOp<string mnemonic, string what, list<Trait> traits = []>
    : Approx_LnsOp<mnemonic, traits # [Pure]> {
  let summary = "LNS " # what;
  let arguments = (ins Approx_LnsType:$lhs, Approx_LnsType:$rhs);
  let results = (outs Approx_LnsType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}

def Approx_LnsMulOp : Approx_LnsBinaryOp<"mul", "product: a sum of logs",
                                         [Commutative]>;
def Approx_LnsDivOp : Approx_LnsBinaryOp<"div", "quotient: a difference of logs">;

class Approx_LnsSumOp<string mnemonic, string what>
    : Approx_LnsOp<mnemonic, [Pure,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "LNS " # what # " through sb and db";
  let description = [{
    With m the larger and s the smaller log, the result's log is
    m + sb(s - m) where the operands' effective signs agree and
    m + db(s - m) where they differ (the sign is the larger operand's);
    `impl` says how sb and db are evaluated. x + 0 = x and x - x = 0
    exactly.

    ```mlir
    %c = approx.lns.add %a, %b impl(#approx.lns_impl<texture2, segments = 64>)
    ```
  }];
  let arguments = (ins Approx_LnsType:$lhs, Approx_LnsType:$rhs,
                       Approx_LnsImplAttr:$impl);
  let results = (outs Approx_LnsType:$result);
  let assemblyFormat = "$lhs `,` $rhs `impl` `(` $impl `)` attr-dict";
}

def Approx_LnsAddOp : Approx_LnsSumOp<"add", "sum">;
def Approx_LnsSubOp : Approx_LnsSumOp<"sub", "difference">;

class Approx_LnsFunctionOp<string mnemonic, string what>
    : Approx_LnsOp<mnemonic, [Pure,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = what;
  let description = [{
    Evaluates the function on an f32 (the difference of two logs) as
    `impl` says. Defined on every f32: x > 0 is reduced by f(x) = x + f(-x)
    unless `nonpositive` promises x <= 0 (as `approx-lns-expand` does);
    below -32 the result is 0; NaN gives NaN. Ops of the same operand and
    `impl` share their work: one texel fetch, or one 2^x on the SFU.

    ```mlir
    %s = approx.lns.sb %d impl(#approx.lns_impl<sfu>) nonpositive : f32
    ```
  }];
  let arguments = (ins F32:$input, Approx_LnsImplAttr:$impl,
                       UnitAttr:$nonpositive);
  let results = (outs F32:$result);
  let assemblyFormat = [{
    $input `impl` `(` $impl `)` (`nonpositive` $nonpositive^)? attr-dict
    `:` type($result)
  }];
}

def Approx_LnsSbOp : Approx_LnsFunctionOp<"sb", "sb(x) = log2(1 + 2^x)">;
def Approx_LnsDbOp : Approx_LnsFunctionOp<"db", "db(x) = log2|1 - 2^x|">;

#endif // APPROX_LNSOPS_TD
