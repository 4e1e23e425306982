//===- PrecisionOps.td - precision scaling ---------------------*- tablegen -*-===//
//
// The precision op family: "PreScaler" (CGO'20). Each memory object of a
// kernel is stored in a type of its own (f64, f32, f16, bf16) and converted
// where it is loaded and stored; the storage types are knobs. The attributes
// here are those knobs' values (docs/precision.md, "Compiler side").
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_PRECISIONOPS_TD
#define APPROX_PRECISIONOPS_TD

include "approx/Dialect/ApproxBase.td"

def Approx_StorageAttr
    : Approx_Attr<"Storage", "storage",
                  [DeclareAttrInterfaceMethods<Approx_KnobValueAttrInterface>]> {
  let summary = "the storage type of one memory object";
  let description = [{
    A value of a storage knob (manifest domain `storage`): the float type a
    memory object is stored in, f64, f32, f16 or bf16 (payload `storage`, id
    the type's name).

    ```mlir
    #approx.storage<f16>
    ```
  }];
  let parameters = (ins "::mlir::FloatType":$type);
  let assemblyFormat = "`<` $type `>`";
  let genVerifyDecl = 1;
}

def Approx_StorageConfigAttr
    : Approx_Attr<"StorageConfig", "storage_config",
                  [DeclareAttrInterfaceMethods<Approx_KnobValueAttrInterface>]> {
  let summary = "the storage types of a kernel variant's float arguments";
  let description = [{
    A value of a precision variant knob (`approx-precision-variants`): the
    storage type of each float memref argument, by argument index (payload
    `storage_config`; id the types joined by `_`, e.g. `f32_f16`).

    ```mlir
    #approx.storage_config<args = [0, 2], types = [f32, f16]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$args,
                        ArrayRefParameter<"::mlir::Type">:$types);
  // Explicit brackets: an array parameter parses as a bare comma list.
  let assemblyFormat =
      "`<` `args` `=` `[` $args `]` `,` `types` `=` `[` $types `]` `>`";
  let genVerifyDecl = 1;
}

#endif // APPROX_PRECISIONOPS_TD
