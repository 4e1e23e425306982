//===- ApproxBase.td - the approx dialect, enums, attributes -*- tablegen -*-===//
//
// The `approx` dialect: GPU kernels that trade a stated amount of accuracy
// for speed, tunably, with the error measured. This file holds what every op
// family shares: the dialect, its enums, the site attribute the techniques
// record what they did with, and the op base class.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_BASE_TD
#define APPROX_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Approx_Dialect : Dialect {
  let name = "approx";
  let cppNamespace = "::mlir::approx";
  let summary = "Tunable approximation of NVIDIA GPU kernels";
  let description = [{
    The `approx` dialect holds one op family per approximation technique,
    each governed by run-time knobs that the runtime sets and tunes:

    - core: knob declarations of three kinds (`approx.knob`: a device global
      such as the warp-split λ; `approx.variant_knob`: a choice among kernel
      variants; `approx.resource_knob`: a host-created texture the kernel
      reads through a handle), knob reads, and the warp-slot id;
    - sfu: the transcendental functions of "SFU-driven transparent
      approximation acceleration on GPUs" (ICS'16) and a few more, each
      computed precisely or on the SFU (`.approx` PTX), chosen per warp by a
      knob (`approx-warp-split`);
    - lns: a logarithmic number system type and its arithmetic, with sb/db
      evaluated by the texture filtering units, the SFU, FMA polynomials or a
      warp split of them ("Implementing LNS using filtering units of GPUs",
      ICASSP'10);
    - perforation: work-group tile loads that skip part of their global loads
      and rebuild the skipped elements in shared memory, the scheme chosen by
      a knob ("Local Memory-Aware Kernel Perforation", CGO'18), and
      Paraprox-style output perforation as the comparison.

    What each technique did, or chose not to do, is recorded on the
    `gpu.module` as `approx.sites`, an array of `#approx.site` attributes that
    `approx-record-manifest` writes to the manifest.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
}

class Approx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Approx_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums.
//===----------------------------------------------------------------------===//

/// Which implementation of a function an op is pinned to.
def Approx_Form : I32EnumAttr<"Form", "implementation of an approx op", [
    I32EnumAttrCase<"precise", 0>,
    I32EnumAttrCase<"sfu", 1>,
    // Correctly rounded (round to nearest): f32 exp, exp2, log, log2, from
    // the hard-to-round search's tables (passes/correct/).
    I32EnumAttrCase<"correct", 2>
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

/// What a technique did at a site.
def Approx_SiteForm : I32EnumAttr<"SiteForm", "what was done at a site", [
    // A knob chooses the form at run time.
    I32EnumAttrCase<"tunable", 0>,
    // Pinned to the approximate form by the input IR.
    I32EnumAttrCase<"sfu", 1>,
    // Precise: pinned by the input IR, or left precise (see the reason).
    I32EnumAttrCase<"precise", 2>,
    // The input already allowed an approximation (fastmath<afn>): lowered as
    // upstream lowers it, not tunable.
    I32EnumAttrCase<"fast", 3>,
    // Pinned by the input IR to an approximation other than the SFU's (the
    // technique's data names it, e.g. an LNS texture table).
    I32EnumAttrCase<"approximate", 4>,
    // Correctly rounded: pinned to form(correct), by the input IR or by
    // approx-from-math's `correct=`.
    I32EnumAttrCase<"correct", 5>
  ]> {
  let cppNamespace = "::mlir::approx";
}

/// Texture filtering of a resource knob's table.
def Approx_TextureFilter : I32EnumAttr<"TextureFilter", "texture filtering", [
    I32EnumAttrCase<"point", 0>,
    I32EnumAttrCase<"linear", 1>
  ]> {
  let cppNamespace = "::mlir::approx";
}

/// The shape of a resource knob's texture.
def Approx_TextureType : I32EnumAttr<"TextureType", "texture shape", [
    // A 2-D texture: tables tensor<H x W x C x f32>, fetched at (x, y).
    I32EnumAttrCase<"texture_2d", 0>,
    // A 3-D texture: tables tensor<D x H x W x C x f32>, fetched at (x, y, z).
    I32EnumAttrCase<"texture_3d", 1>
  ]> {
  let cppNamespace = "::mlir::approx";
}

/// Out-of-range texture coordinates of a resource knob's table.
def Approx_TextureAddress : I32EnumAttr<"TextureAddress",
    "texture address mode", [
    I32EnumAttrCase<"clamp", 0>,
    I32EnumAttrCase<"border", 1>,
    I32EnumAttrCase<"wrap", 2>,
    I32EnumAttrCase<"mirror", 3>
  ]> {
  let cppNamespace = "::mlir::approx";
}

//===----------------------------------------------------------------------===//
// Attributes.
//===----------------------------------------------------------------------===//

class Approx_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Approx_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Approx_KnobValueAttrInterface : AttrInterface<"KnobValueAttrInterface"> {
  let cppNamespace = "::mlir::approx";
  let description = [{
    One value of a categorical knob (a perforation scheme, a block shape, an
    LNS impl, a storage type): its id and its typed payload in the manifest
    (docs/manifest.schema.json, `value`). Each technique's value attributes
    implement it, so that the manifest writer knows no technique: a knob
    declaration lists its values as such attributes (`values(...)`).
  }];
  let methods = [
    InterfaceMethod<[{The value's id in the manifest: letters, digits and
      `_ . : + -` (e.g. `rows1:nn`, `32x8r4`, `horner`, `f32`).}],
      "std::string", "getValueId">,
    InterfaceMethod<[{The payload: a dictionary of plain attributes whose
      `type` names its schema definition (e.g. `perforation_scheme`).}],
      "::mlir::DictionaryAttr", "getPayload">,
    InterfaceMethod<[{The technique whose knobs take such values (the
      manifest knob's `technique`, e.g. `perforation`).}],
      "::llvm::StringRef", "getTechnique">,
  ];
}

def Approx_SiteAttr : Approx_Attr<"Site", "site"> {
  let summary = "what a technique did, or chose not to do, at one place";
  let description = [{
    Recorded by the techniques' passes in the `approx.sites` array of a
    `gpu.module`, and written to the manifest by `approx-record-manifest`
    (docs/manifest.md, "Sites"). `data` holds the technique's own keys.

    ```mlir
    #approx.site<technique = "sfu", function = "k", op = "exp", type = f32,
                 knob = @lambda, form = tunable, loc = "k.mlir:3:10",
                 data = {versioning = "region"}>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"technique that acted">:$technique,
    StringRefParameter<"function holding the site">:$function,
    StringRefParameter<"what was matched, e.g. exp">:$op,
    "::mlir::Type":$type,
    OptionalParameter<"::mlir::FlatSymbolRefAttr", "governing knob">:$knob,
    EnumParameter<Approx_SiteForm>:$form,
    StringRefParameter<"why, when not plainly tunable", "\"\"">:$reason,
    StringRefParameter<"source location, file:line:col", "\"\"">:$loc,
    OptionalParameter<"::mlir::DictionaryAttr", "technique data">:$data
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // APPROX_BASE_TD
